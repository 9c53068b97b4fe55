import { myEntriesResponse } from '@rally/shared/contracts/editions';
import type { FastifyInstance } from 'fastify';
import type { ZodTypeProvider } from 'fastify-type-provider-zod';
import type { Db } from '../../db/client';
import { requireAuth } from '../../lib/authorize';
import { responses } from '../../lib/route-helpers';
import { myEntries } from './entries.service';

export async function entryRoutes(app: FastifyInstance, opts: { db: Db }) {
  const { db } = opts;
  const r = app.withTypeProvider<ZodTypeProvider>();

  r.get('/my/entries', {
    config: { access: 'authenticated' },
    schema: {
      tags: ['entries'],
      description: 'The signed-in rider’s entries, newest first, with verification and result.',
      response: responses({ 200: myEntriesResponse }),
    },
    handler: async (request) => ({
      success: true as const,
      data: await myEntries(db, requireAuth(request).userId, app.clock.now()),
    }),
  });
}
