// The public live tracker ("Public means public"): per route, each rider's
// number, kit name, category, state, last station and time; finishers with their elapsed
// time; the DNF count. Nothing else leaves the server: no contact, medical, address,
// birthdate, GPS or incident data. Before the event has started the route stays classified:
// no station name is sent at all.
import { z } from 'zod';
import { COURSE_STATE_LABELS, COURSE_STATES, type CourseStateName, RALLY_ROUTE_IDS } from '../catalog/event-day';
import { envelope } from './common';

/** The course module's states (catalog COURSE_STATES): one vocabulary on the board and in public. */
export const LIVE_STATES = COURSE_STATES;
export type LiveState = CourseStateName;
export const LIVE_STATE_LABELS = COURSE_STATE_LABELS;

/** How long browsers and proxies may reuse an answer before asking again (If-None-Match). */
export const LIVE_MAX_AGE_SECONDS = 10;

export const liveRider = z.object({
  riderNumber: z.number().int(),
  kitName: z.string(),
  category: z.string(),
  state: z.enum(LIVE_STATES),
  /** Null before the event has started (classified) and while the rider has no passage. */
  lastStation: z.string().nullable(),
  lastSeenAt: z.string().nullable(),
  /** Finishers only: start to finish. */
  elapsedMs: z.number().int().optional(),
});
export type LiveRider = z.infer<typeof liveRider>;

export const liveFinisher = z.object({
  riderNumber: z.number().int(),
  kitName: z.string(),
  category: z.string(),
  elapsedMs: z.number().int(),
  finishedAt: z.string(),
  /** 1 for the fastest. */
  rank: z.number().int(),
});
export type LiveFinisher = z.infer<typeof liveFinisher>;

export const liveRoute = z.object({
  routeId: z.enum(RALLY_ROUTE_IDS),
  riders: z.array(liveRider),
  /** Fastest first. */
  finishers: z.array(liveFinisher),
  dnfCount: z.number().int(),
  /** Riders in each state on this route. */
  counts: z.record(z.enum(LIVE_STATES), z.number().int()),
});
export type LiveRoute = z.infer<typeof liveRoute>;

export const liveResponse = envelope(z.array(liveRoute)).extend({
  meta: z.object({
    /** False until the first accepted start scan: station names are then withheld. */
    started: z.boolean(),
    /** True once every verified rider is finished, DNF or DNS: the page shows results. */
    over: z.boolean(),
  }),
});
export type LiveResponse = z.infer<typeof liveResponse>;
