// Which edition a read of the event day is about (DESIGN.md §9). The event day's tables
// (stations, course rules and decisions, scans, incidents, SOS abuse marks) hold every
// edition's rows side by side, each with its `edition_id`; every query of them names one.
import { eq, type SQL, sql } from 'drizzle-orm';
import type { AnyPgColumn } from 'drizzle-orm/pg-core';

/**
 * The current edition's id as SQL, evaluated once per statement (an InitPlan, not once per
 * row). Inside a past edition's read it is that edition (`rally.edition`, lib/edition-scope.ts).
 */
export const CURRENT_EDITION: SQL<string> = sql<string>`(select current_edition_id())`;

/** `column` (an `edition_id`) is `editionId`'s, or the current edition's when none is named. */
export function inEdition(column: AnyPgColumn, editionId?: string | null): SQL {
  return eq(column, editionId ?? CURRENT_EDITION);
}
