import { sql } from 'drizzle-orm';
import { check, date, doublePrecision, index, integer, pgTable, text, timestamp, uuid } from 'drizzle-orm/pg-core';
import { incidentKindEnum, incidentSourceEnum, incidentStatusEnum } from './enums';
import { stations } from './event-day';
import { users } from './users';

/**
 * A rider in trouble. A rider's SOS is keyed by the id their phone made, so
 * a re-sent call meets the primary key and opens nothing twice. The state moves
 * open → acknowledged → assigned → resolved; who and when are kept for each step.
 */
export const incidents = pgTable(
  'incidents',
  {
    id: uuid('id').primaryKey(),
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
    /** The rider's last passage when the incident opened: where the search starts. */
    lastStationId: uuid('last_station_id').references(() => stations.id, { onDelete: 'set null' }),
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
    createdAt: timestamp('created_at', { withTimezone: true }).notNull().defaultNow(),
    updatedAt: timestamp('updated_at', { withTimezone: true }).notNull().defaultNow(),
  },
  (t) => [
    index('incidents_status_created_idx').on(t.status, t.createdAt),
    index('incidents_rider_created_idx').on(t.riderId, t.createdAt),
  ],
);
export type IncidentRow = typeof incidents.$inferSelect;

/** The event-wide settings: one row (id 1), absent until staff first save them. */
export const eventSettings = pgTable(
  'event_settings',
  {
    id: integer('id').primaryKey().default(1),
    name: text('name').notNull(),
    startsOn: date('starts_on', { mode: 'string' }),
    endsOn: date('ends_on', { mode: 'string' }),
    hotline: text('hotline'),
    updatedBy: uuid('updated_by').references(() => users.id, { onDelete: 'set null' }),
    updatedAt: timestamp('updated_at', { withTimezone: true }).notNull().defaultNow(),
  },
  (t) => [check('event_settings_single_row', sql`${t.id} = 1`)],
);
