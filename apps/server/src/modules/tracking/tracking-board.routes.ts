import type { FastifyInstance } from 'fastify';
import type { Config } from '../../config';
import type { Db } from '../../db/client';

export async function trackingBoardRoutes(_app: FastifyInstance, _opts: { db: Db; config: Config }) {}
