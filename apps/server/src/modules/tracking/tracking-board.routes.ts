// The safety team's view of the trackers (DESIGN.md §11): every tracked rider's last position
// and state, one rider's track, and dismissing a tracker's alert. handle_incidents only:
// nobody else sees where a rider is. `?edition=` of a past edition reads that edition's
// trackers: the reads pass `request.edition` to the service, which names it in every query.
import { incidentResponse } from '@rally/shared/contracts/incidents';
import {
  dismissAlertRequest,
  trackedRidersResponse,
  trackQuery,
  trackResponse,
  userIdParam,
} from '@rally/shared/contracts/tracking';
import type { FastifyInstance } from 'fastify';
import type { ZodTypeProvider } from 'fastify-type-provider-zod';
import { z } from 'zod';
import type { Config } from '../../config';
import type { Db } from '../../db/client';
import { actorOf } from '../../lib/actor';
import { requireAuth } from '../../lib/authorize';
import { responses } from '../../lib/route-helpers';
import { presentIncident } from '../incidents/incidents.presenter';
import { presentTrackedRider, presentTrackPoint } from './tracking-board.presenter';
import { dismissAlert, TRACK_POINTS_MAX, trackedRiders, trackOf } from './tracking-board.service';

const handle = { permission: 'handle_incidents' } as const;
const incidentIdParam = z.object({ incidentId: z.uuid({ message: 'incidentId must be an incident id' }) });

export async function trackingBoardRoutes(app: FastifyInstance, opts: { db: Db; config: Config }) {
  const { db } = opts;
  const r = app.withTypeProvider<ZodTypeProvider>();

  r.get('/admin/tracking/riders', {
    config: { access: handle },
    schema: {
      tags: ['tracking'],
      description:
        'Every enabled tracker of the edition: the rider’s last position, state (moving, stopped, no signal, off route, finished, DNF), ' +
        'distance along the route, the next station with the distance and an ETA from the recent moving speed, low battery, the open alert.',
      response: responses({ 200: trackedRidersResponse }),
    },
    handler: async (request) => {
      const auth = requireAuth(request);
      const views = await trackedRiders(db, auth.role, app.clock.now(), request.edition);
      return { success: true as const, data: views.map(presentTrackedRider) };
    },
  });

  r.get('/admin/tracking/riders/:userId/track', {
    config: { access: handle },
    schema: {
      tags: ['tracking'],
      description: `A rider’s positions in the edition, oldest first: those since \`since\`, at most the newest ${TRACK_POINTS_MAX}.`,
      params: userIdParam,
      querystring: trackQuery,
      response: responses({ 200: trackResponse }),
    },
    handler: async (request) => {
      const auth = requireAuth(request);
      const since = request.query.since ? new Date(request.query.since) : undefined;
      const points = await trackOf(db, auth.role, request.params.userId, since, request.edition);
      return { success: true as const, data: { userId: request.params.userId, points: points.map(presentTrackPoint) } };
    },
  });

  r.post('/admin/tracking/alerts/:incidentId/dismiss', {
    config: { access: handle },
    schema: {
      tags: ['tracking'],
      description:
        'Resolves a tracker’s alert (stopped, off route) with the reason as its note; a dismissed stop does not alert again until the rider moves.',
      params: incidentIdParam,
      body: dismissAlertRequest,
      response: responses({ 200: incidentResponse }, 409),
    },
    handler: async (request) => {
      const auth = requireAuth(request);
      const { row, followUps, messages } = await dismissAlert(
        db,
        request.params.incidentId,
        auth.role,
        actorOf(auth),
        request.body.reason,
        app.messenger,
      );
      return {
        success: true as const,
        data: presentIncident(row, auth.role, followUps, messages),
        message: 'Alert dismissed',
      };
    },
  });
}
