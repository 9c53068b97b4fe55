import { sql } from 'drizzle-orm';
import {
  boolean,
  check,
  customType,
  index,
  integer,
  pgTable,
  primaryKey,
  serial,
  text,
  timestamp,
  uuid,
} from 'drizzle-orm/pg-core';
import { editions } from './editions';
import { users } from './users';

const bytea = customType<{ data: Buffer; driverData: Buffer }>({ dataType: () => 'bytea' });

/**
 * The privacy notice and the terms (DESIGN.md §12), one row per publication: the organiser
 * edits both in the console and publishes them together, so one number is what a rider
 * accepted. The newest row is the current one; older rows stay, so a rider can read the
 * version they accepted.
 */
export const privacyNotices = pgTable('privacy_notices', {
  version: serial('version').primaryKey(),
  /** Markdown. */
  privacyText: text('privacy_text').notNull(),
  /** Markdown. */
  termsText: text('terms_text').notNull(),
  publishedAt: timestamp('published_at', { withTimezone: true }).notNull().defaultNow(),
  publishedBy: uuid('published_by').references(() => users.id, { onDelete: 'set null' }),
  /** A snapshot, so the line outlives the staff account. */
  publishedByName: text('published_by_name'),
});

/**
 * Consent on record, append-only: every acceptance of the notice (purpose `notice`) and every
 * giving or withdrawing of an optional purpose is a row. The newest row per purpose is the
 * person's choice now; the rows before it are the evidence NPC Circular 2023-04 asks for.
 */
export const consents = pgTable(
  'consents',
  {
    id: uuid('id').primaryKey().defaultRandom(),
    userId: uuid('user_id')
      .notNull()
      .references(() => users.id, { onDelete: 'cascade' }),
    /** `notice` (privacy notice and terms) or an optional purpose (catalog/privacy.ts). */
    purpose: text('purpose').notNull(),
    given: boolean('given').notNull(),
    /**
     * The text the person had in front of them: the notice's version (`3`), or the tracking
     * consent's own (catalog/tracking.ts); null when they withdrew.
     */
    version: text('version'),
    /** Where: `registration`, `join`, `tracking`, `sign-in`, `my-profile`. */
    screen: text('screen').notNull(),
    at: timestamp('at', { withTimezone: true }).notNull().defaultNow(),
  },
  (t) => [index('consents_user_idx').on(t.userId, t.purpose, t.at)],
);

/**
 * A rider's data, on request (DESIGN.md §12): prepared in the background, offered for seven
 * days to its owner's session (or to the staff member who made it for a letter), then gone.
 */
export const dataExports = pgTable(
  'data_exports',
  {
    id: uuid('id').primaryKey().defaultRandom(),
    userId: uuid('user_id')
      .notNull()
      .references(() => users.id, { onDelete: 'cascade' }),
    /** The staff member who made it for a request by letter; null: the rider asked. */
    requestedBy: uuid('requested_by').references(() => users.id, { onDelete: 'set null' }),
    /** `pending`, `ready`, `failed`. */
    status: text('status').notNull().default('pending'),
    zip: bytea('zip'),
    bytes: integer('bytes'),
    error: text('error'),
    createdAt: timestamp('created_at', { withTimezone: true }).notNull().defaultNow(),
    readyAt: timestamp('ready_at', { withTimezone: true }),
    expiresAt: timestamp('expires_at', { withTimezone: true }).notNull(),
  },
  (t) => [
    index('data_exports_user_idx').on(t.userId, t.createdAt),
    index('data_exports_pending_idx').on(t.createdAt).where(sql`${t.status} = 'pending'`),
    check('data_exports_status', sql`${t.status} in ('pending', 'ready', 'failed')`),
  ],
);

/**
 * Erasure on request: the rider asks, staff with `delete_user` approve or refuse with a
 * reason. Once approved the account goes and the row stays without naming anyone: the line
 * that says it happened.
 */
export const erasureRequests = pgTable(
  'erasure_requests',
  {
    id: uuid('id').primaryKey().defaultRandom(),
    userId: uuid('user_id').references(() => users.id, { onDelete: 'set null' }),
    /** The rider's own words, if any. */
    note: text('note'),
    /** `pending`, `approved`, `refused`. */
    status: text('status').notNull().default('pending'),
    requestedAt: timestamp('requested_at', { withTimezone: true }).notNull().defaultNow(),
    decidedAt: timestamp('decided_at', { withTimezone: true }),
    decidedBy: uuid('decided_by').references(() => users.id, { onDelete: 'set null' }),
    decidedByName: text('decided_by_name'),
    reason: text('reason'),
  },
  (t) => [
    index('erasure_requests_status_idx').on(t.status, t.requestedAt),
    index('erasure_requests_user_idx').on(t.userId),
    check('erasure_requests_status', sql`${t.status} in ('pending', 'approved', 'refused')`),
  ],
);

/**
 * What the daily retention job did to an edition, a row per kind: the console's "what will
 * go when" says "gone on ..." from it, and a kind that went is not swept again.
 */
export const retentionSweeps = pgTable(
  'retention_sweeps',
  {
    editionId: uuid('edition_id')
      .notNull()
      .references(() => editions.id, { onDelete: 'cascade' }),
    /** catalog/privacy.ts RETENTION_KINDS. */
    kind: text('kind').notNull(),
    ranAt: timestamp('ran_at', { withTimezone: true }).notNull().defaultNow(),
    /** Rows removed or anonymised. */
    rows: integer('rows').notNull(),
  },
  (t) => [primaryKey({ columns: [t.editionId, t.kind] })],
);
