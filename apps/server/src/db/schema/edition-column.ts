import { sql } from 'drizzle-orm';
import { uuid } from 'drizzle-orm/pg-core';
import { editions } from './editions';

/**
 * The edition a row of the event day belongs to (DESIGN.md §9). Written rows belong to the
 * current edition (a past one is read-only), so the database fills it in:
 * `current_edition_id()` is defined by migration 0018 and reads the one current edition.
 */
export const editionColumn = () =>
  uuid('edition_id')
    .notNull()
    .default(sql`current_edition_id()`)
    .references(() => editions.id);
