import { makePagination } from '@rally/shared/contracts/common';
import {
  kitBulkBody,
  kitBulkResponse,
  kitListQuery,
  kitListResponse,
  kitStateResponse,
  kitUpdateBody,
  kitUpdateResponse,
} from '@rally/shared/contracts/kit-tracking';
import type { FastifyInstance } from 'fastify';
import type { ZodTypeProvider } from 'fastify-type-provider-zod';
import { z } from 'zod';
import type { Db } from '../../db/client';
import { actorOf } from '../../lib/actor';
import { requireAuth } from '../../lib/authorize';
import { responses } from '../../lib/route-helpers';
import { presentParticipant } from './kit-tracking.presenter';
import { bulkUpdateKits, handOverAll, kitOf, listParticipants, updateKit } from './kit-tracking.service';

const access = { permission: 'manage_kits' } as const;
const userIdParam = z.object({ userId: z.uuid({ message: 'userId must be a valid user id' }) });

export async function kitTrackingRoutes(app: FastifyInstance, opts: { db: Db }) {
  const { db } = opts;
  const r = app.withTypeProvider<ZodTypeProvider>();

  r.get('/admin/kit-tracking', {
    config: { access },
    schema: { tags: ['kit-tracking'], querystring: kitListQuery, response: responses({ 200: kitListResponse }) },
    handler: async (request) => {
      const q = request.query;
      const { rows, total, stats } = await listParticipants(db, q, request.edition);
      return {
        success: true as const,
        data: { participants: rows.map(presentParticipant), pagination: makePagination(q.page, q.limit, total), stats },
      };
    },
  });

  r.put('/admin/kit-tracking/:userId', {
    config: { access },
    schema: {
      tags: ['kit-tracking'],
      params: userIdParam,
      body: kitUpdateBody,
      response: responses({ 200: kitUpdateResponse }, 409),
    },
    handler: async (request) => {
      const row = await updateKit(db, request.params.userId, request.body, actorOf(requireAuth(request)));
      return { success: true as const, data: presentParticipant(row), message: 'Kit tracking updated' };
    },
  });

  // A kit station's scanner opens the rider's kit: every scanning role reads it, only
  // manage_kits hands over.
  r.get('/admin/kit-tracking/:userId', {
    config: { access: { anyPermission: ['qr_scan', 'manage_kits'] } },
    // 409: the account is not (yet) a verified rider, as on the writes.
    schema: { tags: ['kit-tracking'], params: userIdParam, response: responses({ 200: kitStateResponse }, 409) },
    handler: async (request) => ({
      success: true as const,
      data: presentParticipant(await kitOf(db, request.params.userId, request.edition)),
    }),
  });

  r.post('/admin/kit-tracking/:userId/hand-over-all', {
    config: { access },
    schema: { tags: ['kit-tracking'], params: userIdParam, response: responses({ 200: kitUpdateResponse }, 409) },
    handler: async (request) => {
      const row = await handOverAll(db, request.params.userId, actorOf(requireAuth(request)));
      return { success: true as const, data: presentParticipant(row), message: 'Kit handed over' };
    },
  });

  r.post('/admin/kit-tracking/bulk-update', {
    config: { access },
    schema: { tags: ['kit-tracking'], body: kitBulkBody, response: responses({ 200: kitBulkResponse }, 404, 409) },
    handler: async (request) => {
      const rows = await bulkUpdateKits(db, request.body.updates, actorOf(requireAuth(request)));
      return {
        success: true as const,
        data: { updated: rows.length, participants: rows.map(presentParticipant) },
        message: `Updated kit tracking for ${rows.length} participant${rows.length === 1 ? '' : 's'}`,
      };
    },
  });
}
