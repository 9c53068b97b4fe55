import { envelope } from '@rally/shared/contracts/common';
import { riderNumberSchema as riderNumber } from '@rally/shared/contracts/rider-numbers';
import type { FastifyInstance } from 'fastify';
import type { ZodTypeProvider } from 'fastify-type-provider-zod';
import { z } from 'zod';
import type { Db } from '../../db/client';
import { sendJson } from '../../lib/answer-cache';
import { requireAuth } from '../../lib/authorize';
import { responses } from '../../lib/route-helpers';
import { assignNumber, isAvailable, myNumber, takenNumbersJson } from './rider-numbers.service';

export async function riderNumberRoutes(app: FastifyInstance, opts: { db: Db }) {
  const { db } = opts;
  const r = app.withTypeProvider<ZodTypeProvider>();

  r.get('/rider-numbers/taken', {
    config: { access: 'public' },
    schema: {
      tags: ['rider-numbers'],
      response: responses({ 200: envelope(z.object({ takenNumbers: z.array(z.number().int()) })) }),
    },
    // Polled by every rider on the number picker during a rush: answered from the answer
    // cache, the list spliced in as the database wrote it (an int array, nothing to check).
    // A held number is released at its date with no write, so the answer ends then.
    handler: async (_request, reply) => {
      reply.header('cache-control', 'no-store');
      const json = await app.answerCache.get('rider-numbers:taken', async () => {
        const taken = await takenNumbersJson(db, app.clock.now());
        return {
          json: `{"success":true,"data":{"takenNumbers":${taken.json}}}`,
          expiresAt: taken.heldUntil?.getTime() ?? null,
        };
      });
      return sendJson(reply, json);
    },
  });

  r.get('/rider-numbers/check/:n', {
    config: { access: 'public' },
    schema: {
      tags: ['rider-numbers'],
      params: z.object({ n: riderNumber }),
      response: responses({ 200: envelope(z.object({ riderNumber: z.number().int(), available: z.boolean() })) }),
    },
    handler: async (request) => {
      const available = await isAvailable(db, request.params.n, app.clock.now(), request.auth?.userId ?? null);
      return {
        success: true as const,
        data: { riderNumber: request.params.n, available },
        message: available
          ? `Rider number ${request.params.n} is available`
          : `Rider number ${request.params.n} is already taken`,
      };
    },
  });

  r.get('/rider-numbers/my-number', {
    config: { access: 'authenticated' },
    schema: {
      tags: ['rider-numbers'],
      response: responses({ 200: envelope(z.object({ riderNumber: z.number().int().nullable() })) }),
    },
    handler: async (request) => ({
      success: true as const,
      data: { riderNumber: await myNumber(db, requireAuth(request).userId) },
    }),
  });

  r.post('/rider-numbers/assign', {
    config: { access: 'authenticated' },
    schema: {
      tags: ['rider-numbers'],
      body: z.object({ riderNumber }),
      response: responses({ 200: envelope(z.object({ riderNumber: z.number().int() })) }, 409),
    },
    handler: async (request) => {
      const n = await assignNumber(db, requireAuth(request).userId, request.body.riderNumber, app.clock.now());
      return { success: true as const, data: { riderNumber: n }, message: `Rider number ${n} is yours, warrior!` };
    },
  });
}
