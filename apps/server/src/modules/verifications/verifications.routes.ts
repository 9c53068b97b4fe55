import { uuidParam } from '@rally/shared/contracts/common';
import {
  historyQuery,
  historyResponse,
  pendingQuery,
  pendingResponse,
  verificationStatsResponse,
  verifyBody,
  verifyResult,
} from '@rally/shared/contracts/verifications';
import type { FastifyInstance } from 'fastify';
import type { ZodTypeProvider } from 'fastify-type-provider-zod';
import type { Db } from '../../db/client';
import { requireAuth } from '../../lib/authorize';
import { responses } from '../../lib/route-helpers';
import { decide, history, listPending, stats, undo } from './verifications.service';

export async function verificationRoutes(app: FastifyInstance, opts: { db: Db }) {
  const { db } = opts;
  const r = app.withTypeProvider<ZodTypeProvider>();
  const tags = ['admin: verifications'];

  r.get('/admin/verifications/pending', {
    config: { access: { permission: 'verify_users' } },
    schema: { tags, querystring: pendingQuery, response: responses({ 200: pendingResponse }) },
    handler: async (request) => ({ success: true as const, ...(await listPending(db, request.query)) }),
  });

  r.post('/admin/verifications/verify', {
    config: { access: { permission: 'verify_users' } },
    schema: { tags, body: verifyBody, response: responses({ 200: verifyResult }, 404, 409) },
    handler: async (request) => {
      const data = await decide(db, requireAuth(request), request.body);
      return {
        success: true as const,
        message: data.status === 'verified' ? 'User approved successfully!' : 'User rejected successfully!',
        data,
      };
    },
  });

  r.post('/admin/verifications/undo/:id', {
    config: { access: { permission: 'undo_verification' } },
    schema: {
      tags,
      description: 'Returns a verified (or rejected) rider to pending. `id` is the USER id.',
      params: uuidParam,
      response: responses({ 200: verifyResult }, 409),
    },
    handler: async (request) => ({
      success: true as const,
      message: 'Verification undone; the status is pending again',
      data: await undo(db, requireAuth(request), request.params.id),
    }),
  });

  r.get('/admin/verifications/history', {
    config: { access: { permission: 'verify_users' } },
    schema: { tags, querystring: historyQuery, response: responses({ 200: historyResponse }) },
    handler: async (request) => ({
      success: true as const,
      ...(await history(db, requireAuth(request), request.query)),
    }),
  });

  r.get('/admin/verifications/stats', {
    config: { access: { permission: 'verify_users' } },
    schema: { tags, response: responses({ 200: verificationStatsResponse }) },
    handler: async () => ({ success: true as const, data: await stats(db) }),
  });
}
