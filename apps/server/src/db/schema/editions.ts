import { sql } from 'drizzle-orm';
import {
  type AnyPgColumn,
  boolean,
  check,
  date,
  index,
  integer,
  jsonb,
  pgTable,
  text,
  timestamp,
  uniqueIndex,
  uuid,
} from 'drizzle-orm/pg-core';
import { users } from './users';

/**
 * One year's rally (DESIGN.md §9). Exactly one row is current: the public site and every
 * call of the specs answer for it. Its name, dates and hotline are what the console's
 * Settings edit (they were the single `event_settings` row before editions).
 */
export const editions = pgTable(
  'editions',
  {
    id: uuid('id').primaryKey().defaultRandom(),
    name: text('name').notNull(),
    year: integer('year').notNull(),
    startsOn: date('starts_on', { mode: 'string' }),
    endsOn: date('ends_on', { mode: 'string' }),
    /** Registration (the specs' and a returning rider's) is refused outside this window; null ends are open. */
    registrationOpensAt: timestamp('registration_opens_at', { withTimezone: true }),
    registrationClosesAt: timestamp('registration_closes_at', { withTimezone: true }),
    /** Until then a returning rider's previous number is held for them. */
    numbersHeldUntil: timestamp('numbers_held_until', { withTimezone: true }),
    hotline: text('hotline'),
    /** Entry prices in pesos by category (and guest); null: the catalog's (catalog/registration.ts). */
    prices: jsonb('prices').$type<Record<string, number>>(),
    /**
     * Days each kind is kept after the edition ends (DESIGN.md §12, catalog/privacy.ts
     * RETENTION_KINDS); a kind left out keeps the default.
     */
    retention: jsonb('retention').$type<Partial<Record<string, number>>>().notNull().default({}),
    current: boolean('current').notNull().default(false),
    /** When another edition was made current: from then on this one is read-only history. */
    closedAt: timestamp('closed_at', { withTimezone: true }),
    copiedFrom: uuid('copied_from').references((): AnyPgColumn => editions.id, { onDelete: 'set null' }),
    createdAt: timestamp('created_at', { withTimezone: true }).notNull().defaultNow(),
    /** When staff last saved it; null while it holds what it was made with. */
    updatedAt: timestamp('updated_at', { withTimezone: true }),
    updatedBy: uuid('updated_by').references(() => users.id, { onDelete: 'set null' }),
  },
  (t) => [
    // Exactly one current edition: at most one by this index, at least one by the service.
    uniqueIndex('editions_current_uq').on(t.current).where(sql`${t.current}`),
    uniqueIndex('editions_name_lower_uq').on(sql`lower(${t.name})`),
    index('editions_year_idx').on(t.year),
    check('editions_year_range', sql`${t.year} between 2000 and 2200`),
    check('editions_dates_order', sql`${t.startsOn} is null or ${t.endsOn} is null or ${t.endsOn} >= ${t.startsOn}`),
    check(
      'editions_window_order',
      sql`${t.registrationOpensAt} is null or ${t.registrationClosesAt} is null or ${t.registrationClosesAt} > ${t.registrationOpensAt}`,
    ),
  ],
);
export type EditionRow = typeof editions.$inferSelect;
