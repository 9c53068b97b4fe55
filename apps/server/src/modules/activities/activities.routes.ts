import { activitiesQuery, activitiesResponse, sampleActivitiesResponse } from '@rally/shared/contracts/dashboard';
import type { FastifyInstance } from 'fastify';
import type { ZodTypeProvider } from 'fastify-type-provider-zod';
import type { Db } from '../../db/client';
import { requireAuth } from '../../lib/authorize';
import { responses } from '../../lib/route-helpers';
import { presentActivityFeed } from './activities.presenter';
import { insertSampleActivities, recentActivities } from './activities.service';

export async function activityRoutes(app: FastifyInstance, opts: { db: Db }) {
  const { db } = opts;
  // The install's, whatever edition is named: `request.edition` is left unused (DESIGN.md §9).
  const r = app.withTypeProvider<ZodTypeProvider>();
  const tags = ['admin: dashboard'];

  r.get('/admin/activities', {
    config: { access: { permission: 'view_dashboard' } },
    schema: { tags, querystring: activitiesQuery, response: responses({ 200: activitiesResponse }) },
    handler: async (request) => {
      const { role } = requireAuth(request);
      const page = await recentActivities(db, role, request.query);
      return { success: true as const, data: presentActivityFeed(page, role, request.query.offset) };
    },
  });

  // Writing to the shared feed is limited to those who may edit users (admin, developer):
  // marshalls and officers read the dashboard but should not be able to fill it with demos.
  r.post('/admin/activities/sample', {
    config: { access: { permission: 'edit_user_info' } },
    schema: {
      tags,
      description: 'Adds realistic sample entries (marked sample in their metadata) for demonstrations.',
      response: responses({ 201: sampleActivitiesResponse }),
    },
    handler: async (request, reply) => {
      const created = await insertSampleActivities(db, requireAuth(request));
      reply.code(201);
      return { success: true as const, message: `${created} sample activities added`, data: { created } };
    },
  });
}
