import { boolean, index, pgTable, text, timestamp, uuid } from 'drizzle-orm/pg-core';
import { users } from './users';

/** Hand-over of the three kit items; each records who gave it and when. */
export const kitTracking = pgTable('kit_tracking', {
  userId: uuid('user_id')
    .primaryKey()
    .references(() => users.id, { onDelete: 'cascade' }),
  tshirtGiven: boolean('tshirt_given').notNull().default(false),
  tshirtGivenAt: timestamp('tshirt_given_at', { withTimezone: true }),
  tshirtGivenBy: uuid('tshirt_given_by').references(() => users.id, { onDelete: 'set null' }),
  vestGiven: boolean('vest_given').notNull().default(false),
  vestGivenAt: timestamp('vest_given_at', { withTimezone: true }),
  vestGivenBy: uuid('vest_given_by').references(() => users.id, { onDelete: 'set null' }),
  finisherSleeveGiven: boolean('finisher_sleeve_given').notNull().default(false),
  finisherSleeveGivenAt: timestamp('finisher_sleeve_given_at', { withTimezone: true }),
  finisherSleeveGivenBy: uuid('finisher_sleeve_given_by').references(() => users.id, { onDelete: 'set null' }),
  notes: text('notes'),
  updatedAt: timestamp('updated_at', { withTimezone: true }).notNull().defaultNow(),
  updatedBy: uuid('updated_by').references(() => users.id, { onDelete: 'set null' }),
});

/** One row per QR sticker print; the count is the number of rows. */
export const idCardPrints = pgTable(
  'id_card_prints',
  {
    id: uuid('id').primaryKey().defaultRandom(),
    userId: uuid('user_id')
      .notNull()
      .references(() => users.id, { onDelete: 'cascade' }),
    printedBy: uuid('printed_by').references(() => users.id, { onDelete: 'set null' }),
    notes: text('notes'),
    printedAt: timestamp('printed_at', { withTimezone: true }).notNull().defaultNow(),
  },
  (t) => [index('id_card_prints_user_idx').on(t.userId, t.printedAt)],
);
