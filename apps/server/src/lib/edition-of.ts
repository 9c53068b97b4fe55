// Which edition a read of the event day is about (DESIGN.md §9). The event day's tables
// (stations, course rules and decisions, scans, incidents, SOS abuse marks) hold every
// edition's rows side by side, each with its `edition_id`; every query of them names one.
import { eq, type SQL, sql } from 'drizzle-orm';
import type { AnyPgColumn } from 'drizzle-orm/pg-core';
import { editions } from '../db/schema/editions';

/**
 * The current edition's id as SQL, evaluated once per statement (an InitPlan, not once per
 * row). Inside a past edition's read it is that edition (`rally.edition`, lib/edition-scope.ts).
 */
export const CURRENT_EDITION: SQL<string> = sql<string>`(select current_edition_id())`;

/** `column` (an `edition_id`) is `editionId`'s, or the current edition's when none is named. */
export function inEdition(column: AnyPgColumn, editionId?: string | null): SQL {
  return eq(column, editionId ?? CURRENT_EDITION);
}

/** When the edition being read closed, as SQL: `infinity` for the current one (still open). */
const EDITION_CLOSE = sql`(select coalesce(e.closed_at, 'infinity'::timestamptz) from ${editions} e where e.id = ${CURRENT_EDITION})`;

/**
 * SQL: the receipt `f` (a `files` row of kind payment_receipt) is the rider's receipt as it
 * stood in the edition being read. The current edition's is the one not superseded; a past
 * edition's, the one current when it closed: sent before, superseded then or later (the
 * rollover supersedes every receipt at the very moment it closes the edition). So a past
 * entry's receipt reads as it did after the rider has sent this year's.
 */
export function receiptOfEdition(f: { createdAt: AnyPgColumn; supersededAt: AnyPgColumn }): SQL {
  return sql`(${f.createdAt} <= ${EDITION_CLOSE} and (${f.supersededAt} is null or ${f.supersededAt} >= ${EDITION_CLOSE}))`;
}

/** SQL: the receipt `f` was replaced by another within the edition being read (a resubmission). */
export function replacedInEdition(f: { supersededAt: AnyPgColumn }): SQL {
  return sql`(${f.supersededAt} is not null and ${f.supersededAt} < ${EDITION_CLOSE})`;
}
