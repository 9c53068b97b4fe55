// Phone numbers compared in E.164 (DESIGN.md §10). Accounts keep the number as it was
// typed (09XX XXX XXXX, +63 9XX-XXX-XXXX, ...); the SMS gateway reports a sender as the
// network gives it. Both are brought to one form before they are compared, with the rule
// of the registration forms (contracts/rider-details.ts) for Philippine mobiles.
import { canonicalPhilippineMobile } from '@rally/shared/contracts/rider-details';
import { sql } from 'drizzle-orm';
import type { AnyPgColumn } from 'drizzle-orm/pg-core';

/**
 * `09171234567`, `+63 917 123 4567`, `639171234567` and `9171234567` are `+639171234567`;
 * another `+` number is kept; else null. Staff and hotline numbers are free text, so the
 * short form without the 0 is taken too.
 */
export function toE164(raw: string | null | undefined): string | null {
  if (!raw) return null;
  const mobile = canonicalPhilippineMobile(raw);
  if (mobile) return mobile;
  const compact = raw.trim().replace(/[\s.\-()]/g, '');
  if (/^9\d{9}$/.test(compact)) return `+63${compact}`;
  return /^\+[1-9]\d{7,14}$/.test(compact) ? compact : null;
}

/** The compact forms an account may hold for an E.164 number (what `toE164` maps to it). */
export function typedForms(e164: string): string[] {
  const local = /^\+63(9\d{9})$/.exec(e164)?.[1];
  return local ? [e164, `63${local}`, `0${local}`, local] : [e164];
}

/**
 * SQL: the column holds this number, however it was typed (spaces, dashes, dots and
 * brackets ignored), so the match runs in the database over any number of accounts.
 */
export function holdsNumber(column: AnyPgColumn, e164: string) {
  const forms = sql.join(
    typedForms(e164).map((f) => sql`${f}`),
    sql`, `,
  );
  return sql`regexp_replace(coalesce(${column}, ''), '[[:space:].()-]', '', 'g') in (${forms})`;
}
