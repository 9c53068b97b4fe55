import { registrationState } from '@rally/shared/catalog/editions';
import { uuidParam } from '@rally/shared/contracts/common';
import {
  createEditionRequest,
  type Edition,
  editionResponse,
  editionsResponse,
  updateEditionRequest,
} from '@rally/shared/contracts/editions';
import type { FastifyInstance } from 'fastify';
import type { ZodTypeProvider } from 'fastify-type-provider-zod';
import type { Db } from '../../db/client';
import { actorOf } from '../../lib/actor';
import { sendJson } from '../../lib/answer-cache';
import { requireAuth } from '../../lib/authorize';
import { responses } from '../../lib/route-helpers';
import { presentEdition } from './editions.presenter';
import { createEdition, listEditions, updateEdition } from './editions.service';

const manage = { permission: 'manage_event' } as const;

export async function editionRoutes(app: FastifyInstance, opts: { db: Db }) {
  const { db } = opts;
  const r = app.withTypeProvider<ZodTypeProvider>();
  /** The last cached list, cut once per answer the cache hands out: each edition's JSON but its state, and its window. */
  let listed: { json: string; editions: Array<{ head: string; edition: Edition }> } = { json: '', editions: [] };

  // Public: the registration form reads the current edition's window before a rider types.
  r.get('/editions', {
    config: { access: 'public' },
    schema: { tags: ['editions'], response: responses({ 200: editionsResponse }) },
    // Read by every phone opening the registration form during a rush: the list comes from the
    // answer cache (any write drops it), each edition's JSON kept whole but for where its
    // window stands, which is added per request on the server's clock (the clock moves
    // without a write).
    handler: async (_request, reply) => {
      const cached = await app.answerCache.get('editions', async () =>
        JSON.stringify((await listEditions(db)).map((row) => presentEdition(row, new Date(0)))),
      );
      if (cached !== listed.json)
        listed = {
          json: cached,
          editions: (JSON.parse(cached) as Edition[]).map((edition) => ({
            edition,
            head: JSON.stringify({ ...edition, registration: undefined }).slice(0, -1),
          })),
        };
      const now = app.clock.now();
      const items = listed.editions.map((e) => `${e.head},"registration":"${registrationState(e.edition, now)}"}`);
      return sendJson(reply, `{"success":true,"data":[${items.join(',')}]}`);
    },
  });

  r.post('/admin/editions', {
    config: { access: manage },
    schema: {
      tags: ['editions'],
      description: 'Makes the next edition (not current). copyFrom: an edition whose settings it starts with.',
      body: createEditionRequest,
      response: responses({ 201: editionResponse }, 404, 409),
    },
    handler: async (request, reply) => {
      const row = await createEdition(db, request.body, actorOf(requireAuth(request)));
      return reply.code(201).send({
        success: true as const,
        data: { edition: presentEdition(row, app.clock.now()) },
        message: `${row.name} created`,
      });
    },
  });

  r.patch('/admin/editions/:id', {
    config: { access: manage },
    schema: {
      tags: ['editions'],
      params: uuidParam,
      body: updateEditionRequest,
      response: responses({ 200: editionResponse }, 404, 409),
    },
    handler: async (request) => {
      const row = await updateEdition(db, request.params.id, request.body, actorOf(requireAuth(request)));
      return {
        success: true as const,
        data: { edition: presentEdition(row, app.clock.now()) },
        message: `${row.name} saved`,
      };
    },
  });
}
