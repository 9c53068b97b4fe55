// The course: route rules, each rider's derived state on an event day, the
// control board and a rider's timeline. Event-day payloads are camelCase.
import { z } from 'zod';
import {
  BOARD_BUCKETS,
  COURSE_DECISIONS,
  COURSE_STATES,
  DNF_REASONS,
  RALLY_ROUTE_IDS,
  SCAN_FLAG_REASONS,
  SCAN_REVIEW_DECISIONS,
  STATION_KINDS,
} from '../catalog/event-day';
import { envelope, isoDateTime } from './common';
import { plainText } from './stations';

export const courseState = z.enum(COURSE_STATES);
export const dnfReason = z.enum(DNF_REASONS, { message: `reason must be one of: ${DNF_REASONS.join(', ')}` });
const stationRef = z.object({ id: z.string(), name: z.string() });

/** `?day=`: the event day; the current one (the latest with a passage) when absent. */
export const dayQuery = z.object({
  day: z.coerce
    .number({ message: 'day must be a number' })
    .int({ message: 'day must be a whole number' })
    .min(1, { message: 'day must be at least 1' })
    .max(30, { message: 'day must be at most 30' })
    .optional(),
});

/** What staff may read of a rider's contact (view_users or handle_incidents; never officers). */
export const riderContact = z.object({
  phoneNumber: z.string().nullable(),
  emergencyContactName: z.string().nullable(),
  emergencyContactNumber: z.string().nullable(),
});
export type RiderContact = z.infer<typeof riderContact>;

export const riderCourseState = z.object({
  riderId: z.string(),
  riderNumber: z.number().int().nullable(),
  kitName: z.string().nullable(),
  firstName: z.string(),
  lastName: z.string(),
  category: z.string().nullable(),
  route: z.enum(RALLY_ROUTE_IDS).nullable(),
  day: z.number().int(),
  state: courseState,
  lastStation: stationRef.nullable(),
  lastSeenAt: z.string().nullable(),
  startedAt: z.string().nullable(),
  finishedAt: z.string().nullable(),
  elapsedMs: z.number().int().nullable(),
  dnfReason: dnfReason.nullable(),
  /** The station whose cutoff was missed, or the required stations missed. */
  dnfStations: z.array(stationRef),
  decision: z
    .object({ reason: dnfReason.nullable(), note: z.string(), decidedAt: z.string(), decidedBy: z.string().nullable() })
    .nullable(),
  nextStation: stationRef.nullable(),
  dueAt: z.string().nullable(),
  /** When the rider turns overdue (due + the route's grace): boards flip them then, without asking again. */
  overdueAt: z.string().nullable(),
  /** The earliest cutoff still ahead of an on-course rider (DNF then unless they pass it). */
  nextCutoffAt: z.string().nullable(),
  overdue: z.boolean(),
  overdueMs: z.number().int(),
  /** Present only for holders of view_users or handle_incidents. */
  contact: riderContact.optional(),
});
export type RiderCourseState = z.infer<typeof riderCourseState>;

export const courseStateListQuery = dayQuery.extend({
  state: z.enum(COURSE_STATES, { message: `state must be one of: ${COURSE_STATES.join(', ')}` }).optional(),
});
export const courseStateListResponse = envelope(z.object({ day: z.number().int(), riders: z.array(riderCourseState) }));

/** GET /api/admin/event/board: per station of the day, the riders in each count. */
export const boardStation = z.object({
  stationId: z.string(),
  name: z.string(),
  kind: z.enum(STATION_KINDS),
  day: z.number().int(),
  order: z.number().int(),
  routes: z.array(z.string()),
  expected: z.number().int(),
  passed: z.number().int(),
  missed: z.number().int(),
  overdue: z.number().int(),
  dnf: z.number().int(),
  dns: z.number().int(),
});
export type BoardStation = z.infer<typeof boardStation>;
export const boardResponse = envelope(z.array(boardStation));

export const boardBucketQuery = z.object({
  bucket: z.enum(BOARD_BUCKETS, { message: `bucket must be one of: ${BOARD_BUCKETS.join(', ')}` }),
});
export const boardRidersResponse = envelope(
  z.object({
    station: z.object({ id: z.string(), name: z.string(), day: z.number().int() }),
    bucket: z.enum(BOARD_BUCKETS),
    riders: z.array(riderCourseState),
  }),
);
export const overdueResponse = envelope(z.object({ day: z.number().int(), riders: z.array(riderCourseState) }));

