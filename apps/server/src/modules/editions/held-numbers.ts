// Returning riders' numbers (DESIGN.md §9): a rider verified in the edition the current one
// was copied from keeps their number for themselves until the current edition's
// `numbersHeldUntil`, while they have not entered it yet. Anyone else claiming it is refused
// with the date; the taken list shows it as taken.
import { formatRallyMoment } from '@rally/shared/catalog/editions';
import { type SQL, sql } from 'drizzle-orm';
import type { DbOrTx } from '../../db/client';
import { editions } from '../../db/schema/editions';
import { entries } from '../../db/schema/entries';
import { ConflictError } from '../../lib/errors';

/**
 * `select n, user_id, until` of the numbers held at `now` (a moment or a placeholder):
 * the one definition the taken list, the claim checks and the returning rider's form read.
 */
export function heldNumbersSql(now: SQL | Date): SQL {
  const at = now instanceof Date ? sql`${now.toISOString()}::timestamptz` : sql`${now}::timestamptz`;
  return sql`select prev.rider_number as n, prev.user_id as user_id, cur.numbers_held_until as until
    from ${editions} cur
    join ${entries} prev on prev.edition_id = cur.copied_from
    where cur.id = (select current_edition_id()) and cur.numbers_held_until > ${at}
      and prev.status = 'verified' and prev.rider_number is not null
      and not exists (select 1 from ${entries} now_ where now_.user_id = prev.user_id and now_.edition_id = cur.id
        and now_.rider_number is not null)`;
}

export interface HeldNumber {
  riderNumber: number;
  userId: string;
  until: Date;
}

async function firstHeld(db: DbOrTx, now: Date, where: SQL): Promise<HeldNumber | null> {
  const result = (await db.execute(
    sql`select * from (${heldNumbersSql(now)}) held where ${where} limit 1`,
  )) as unknown as { rows: Array<{ n: number; user_id: string; until: string | Date }> };
  const row = result.rows[0];
  return row ? { riderNumber: row.n, userId: row.user_id, until: new Date(row.until) } : null;
}

/** Who holds number `n` at `now`, if anyone does. */
export const holderOf = (db: DbOrTx, n: number, now: Date) => firstHeld(db, now, sql`held.n = ${n}`);

/** The number held for `userId` at `now`, if one is. */
export const heldFor = (db: DbOrTx, userId: string, now: Date) => firstHeld(db, now, sql`held.user_id = ${userId}`);

export const riderNumberHeld = (n: number, until: Date) =>
  new ConflictError(
    `Rider number ${n} is held for a returning rider until ${formatRallyMoment(until.toISOString())}. Please choose another number.`,
    'RIDER_NUMBER_HELD',
  );

/** Refuses number `n` to anyone but its holder while it is held. */
export async function assertNotHeldFromOthers(db: DbOrTx, n: number, userId: string | null, now: Date): Promise<void> {
  const held = await holderOf(db, n, now);
  if (held && held.userId !== userId) throw riderNumberHeld(n, held.until);
}
