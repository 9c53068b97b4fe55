import { logStatsQuery, logStatsResponse, logsQuery, logsResponse } from '@rally/shared/contracts/logs';
import type { FastifyInstance } from 'fastify';
import type { ZodTypeProvider } from 'fastify-type-provider-zod';
import type { Db } from '../../db/client';
import { requireAuth } from '../../lib/authorize';
import { responses } from '../../lib/route-helpers';
import { presentLog } from './logs.presenter';
import { listLogs, logStats } from './logs.service';

const access = { permission: 'view_logs' } as const;

export async function logRoutes(app: FastifyInstance, opts: { db: Db }) {
  const { db } = opts;
  // The install's, whatever edition is named: `request.edition` is left unused (DESIGN.md §9).
  const r = app.withTypeProvider<ZodTypeProvider>();

  r.get('/admin/logs', {
    config: { access },
    schema: { tags: ['logs'], querystring: logsQuery, response: responses({ 200: logsResponse }) },
    handler: async (request) => {
      const q = request.query;
      const auth = requireAuth(request);
      const { rows, total } = await listLogs(db, q, { id: auth.userId, role: auth.role });
      return {
        success: true as const,
        data: {
          logs: rows.map(presentLog),
          pagination: { page: q.page, limit: q.limit, total, totalPages: Math.max(1, Math.ceil(total / q.limit)) },
        },
      };
    },
  });

  r.get('/admin/logs/stats', {
    config: { access },
    schema: { tags: ['logs'], querystring: logStatsQuery, response: responses({ 200: logStatsResponse }) },
    handler: async (request) => {
      const auth = requireAuth(request);
      return { success: true as const, data: await logStats(db, request.query, { id: auth.userId, role: auth.role }) };
    },
  });
}
