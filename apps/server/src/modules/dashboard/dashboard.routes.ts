import { dashboardStatsResponse } from '@rally/shared/contracts/dashboard';
import type { FastifyInstance } from 'fastify';
import type { ZodTypeProvider } from 'fastify-type-provider-zod';
import type { Db } from '../../db/client';
import { responses } from '../../lib/route-helpers';
import { dashboardStats } from './dashboard.service';

export async function dashboardRoutes(app: FastifyInstance, opts: { db: Db }) {
  const { db } = opts;
  const r = app.withTypeProvider<ZodTypeProvider>();

  r.get('/admin/dashboard/stats', {
    config: { access: { permission: 'view_dashboard' } },
    schema: { tags: ['admin: dashboard'], response: responses({ 200: dashboardStatsResponse }) },
    handler: async (request) => ({ success: true as const, data: await dashboardStats(db, request.edition) }),
  });
}
