import {
  gearSizesBody,
  gearSizesResponse,
  riderCodeResponse,
  tshirtSizeBody,
  tshirtStatusResponse,
} from '@rally/shared/contracts/rider-kit';
import type { FastifyInstance } from 'fastify';
import type { ZodTypeProvider } from 'fastify-type-provider-zod';
import type { Db } from '../../db/client';
import { requireAuth } from '../../lib/authorize';
import { responses } from '../../lib/route-helpers';
import { gearSizes, riderCode, submitGearSizes, submitTshirtSize, tshirtStatus } from './rider-kit.service';

export async function riderKitRoutes(app: FastifyInstance, opts: { db: Db }) {
  const { db } = opts;
  const r = app.withTypeProvider<ZodTypeProvider>();

  r.post('/my/tshirt-size', {
    config: { access: 'authenticated' },
    schema: {
      tags: ['rider-kit'],
      description: 'Submits the T-shirt size once; it cannot be changed afterwards.',
      body: tshirtSizeBody,
      response: responses({ 200: tshirtStatusResponse }, 409),
    },
    handler: async (request) => ({
      success: true as const,
      data: await submitTshirtSize(db, requireAuth(request), request.body),
      message: 'T-shirt size submitted!',
    }),
  });

  r.get('/my/tshirt-size/status', {
    config: { access: 'authenticated' },
    schema: { tags: ['rider-kit'], response: responses({ 200: tshirtStatusResponse }) },
    handler: async (request) => ({ success: true as const, data: await tshirtStatus(db, requireAuth(request).userId) }),
  });

  r.post('/my/gear-sizes', {
    config: { access: 'authenticated' },
    schema: {
      tags: ['rider-kit'],
      description: 'Submits the finisher sleeve and vest sizes once; they cannot be changed afterwards.',
      body: gearSizesBody,
      response: responses({ 200: gearSizesResponse }, 409),
    },
    handler: async (request) => ({
      success: true as const,
      data: await submitGearSizes(db, requireAuth(request), request.body),
      message: 'Gear sizes submitted!',
    }),
  });

  r.get('/my/gear-sizes', {
    config: { access: 'authenticated' },
    schema: { tags: ['rider-kit'], response: responses({ 200: gearSizesResponse }) },
    handler: async (request) => ({ success: true as const, data: await gearSizes(db, requireAuth(request).userId) }),
  });

  r.get('/my/rider-code', {
    config: { access: 'authenticated' },
    schema: { tags: ['rider-kit'], response: responses({ 200: riderCodeResponse }, 404) },
    handler: async (request, reply) => {
      const code = await riderCode(db, requireAuth(request).userId);
      // The code is what the QR sticker holds: keep it out of every cache.
      reply.header('cache-control', 'no-store');
      return { success: true as const, data: { riderCode: code } };
    },
  });
}
