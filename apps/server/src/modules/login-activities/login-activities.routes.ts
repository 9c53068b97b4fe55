import { uuidParam } from '@rally/shared/contracts/common';
import { loginActivitiesQuery, loginActivitiesResponse, userLoginActivityQuery } from '@rally/shared/contracts/users';
import type { FastifyInstance } from 'fastify';
import type { ZodTypeProvider } from 'fastify-type-provider-zod';
import type { Db } from '../../db/client';
import { requireAuth } from '../../lib/authorize';
import { responses } from '../../lib/route-helpers';
import { listLoginActivities, userLoginActivity } from './login-activities.service';

export async function loginActivityRoutes(app: FastifyInstance, opts: { db: Db }) {
  const { db } = opts;
  // The install's, whatever edition is named: `request.edition` is left unused (DESIGN.md §9).
  const r = app.withTypeProvider<ZodTypeProvider>();

  r.get('/admin/users/:id/login-activity', {
    config: { access: { permission: 'view_users' } },
    schema: {
      tags: ['admin: users'],
      params: uuidParam,
      querystring: userLoginActivityQuery,
      response: responses({ 200: loginActivitiesResponse }),
    },
    handler: async (request) => ({
      success: true as const,
      data: await userLoginActivity(db, requireAuth(request).role, request.params.id, request.query),
    }),
  });

  r.get('/admin/login-activities', {
    config: { access: { permission: 'view_logs' } },
    schema: {
      tags: ['admin: logs'],
      querystring: loginActivitiesQuery,
      response: responses({ 200: loginActivitiesResponse }),
    },
    handler: async (request) => ({
      success: true as const,
      data: await listLoginActivities(db, requireAuth(request).role, request.query),
    }),
  });
}
