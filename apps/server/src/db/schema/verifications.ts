import { index, integer, pgTable, text, timestamp, uniqueIndex, uuid } from 'drizzle-orm/pg-core';
import { editionColumn } from './edition-column';
import { paymentMethodEnum, verificationActionEnum, verificationStatusEnum } from './enums';
import { users } from './users';

/**
 * A rider's entry in one edition, as staff verify it: every edition's rows side by side
 * (DESIGN.md §9). A staff account's own record is copied into each new edition.
 */
export const verifications = pgTable(
  'verifications',
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
    createdAt: timestamp('created_at', { withTimezone: true }).notNull().defaultNow(),
    updatedAt: timestamp('updated_at', { withTimezone: true }).notNull().defaultNow(),
  },
  (t) => [
    uniqueIndex('verifications_user_uq').on(t.editionId, t.userId),
    uniqueIndex('verifications_code_uq').on(t.editionId, t.verificationCode),
    index('verifications_status_idx').on(t.editionId, t.status, t.createdAt),
    index('verifications_user_idx').on(t.userId),
  ],
);

/** Every verify, reject and undo, with the acting staff member; names are snapshots so history survives deletes. */
export const verificationHistory = pgTable(
  'verification_history',
  {
    id: uuid('id').primaryKey().defaultRandom(),
    editionId: editionColumn(),
    verificationId: uuid('verification_id').references(() => verifications.id, { onDelete: 'set null' }),
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
