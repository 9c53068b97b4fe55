import {
  boardBucketQuery,
  boardResponse,
  boardRidersResponse,
  courseDecisionRequest,
  courseDecisionResponse,
  courseStateListQuery,
  courseStateListResponse,
  dayQuery,
  overdueResponse,
  routeIdParam,
  routeRulesListResponse,
  routeRulesResponse,
  timelineResponse,
  updateRouteRulesRequest,
} from '@rally/shared/contracts/course';
import { and, eq } from 'drizzle-orm';
import type { FastifyInstance } from 'fastify';
import type { ZodTypeProvider } from 'fastify-type-provider-zod';
import { z } from 'zod';
import type { Db } from '../../db/client';
import { stations } from '../../db/schema/event-day';
import { actorOf } from '../../lib/actor';
import { requireAuth } from '../../lib/authorize';
import { inEdition } from '../../lib/edition-of';
import { NotFoundError } from '../../lib/errors';
import { responses } from '../../lib/route-helpers';
import { contactsFor, presentCourseState, presentCourseStates } from './course.presenter';
import { boardOf, courseSnapshot, overdueOf, ridersInBucket } from './course.service';
import { courseRider, decideCourse, riderCourseState } from './course-decisions.service';
import { listRouteRules, updateRouteRules } from './course-rules.service';
import { riderTimeline } from './timeline.service';

const board = { permission: 'view_dashboard' } as const;
const manage = { permission: 'manage_event' } as const;
const riderParam = z.object({ id: z.uuid({ message: 'id must be a rider id' }) });
const stationParam = z.object({ stationId: z.uuid({ message: 'stationId must be a station id' }) });

export async function courseRoutes(app: FastifyInstance, opts: { db: Db }) {
  const { db } = opts;
  const r = app.withTypeProvider<ZodTypeProvider>();
  // Overdue and missed cutoffs depend on the time: one clock, which tests move.
  const now = () => app.clock.now();

  r.get('/admin/event/board', {
    config: { access: board },
    schema: {
      tags: ['course'],
      description: 'Per station of the day: riders expected, passed, missed, overdue (of the expected), DNF and DNS.',
      querystring: dayQuery,
      response: responses({ 200: boardResponse }),
    },
    handler: async (request) => {
      const snapshot = await courseSnapshot(db, { now: now(), day: request.query.day, edition: request.edition });
      return { success: true as const, data: boardOf(snapshot) };
    },
  });

  r.get('/admin/event/board/:stationId/riders', {
    config: { access: board },
    schema: {
      tags: ['course'],
      description: 'The riders behind one count of the board (on the station’s day).',
      params: stationParam,
      querystring: boardBucketQuery,
      response: responses({ 200: boardRidersResponse }),
    },
    handler: async (request) => {
      const [station] = await db
        .select({ id: stations.id, name: stations.name, day: stations.day })
        .from(stations)
        .where(and(inEdition(stations.editionId, request.edition), eq(stations.id, request.params.stationId)));
      if (!station) throw new NotFoundError('Station not found', 'STATION_NOT_FOUND');
      const snapshot = await courseSnapshot(db, { now: now(), day: station.day, edition: request.edition });
      const riders = ridersInBucket(snapshot, station.id, request.query.bucket);
      return {
        success: true as const,
        data: {
          station,
          bucket: request.query.bucket,
          riders: await presentCourseStates(db, requireAuth(request).role, riders),
        },
      };
    },
  });

  r.get('/admin/event/overdue', {
    config: { access: board },
    schema: {
      tags: ['course'],
      description:
        'Overdue riders, the longest overdue first, with their last station and time (and contact for view_users or handle_incidents).',
      querystring: dayQuery,
      response: responses({ 200: overdueResponse }),
    },
    handler: async (request) => {
      const { day, states } = await courseSnapshot(db, {
        now: now(),
        day: request.query.day,
        edition: request.edition,
      });
      const riders = await presentCourseStates(db, requireAuth(request).role, overdueOf(states));
      return { success: true as const, data: { day, riders } };
    },
  });

  r.get('/admin/event/riders', {
    config: { access: board },
    schema: {
      tags: ['course'],
      description: 'Every verified rider’s course state on the day, by rider number; `state` filters.',
      querystring: courseStateListQuery,
      response: responses({ 200: courseStateListResponse }),
    },
    handler: async (request) => {
      const { day, states } = await courseSnapshot(db, {
        now: now(),
        day: request.query.day,
        edition: request.edition,
      });
      const wanted = request.query.state;
      const list = wanted ? states.filter((s) => s.state === wanted) : states;
      return {
        success: true as const,
        data: { day, riders: await presentCourseStates(db, requireAuth(request).role, list) },
      };
    },
  });

  r.get('/admin/event/riders/:id/timeline', {
    config: { access: board },
    schema: {
      tags: ['course'],
      description: 'A rider’s state on the day and every scan, flag, decision and completion, oldest first.',
      params: riderParam,
      querystring: dayQuery,
      response: responses({ 200: timelineResponse }),
    },
    handler: async (request) => {
      const { id } = request.params;
      const { edition } = request;
      await courseRider(db, id, edition);
      const [state, entries, contacts] = await Promise.all([
        riderCourseState(db, id, now(), request.query.day, edition),
        riderTimeline(db, id, edition),
        contactsFor(db, requireAuth(request).role, [id]),
      ]);
      return { success: true as const, data: { state: presentCourseState(state, contacts), entries } };
    },
  });

  r.post('/admin/event/riders/:id/decision', {
    config: { access: manage },
    schema: {
      tags: ['course'],
      description: 'DNF (with a reason) or DNS, or clear, on the day (default: the current one), with a note; audited.',
      params: riderParam,
      body: courseDecisionRequest,
      response: responses({ 200: courseDecisionResponse }, 409),
    },
    handler: async (request) => {
      const auth = requireAuth(request);
      const state = await decideCourse(db, request.params.id, request.body, actorOf(auth), now(), app.messenger);
      const contacts = await contactsFor(db, auth.role, [state.riderId]);
      const d = request.body.decision;
      return {
        success: true as const,
        data: presentCourseState(state, contacts),
        message: d === 'clear' ? 'DNF/DNS cleared' : `Marked ${d.toUpperCase()}`,
      };
    },
  });

  r.get('/admin/event/rules', {
    config: { access: board },
    schema: { tags: ['course'], response: responses({ 200: routeRulesListResponse }) },
    handler: async (request) => ({
      success: true as const,
      data: await listRouteRules(db, undefined, request.edition),
    }),
  });

  r.put('/admin/event/rules/:routeId', {
    config: { access: manage },
    schema: {
      tags: ['course'],
      description:
        'Replaces a route’s rules: per station a cutoff, required (null: the station’s own), minutes after the start when due; and the overdue grace.',
      params: routeIdParam,
      body: updateRouteRulesRequest,
      response: responses({ 200: routeRulesResponse }),
    },
    handler: async (request) => {
      const view = await updateRouteRules(
        db,
        request.params.routeId,
        request.body,
        actorOf(requireAuth(request)),
        now(),
      );
      return { success: true as const, data: view, message: 'Course rules saved' };
    },
  });
}
