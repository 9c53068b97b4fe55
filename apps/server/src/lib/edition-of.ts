// Which edition a read is about (DESIGN.md §9). Every entry-scoped table (entries, kits,
// stickers, stations, course rules and decisions, scans, incidents, SOS abuse marks...) holds
// every edition's rows side by side, each with its `edition_id`; every query of them names
// one: the edition a staff read names (`?edition=`, passed by its route as `request.edition`,
// lib/edition-read.ts), or the current one when it names none.
import { eq, type SQL, sql } from 'drizzle-orm';
import type { AnyPgColumn } from 'drizzle-orm/pg-core';
import { editions } from '../db/schema/editions';

/** The current edition's id as SQL, evaluated once per statement (an InitPlan, not once per row). */
export const CURRENT_EDITION: SQL<string> = sql<string>`(select current_edition_id())`;

/**
 * The edition a read is about: a past edition's id (a staff read's `?edition=`, checked by
 * lib/edition-read.ts), or undefined for the current edition.
 */
export type EditionRead = string | undefined;

/** `edition`'s id as SQL: the id named, or the current edition's when none is. */
export function editionSql(edition?: string | null): SQL<string> {
  return edition ? sql<string>`${edition}::uuid` : CURRENT_EDITION;
}

/** `column` (an `edition_id`) is `editionId`'s, or the current edition's when none is named. */
export function inEdition(column: AnyPgColumn, editionId?: string | null): SQL {
  return eq(column, editionSql(editionId));
}

/** When `edition` closed, as SQL: `infinity` for the current one (still open). */
const editionClose = (edition?: string | null) =>
  sql`(select coalesce(e.closed_at, 'infinity'::timestamptz) from ${editions} e where e.id = ${editionSql(edition)})`;

/**
 * SQL: the receipt `f` (a `files` row of kind payment_receipt) is the rider's receipt as it
 * stood in the edition being read. The current edition's is the one not superseded; a past
 * edition's, the one current when it closed: sent before, superseded then or later (the
 * rollover supersedes every receipt at the very moment it closes the edition). So a past
 * entry's receipt reads as it did after the rider has sent this year's.
 */
export function receiptOfEdition(f: { createdAt: AnyPgColumn; supersededAt: AnyPgColumn }, edition?: EditionRead): SQL {
  const close = editionClose(edition);
  return sql`(${f.createdAt} <= ${close} and (${f.supersededAt} is null or ${f.supersededAt} >= ${close}))`;
}

/** SQL: the receipt `f` was replaced by another within the edition being read (a resubmission). */
export function replacedInEdition(f: { supersededAt: AnyPgColumn }, edition?: EditionRead): SQL {
  return sql`(${f.supersededAt} is not null and ${f.supersededAt} < ${editionClose(edition)})`;
}
