import type { CourseStateName } from '@rally/shared/catalog/event-day';
import { RIDER_NUMBER_MAX, RIDER_NUMBER_MIN } from '@rally/shared/catalog/rider-number';
import { sql } from 'drizzle-orm';
import { check, index, integer, pgTable, text, timestamp, uniqueIndex, uuid } from 'drizzle-orm/pg-core';
import { editionColumn } from './edition-column';
import { categoryEnum, paymentMethodEnum, verificationActionEnum, verificationStatusEnum } from './enums';
import { users } from './users';

/**
 * A person's entry in one edition (DESIGN.md §9): the number, category, sizes, payment,
 * verification, rider code, kit and bike status and, once the edition closes, the result.
 * Every edition's entries sit side by side; the person (name, contact, club, medical notes)
 * is the `users` row. A staff account's own record (no number: it is no rider's entry) is
 * copied into each new edition, as the console's verification calls expect one.
 */
export const entries = pgTable(
  'entries',
  {
    id: uuid('id').primaryKey().defaultRandom(),
    editionId: editionColumn(),
    userId: uuid('user_id')
      .notNull()
      .references(() => users.id, { onDelete: 'cascade' }),
    verificationCode: text('verification_code').notNull(),
    status: verificationStatusEnum('status').notNull().default('pending'),
    paymentMethod: paymentMethodEnum('payment_method'),
    paymentAmount: integer('payment_amount'),
    notes: text('notes'),
    verifiedBy: uuid('verified_by').references(() => users.id, { onDelete: 'set null' }),
    verifiedAt: timestamp('verified_at', { withTimezone: true }),
    riderNumber: integer('rider_number'),
    /** The QR sticker's code, given when the entry is verified. */
    riderCode: text('rider_code'),
    category: categoryEnum('category'),
    /**
     * The name on the kit and the motorcycle as they were when the edition closed. They are
     * the person's (`users`) while it runs: a rider keeps both from year to year.
     */
    kitName: text('kit_name'),
    motorcycleModel: text('motorcycle_model'),
    tshirtSize: text('tshirt_size'),
    customTshirtSize: text('custom_tshirt_size'),
    tshirtSubmittedAt: timestamp('tshirt_submitted_at', { withTimezone: true }),
    finisherSleeveSize: text('finisher_sleeve_size'),
    customFinisherSleeveSize: text('custom_finisher_sleeve_size'),
    vestSize: text('vest_size'),
    customVestSize: text('custom_vest_size'),
    gearSubmittedAt: timestamp('gear_submitted_at', { withTimezone: true }),
    bikeCheckStatus: text('bike_check_status').notNull().default('Not Started'),
    riderKitStatus: text('rider_kit_status').notNull().default('Preparing'),
    checkpoints: integer('checkpoints').notNull().default(0),
    /** Where the course left the rider when the edition closed (null while it runs). */
    resultState: text('result_state').$type<CourseStateName>(),
    finishedAt: timestamp('finished_at', { withTimezone: true }),
    elapsedMs: integer('elapsed_ms'),
    createdAt: timestamp('created_at', { withTimezone: true }).notNull().defaultNow(),
    updatedAt: timestamp('updated_at', { withTimezone: true }).notNull().defaultNow(),
  },
  (t) => [
    uniqueIndex('entries_user_uq').on(t.editionId, t.userId),
    uniqueIndex('entries_code_uq').on(t.editionId, t.verificationCode),
    uniqueIndex('entries_rider_number_uq').on(t.editionId, t.riderNumber),
    uniqueIndex('entries_rider_code_uq').on(t.editionId, t.riderCode),
    index('entries_status_idx').on(t.editionId, t.status, t.createdAt),
    index('entries_user_idx').on(t.userId),
    // The shared range, written into the SQL as literals.
    check(
      'entries_rider_number_range',
      sql`${t.riderNumber} is null or (${t.riderNumber} between ${sql.raw(String(RIDER_NUMBER_MIN))} and ${sql.raw(String(RIDER_NUMBER_MAX))})`,
    ),
  ],
);
export type EntryRow = typeof entries.$inferSelect;

/** Every verify, reject and undo, with the acting staff member; names are snapshots so history survives deletes. */
export const verificationHistory = pgTable(
  'verification_history',
  {
    id: uuid('id').primaryKey().defaultRandom(),
    editionId: editionColumn(),
    verificationId: uuid('verification_id').references(() => entries.id, { onDelete: 'set null' }),
    userId: uuid('user_id').references(() => users.id, { onDelete: 'set null' }),
    userFirstName: text('user_first_name'),
    userLastName: text('user_last_name'),
    kitName: text('kit_name'),
    verificationCode: text('verification_code'),
    action: verificationActionEnum('action').notNull(),
    adminId: uuid('admin_id').references(() => users.id, { onDelete: 'set null' }),
    adminFirstName: text('admin_first_name'),
    adminLastName: text('admin_last_name'),
    notes: text('notes'),
    createdAt: timestamp('created_at', { withTimezone: true }).notNull().defaultNow(),
  },
  (t) => [
    index('verification_history_created_idx').on(t.editionId, t.createdAt),
    index('verification_history_user_idx').on(t.userId),
  ],
);
