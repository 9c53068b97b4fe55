import { sql } from 'drizzle-orm';
import { index, integer, jsonb, pgTable, primaryKey, text, timestamp, uuid } from 'drizzle-orm/pg-core';
import { editionColumn } from './edition-column';
import { courseDecisionEnum, dnfReasonEnum } from './enums';
import { users } from './users';

/** What a route's rules say about one station; absent fields fall back to the station's own. */
export interface StationRule {
  stationId: string;
  /** After this moment a rider who has not passed the station (or passes it later) is DNF, missed a cutoff. */
  cutoffAt: string | null;
  /** Overrides the station's `required` for this route; null keeps the station's. */
  required: boolean | null;
  /** Minutes after the rider's start at which they are due here (the expected pace). */
  dueMinutes: number | null;
}

/**
 * The course rules of one route: cutoffs, required stations, expected pace.
 * One row per route, its station rules as one document: a route's rules are read and
 * replaced whole, and a station deleted since simply no longer matches.
 */
export const courseRules = pgTable(
  'course_rules',
  {
    editionId: editionColumn(),
    routeId: text('route_id').notNull(),
    /** A rider not at their next station this many minutes after they were due there is overdue. */
    overdueAfterMinutes: integer('overdue_after_minutes').notNull(),
    stations: jsonb('stations').$type<StationRule[]>().notNull(),
    updatedAt: timestamp('updated_at', { withTimezone: true }).notNull().defaultNow(),
    updatedBy: uuid('updated_by').references(() => users.id, { onDelete: 'set null' }),
  },
  (t) => [primaryKey({ columns: [t.editionId, t.routeId] })],
);
export type CourseRulesRow = typeof courseRules.$inferSelect;

/**
 * Staff decisions on a rider's event day, kept as a history: the latest row of a rider's
 * day is in force, and `clear` hands the state back to what the scans and rules say.
 */
export const courseDecisions = pgTable(
  'course_decisions',
  {
    id: uuid('id').primaryKey().defaultRandom(),
    editionId: editionColumn(),
    riderId: uuid('rider_id')
      .notNull()
      .references(() => users.id, { onDelete: 'cascade' }),
    day: integer('day').notNull(),
    decision: courseDecisionEnum('decision').notNull(),
    reason: dnfReasonEnum('reason'),
    note: text('note').notNull(),
    decidedBy: uuid('decided_by').references(() => users.id, { onDelete: 'set null' }),
    decidedByName: text('decided_by_name'),
    decidedAt: timestamp('decided_at', { withTimezone: true }).notNull().defaultNow(),
    /**
     * The order decisions were made in: the real time of the insert (decidedAt is the
     * server's clock as the request saw it, and two may share it). A timestamp rather than
     * a sequence, so a backup restored elsewhere keeps ordering new decisions after it.
     */
    recordedAt: timestamp('recorded_at', { withTimezone: true }).notNull().default(sql`clock_timestamp()`),
  },
  (t) => [index('course_decisions_rider_day_idx').on(t.editionId, t.riderId, t.day, t.recordedAt)],
);
export type CourseDecisionRow = typeof courseDecisions.$inferSelect;
