import { RALLY_ROUTE_IDS } from '@rally/shared/catalog/event-day';
import {
  boolean,
  doublePrecision,
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
import { editions } from './editions';
import { incidents } from './incidents';
import { users } from './users';

/**
 * A rider's tracker in one edition (DESIGN.md §11): the secret id Traccar Client sends, the
 * consent that switched it on, the last position (never moved backwards by a late buffer
 * flush) and the state the alerts are judged from. One per entry: edition and person.
 */
export const trackers = pgTable(
  'trackers',
  {
    editionId: uuid('edition_id')
      .notNull()
      .references(() => editions.id, { onDelete: 'cascade' }),
    userId: uuid('user_id')
      .notNull()
      .references(() => users.id, { onDelete: 'cascade' }),
    /** Random, 128 bits or more; the credential of the OsmAnd endpoint. Never the rider code. */
    trackingId: text('tracking_id').notNull(),
    enabled: boolean('enabled').notNull().default(false),
    consentVersion: text('consent_version'),
    consentedAt: timestamp('consented_at', { withTimezone: true }),
    withdrawnAt: timestamp('withdrawn_at', { withTimezone: true }),
    lastLat: doublePrecision('last_lat'),
    lastLng: doublePrecision('last_lng'),
    lastAt: timestamp('last_at', { withTimezone: true }),
    lastSpeed: doublePrecision('last_speed'),
    lastAccuracy: doublePrecision('last_accuracy'),
    lastBattery: doublePrecision('last_battery'),
    lastCharging: boolean('last_charging'),
    /** Metres along the rider's route line and off it, at the last position. */
    lastAlongM: doublePrecision('last_along_m'),
    lastOffRouteM: doublePrecision('last_off_route_m'),
    /** Recent moving speed (m/s), for the arrival estimate. */
    movingSpeed: doublePrecision('moving_speed'),
    /** Where and since when the rider has stayed within the stopped radius. */
    anchorLat: doublePrecision('anchor_lat'),
    anchorLng: doublePrecision('anchor_lng'),
    anchorAt: timestamp('anchor_at', { withTimezone: true }),
    /** Staff dismissed the stop at this anchor: no new alert until the rider moves away. */
    stopDismissed: boolean('stop_dismissed').notNull().default(false),
    /** Positions in a row beyond the off-route distance, and whether the rider is off route. */
    offRouteStreak: integer('off_route_streak').notNull().default(0),
    offRoute: boolean('off_route').notNull().default(false),
    stopIncidentId: uuid('stop_incident_id').references(() => incidents.id, { onDelete: 'set null' }),
    offRouteIncidentId: uuid('off_route_incident_id').references(() => incidents.id, { onDelete: 'set null' }),
    createdAt: timestamp('created_at', { withTimezone: true }).notNull().defaultNow(),
    updatedAt: timestamp('updated_at', { withTimezone: true }).notNull().defaultNow(),
  },
  (t) => [
    primaryKey({ columns: [t.editionId, t.userId] }),
    uniqueIndex('trackers_tracking_id_uq').on(t.trackingId),
    index('trackers_user_idx').on(t.userId),
  ],
);
export type TrackerRow = typeof trackers.$inferSelect;

/**
 * Every position a rider's phone sent. An entry and a time is one position: Traccar Client
 * sends again after a lost answer, and the second is the first.
 */
export const positions = pgTable(
  'positions',
  {
    editionId: uuid('edition_id')
      .notNull()
      .references(() => editions.id, { onDelete: 'cascade' }),
    userId: uuid('user_id')
      .notNull()
      .references(() => users.id, { onDelete: 'cascade' }),
    at: timestamp('at', { withTimezone: true, precision: 3 }).notNull(),
    lat: doublePrecision('lat').notNull(),
    lng: doublePrecision('lng').notNull(),
    /** Metres per second (the form's knots converted). */
    speed: doublePrecision('speed'),
    bearing: doublePrecision('bearing'),
    altitude: doublePrecision('altitude'),
    accuracy: doublePrecision('accuracy'),
    /** Percent, 0–100. */
    battery: doublePrecision('battery'),
    charging: boolean('charging'),
    /** `traccar` (the app) or `pass` (the rider pass's own Geolocation). */
    source: text('source').notNull().default('traccar'),
    receivedAt: timestamp('received_at', { withTimezone: true }).notNull().defaultNow(),
  },
  (t) => [
    primaryKey({ columns: [t.editionId, t.userId, t.at] }),
    // The retention job deletes by edition; the board reads a rider's track by time.
    index('positions_edition_received_idx').on(t.editionId, t.receivedAt),
  ],
);
export type PositionRow = typeof positions.$inferSelect;

/** A trial's route line in one edition, from the organiser's GPX file. */
export const routeTracks = pgTable(
  'route_tracks',
  {
    editionId: uuid('edition_id')
      .notNull()
      .references(() => editions.id, { onDelete: 'cascade' }),
    trial: text('trial', { enum: RALLY_ROUTE_IDS }).notNull(),
    name: text('name').notNull(),
    /** [lat, lng] pairs the alerts measure against (simplified to a few metres). */
    points: jsonb('points').$type<Array<[number, number]>>().notNull(),
    /** The same, simplified for drawing on a phone. */
    drawn: jsonb('drawn').$type<Array<[number, number]>>().notNull(),
    lengthM: doublePrecision('length_m').notNull(),
    fileName: text('file_name'),
    uploadedBy: uuid('uploaded_by').references(() => users.id, { onDelete: 'set null' }),
    uploadedAt: timestamp('uploaded_at', { withTimezone: true }).notNull().defaultNow(),
  },
  (t) => [primaryKey({ columns: [t.editionId, t.trial] })],
);
export type RouteTrackRow = typeof routeTracks.$inferSelect;
