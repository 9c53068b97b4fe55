import {
  boolean,
  doublePrecision,
  index,
  integer,
  pgTable,
  primaryKey,
  text,
  timestamp,
  uuid,
} from 'drizzle-orm/pg-core';
import { editionColumn } from './edition-column';
import { incidentKindEnum, incidentSourceEnum, incidentStatusEnum } from './enums';
import { users } from './users';

/**
 * A rider in trouble. A rider's SOS is keyed by the id their phone made, so
 * a re-sent call meets the primary key and opens nothing twice. The state moves
 * open → acknowledged → assigned → resolved; who and when are kept for each step.
 * A rider has at most one unresolved incident of their own SOS: pressing again joins it
 * (`sos_calls`), so the unresolved list stays bounded by the number of accounts.
 */
export const incidents = pgTable(
  'incidents',
  {
    id: uuid('id').primaryKey(),
    editionId: editionColumn(),
    riderId: uuid('rider_id')
      .notNull()
      .references(() => users.id, { onDelete: 'cascade' }),
    kind: incidentKindEnum('kind').notNull(),
    note: text('note'),
    status: incidentStatusEnum('status').notNull().default('open'),
    source: incidentSourceEnum('source').notNull(),
    lat: doublePrecision('lat'),
    lng: doublePrecision('lng'),
    accuracy: doublePrecision('accuracy'),
    positionAt: timestamp('position_at', { withTimezone: true }),
    /**
     * The rider's last passage when the incident opened: where the search starts. A station
     * of the incident's edition; no key, because a station with a passage is never deleted.
     */
    lastStationId: uuid('last_station_id'),
    lastStationName: text('last_station_name'),
    lastSeenAt: timestamp('last_seen_at', { withTimezone: true }),
    reportedBy: uuid('reported_by').references(() => users.id, { onDelete: 'set null' }),
    acknowledgedBy: uuid('acknowledged_by').references(() => users.id, { onDelete: 'set null' }),
    acknowledgedAt: timestamp('acknowledged_at', { withTimezone: true }),
    assignedTo: uuid('assigned_to').references(() => users.id, { onDelete: 'set null' }),
    assignedAt: timestamp('assigned_at', { withTimezone: true }),
    resolvedBy: uuid('resolved_by').references(() => users.id, { onDelete: 'set null' }),
    resolvedAt: timestamp('resolved_at', { withTimezone: true }),
    resolutionNote: text('resolution_note'),
    /** How many SOS presses this incident holds: the one that opened it and those that joined it. */
    callCount: integer('call_count').notNull().default(1),
    /**
     * Opened while the account was marked as abuse: stored and listed apart, but it raises no
     * alarm. Lifting the mark unmutes what is still unresolved.
     */
    muted: boolean('muted').notNull().default(false),
    createdAt: timestamp('created_at', { withTimezone: true }).notNull().defaultNow(),
    updatedAt: timestamp('updated_at', { withTimezone: true }).notNull().defaultNow(),
  },
  (t) => [
    index('incidents_status_created_idx').on(t.editionId, t.status, t.createdAt),
    index('incidents_rider_created_idx').on(t.riderId, t.createdAt),
  ],
);
export type IncidentRow = typeof incidents.$inferSelect;

/**
 * An SOS pressed (a new id from the phone) while the rider already had an unresolved
 * incident: it joins that incident instead of opening another. Kept whole, keyed by the
 * phone's id, so a re-send finds it and what the rider wrote is never lost.
 */
export const sosCalls = pgTable(
  'sos_calls',
  {
    id: uuid('id').primaryKey(),
    incidentId: uuid('incident_id')
      .notNull()
      .references(() => incidents.id, { onDelete: 'cascade' }),
    riderId: uuid('rider_id')
      .notNull()
      .references(() => users.id, { onDelete: 'cascade' }),
    kind: incidentKindEnum('kind').notNull(),
    note: text('note'),
    lat: doublePrecision('lat'),
    lng: doublePrecision('lng'),
    accuracy: doublePrecision('accuracy'),
    positionAt: timestamp('position_at', { withTimezone: true }),
    createdAt: timestamp('created_at', { withTimezone: true }).notNull().defaultNow(),
  },
  (t) => [
    index('sos_calls_rider_created_idx').on(t.riderId, t.createdAt),
    index('sos_calls_incident_created_idx').on(t.incidentId, t.createdAt),
  ],
);
export type SosCallRow = typeof sosCalls.$inferSelect;

/**
 * Accounts staff marked as sending junk SOS calls. Their later calls are still stored (a
 * wrongly marked rider in real trouble must be findable) but muted: no alarm, listed apart.
 * Lifting the mark deletes the row; both are audited in the activity log.
 */
export const sosAbuseMarks = pgTable(
  'sos_abuse_marks',
  {
    editionId: editionColumn(),
    userId: uuid('user_id')
      .notNull()
      .references(() => users.id, { onDelete: 'cascade' }),
    note: text('note').notNull(),
    /** The incident staff marked it from. */
    incidentId: uuid('incident_id').references(() => incidents.id, { onDelete: 'set null' }),
    markedBy: uuid('marked_by').references(() => users.id, { onDelete: 'set null' }),
    markedAt: timestamp('marked_at', { withTimezone: true }).notNull().defaultNow(),
  },
  (t) => [primaryKey({ columns: [t.editionId, t.userId] })],
);