/** Route rules: per station a cutoff, required or not, and when a rider is due (minutes after their start). */
export const stationRuleView = z.object({
  stationId: z.string(),
  name: z.string(),
  kind: z.enum(STATION_KINDS),
  day: z.number().int(),
  order: z.number().int(),
  /** The station's own `required`, used when the rule leaves it null. */
  stationRequired: z.boolean(),
  required: z.boolean(),
  requiredOverride: z.boolean().nullable(),
  cutoffAt: z.string().nullable(),
  dueMinutes: z.number().int().nullable(),
});
export const routeRules = z.object({
  routeId: z.enum(RALLY_ROUTE_IDS),
  overdueAfterMinutes: z.number().int(),
  updatedAt: z.string().nullable(),
  stations: z.array(stationRuleView),
});
export type RouteRulesView = z.infer<typeof routeRules>;
export const routeRulesListResponse = envelope(z.array(routeRules));
export const routeRulesResponse = envelope(routeRules);
export const routeIdParam = z.object({
  routeId: z.enum(RALLY_ROUTE_IDS, { message: `routeId must be one of: ${RALLY_ROUTE_IDS.join(', ')}` }),
});

/** PUT /api/admin/event/rules/{routeId}: replaces the route's rules (stations left out have none). */
export const updateRouteRulesRequest = z.object({
  overdueAfterMinutes: z
    .number({ message: 'overdueAfterMinutes must be a number' })
    .int({ message: 'overdueAfterMinutes must be a whole number' })
    .min(0, { message: 'overdueAfterMinutes must be at least 0' })
    .max(24 * 60, { message: 'overdueAfterMinutes must be at most 1440' })
    .optional(),
  stations: z
    .array(
      z.object({
        stationId: z.uuid({ message: 'stationId must be a station id' }),
        cutoffAt: isoDateTime('cutoffAt').nullable().optional(),
        required: z.boolean({ message: 'required must be true, false or null' }).nullable().optional(),
        dueMinutes: z
          .number({ message: 'dueMinutes must be a number' })
          .int({ message: 'dueMinutes must be a whole number' })
          .min(0, { message: 'dueMinutes must be at least 0' })
          .max(7 * 24 * 60, { message: 'dueMinutes must be at most 10080' })
          .nullable()
          .optional(),
      }),
    )
    .max(200, { message: 'stations must hold at most 200 rules' }),
});
export type UpdateRouteRulesRequest = z.infer<typeof updateRouteRulesRequest>;

/** POST /api/admin/event/riders/{id}/decision: DNF or DNS with a reason, or clear. */
export const courseDecisionRequest = z.object({
  decision: z.enum(COURSE_DECISIONS, { message: `decision must be one of: ${COURSE_DECISIONS.join(', ')}` }),
  reason: dnfReason.optional(),
  note: plainText('note', 1000),
  day: z
    .number({ message: 'day must be a number' })
    .int({ message: 'day must be a whole number' })
    .min(1, { message: 'day must be at least 1' })
    .max(30, { message: 'day must be at most 30' })
    .optional(),
});
export type CourseDecisionRequest = z.infer<typeof courseDecisionRequest>;
export const courseDecisionResponse = envelope(riderCourseState);

/** GET /api/admin/event/riders/{id}/timeline: every scan, flag, decision and completion, oldest first. */
export const timelineEntry = z.object({
  type: z.enum(['scan', 'decision', 'completion']),
  at: z.string(),
  title: z.string(),
  day: z.number().int().nullable(),
  stationId: z.string().nullable(),
  stationName: z.string().nullable(),
  /** Scans: accepted or flagged (with the flag), and whether it counts as a passage. */
  status: z.enum(['accepted', 'flagged']).nullable(),
  reason: z.enum(SCAN_FLAG_REASONS).nullable(),
  counted: z.boolean().nullable(),
  review: z
    .object({ decision: z.enum(SCAN_REVIEW_DECISIONS), note: z.string(), at: z.string(), by: z.string().nullable() })
    .nullable(),
  /** Decisions: dnf, dns or clear, its reason and note, and who. */
  decision: z.enum(COURSE_DECISIONS).nullable(),
  dnfReason: dnfReason.nullable(),
  note: z.string().nullable(),
  by: z.string().nullable(),
});
export type TimelineEntry = z.infer<typeof timelineEntry>;
export const timelineResponse = envelope(z.object({ state: riderCourseState, entries: z.array(timelineEntry) }));
