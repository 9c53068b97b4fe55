import { sql } from 'drizzle-orm';
import {
  boolean,
  doublePrecision,
  foreignKey,
  index,
  integer,
  jsonb,
  pgTable,
  primaryKey,
  text,
  timestamp,
  uniqueIndex,
  uuid,
} from 'drizzle-orm/pg-core';
import { editionColumn } from './edition-column';
import { scanFlagReasonEnum, scanReviewDecisionEnum, scanSourceEnum, scanStatusEnum, stationKindEnum } from './enums';
import { users } from './users';

/**
 * A place on the course where marshals record riders, in one edition. A station keeps its id
 * from year to year when the next edition copies the course, so the key is the pair.
 */
export const stations = pgTable(
  'stations',
  {
    editionId: editionColumn(),
    id: uuid('id').notNull().defaultRandom(),
    name: text('name').notNull(),
    /** The short code marshals text (`CP3 42 57`): unique, upper case (DESIGN.md §10). */
    code: text('code').notNull(),
    kind: stationKindEnum('kind').notNull(),
    day: integer('day').notNull().default(1),
    /** Route ids this station serves; empty means every route. */
    routes: jsonb('routes').$type<string[]>().notNull().default(sql`'[]'::jsonb`),
    order: integer('order').notNull().default(0),
    lat: doublePrecision('lat'),
    lng: doublePrecision('lng'),
    opensAt: timestamp('opens_at', { withTimezone: true }),
    closesAt: timestamp('closes_at', { withTimezone: true }),
    required: boolean('required').notNull().default(false),
    closed: boolean('closed').notNull().default(false),
    createdAt: timestamp('created_at', { withTimezone: true }).notNull().defaultNow(),
    updatedAt: timestamp('updated_at', { withTimezone: true }).notNull().defaultNow(),
  },
  (t) => [
    primaryKey({ columns: [t.editionId, t.id] }),
    index('stations_day_order_idx').on(t.editionId, t.day, t.order),
    uniqueIndex('stations_code_idx').on(t.editionId, t.code),
  ],
);
export type StationRow = typeof stations.$inferSelect;

/**
 * One scan as a marshal's device recorded it. The id is the device's UUID, so a replayed
 * batch meets the primary key and stores nothing twice. Doubtful scans are kept, flagged.
 */
export const scans = pgTable(
  'scans',
  {
    id: uuid('id').primaryKey(),
    editionId: editionColumn(),
    stationId: uuid('station_id').notNull(),
    /** What the device sent, kept as sent: the QR's code or the number typed by hand. */
    riderCode: text('rider_code'),
    riderNumber: integer('rider_number'),
    /** The rider the code or number resolved to when the scan arrived. */
    riderId: uuid('rider_id').references(() => users.id, { onDelete: 'set null' }),
    scannedAt: timestamp('scanned_at', { withTimezone: true }).notNull(),
    receivedAt: timestamp('received_at', { withTimezone: true }).notNull().defaultNow(),
    deviceId: text('device_id').notNull(),
    source: scanSourceEnum('source').notNull(),
    /** The marshal signed in on the device when the scan was made. */
    recordedBy: uuid('recorded_by').references(() => users.id, { onDelete: 'set null' }),
    /** The signed-in user whose sync delivered it. */
    submittedBy: uuid('submitted_by').references(() => users.id, { onDelete: 'set null' }),
    status: scanStatusEnum('status').notNull(),
    reason: scanFlagReasonEnum('reason'),
    reviewDecision: scanReviewDecisionEnum('review_decision'),
    reviewNote: text('review_note'),
    reviewedBy: uuid('reviewed_by').references(() => users.id, { onDelete: 'set null' }),
    reviewedAt: timestamp('reviewed_at', { withTimezone: true }),
  },
  (t) => [
    // A station with scans is closed, never deleted: the key refuses the delete.
    foreignKey({
      name: 'scans_station_fk',
      columns: [t.editionId, t.stationId],
      foreignColumns: [stations.editionId, stations.id],
    }).onDelete('restrict'),
    index('scans_station_scanned_idx').on(t.editionId, t.stationId, t.scannedAt),
    index('scans_rider_scanned_idx').on(t.riderId, t.scannedAt),
    // The review queue reads flagged scans newest first.
    index('scans_flagged_idx').on(t.receivedAt).where(sql`${t.status} = 'flagged'`),
  ],
);
export type ScanRow = typeof scans.$inferSelect;
