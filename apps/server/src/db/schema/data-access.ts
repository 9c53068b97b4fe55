import { index, pgTable, text, timestamp, uuid } from 'drizzle-orm/pg-core';
import { users } from './users';

/**
 * Who looked (DESIGN.md §12): one row per rider in every staff answer that carried their
 * medical notes, emergency contact, birthdate, licence or position. The staff member's name
 * is a snapshot, so the line outlives their account; the rider's rows go with the rider.
 */
export const dataAccess = pgTable(
  'data_access',
  {
    id: uuid('id').primaryKey().defaultRandom(),
    staffId: uuid('staff_id').references(() => users.id, { onDelete: 'set null' }),
    staffName: text('staff_name').notNull(),
    riderId: uuid('rider_id')
      .notNull()
      .references(() => users.id, { onDelete: 'cascade' }),
    /** The kinds the answer carried (catalog/privacy.ts SENSITIVE_KINDS). */
    fields: text('fields').array().notNull(),
    /** The route (`GET /api/admin/users/:id`) or the export (`export insurance.csv`). */
    source: text('source').notNull(),
    /** The address the staff member read from: what a breach notice is worked out from. */
    ip: text('ip'),
    /** Why, when staff were asked: an export with sensitive columns asks for a reason. */
    reason: text('reason'),
    at: timestamp('at', { withTimezone: true }).notNull().defaultNow(),
  },
  (t) => [
    index('data_access_rider_idx').on(t.riderId, t.at),
    index('data_access_staff_idx').on(t.staffId, t.at),
    index('data_access_at_idx').on(t.at),
  ],
);
