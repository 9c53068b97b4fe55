import { boolean, index, pgTable, primaryKey, text, timestamp, uuid } from 'drizzle-orm/pg-core';
import { editionColumn } from './edition-column';
import { users } from './users';

/** Hand-over of the three kit items in one edition; each records who gave it and when. */
export const kitTracking = pgTable(
  'kit_tracking',
  {
    editionId: editionColumn(),
    userId: uuid('user_id')
      .notNull()
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
  },
  (t) => [primaryKey({ columns: [t.editionId, t.userId] }), index('kit_tracking_user_idx').on(t.userId)],
);

/** One row per QR sticker print in one edition; the count is the number of rows. */
export const idCardPrints = pgTable(
  'id_card_prints',
  {
    id: uuid('id').primaryKey().defaultRandom(),
    editionId: editionColumn(),
    userId: uuid('user_id')
      .notNull()
      .references(() => users.id, { onDelete: 'cascade' }),
    printedBy: uuid('printed_by').references(() => users.id, { onDelete: 'set null' }),
    notes: text('notes'),
    printedAt: timestamp('printed_at', { withTimezone: true }).notNull().defaultNow(),
  },
  (t) => [
    index('id_card_prints_user_idx').on(t.editionId, t.userId, t.printedAt),
    index('id_card_prints_user_only_idx').on(t.userId),
  ],
);
