import { analyticsResponse } from '@rally/shared/contracts/analytics';
import type { FastifyInstance } from 'fastify';
import type { ZodTypeProvider } from 'fastify-type-provider-zod';
import type { Db } from '../../db/client';
import { requireAuth } from '../../lib/authorize';
import { responses } from '../../lib/route-helpers';
import { presentAnalytics } from './analytics.presenter';
import { analyticsCounts } from './analytics.service';

export async function analyticsRoutes(app: FastifyInstance, opts: { db: Db }) {
  const { db } = opts;
  const r = app.withTypeProvider<ZodTypeProvider>();

  // Aggregates only (no names or contact data), so whoever sees the dashboard sees these.
  r.get('/admin/analytics', {
    config: { access: { permission: 'view_dashboard' } },
    schema: {
      tags: ['admin: analytics'],
      description:
        'Registrations per day, verification status, riders per category, route, club and payment method, ' +
        'kit size totals of the verified riders and the verification turnaround (median and 90th percentile).',
      response: responses({ 200: analyticsResponse }),
    },
    handler: async (request) => ({
      success: true as const,
      data: presentAnalytics(await analyticsCounts(db, requireAuth(request).role, request.edition)),
    }),
  });
}
