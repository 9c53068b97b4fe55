// Positions are kept TRACKING_RETENTION_DAYS (default 30) after their edition ends, then
// deleted (DESIGN.md §11, the consent the rider read): a daily job of the message worker's
// loop, which runs on every instance; the delete is idempotent, so two instances running it
// at once only repeat an empty statement.
import { sql } from 'drizzle-orm';
import type { Db } from '../../db/client';
import { editions } from '../../db/schema/editions';
import { positions } from '../../db/schema/tracking';
import { rowsOf } from '../../lib/sql-text';
import type { ScheduledJob } from '../messages/outbox-worker';

const DAY_MS = 24 * 60 * 60_000;
/** Rows deleted per statement: a big edition goes in pieces, no statement holds locks for long. */
const DELETE_BATCH = 20_000;

/**
 * Deletes the positions of every edition that ended more than `retentionDays` ago (its last
 * day over, in the Philippines); answers how many went. An edition without an end date keeps
 * its positions: nobody said when it ends.
 */
export async function deleteExpiredPositions(db: Db, retentionDays: number, now: Date): Promise<number> {
  let total = 0;
  for (;;) {
    const deleted = rowsOf<{ n: number | string }>(
      await db.execute(sql`
        with expired as (
          select p.edition_id, p.user_id, p.at from ${positions} p
          join ${editions} e on e.id = p.edition_id
          where e.ends_on is not null
            and (e.ends_on + 1 + ${retentionDays}::int)::timestamp at time zone 'Asia/Manila' <= ${now.toISOString()}::timestamptz
          limit ${DELETE_BATCH}
        ), gone as (
          delete from ${positions} p using expired x
          where p.edition_id = x.edition_id and p.user_id = x.user_id and p.at = x.at
          returning 1
        )
        select count(*)::int as n from gone`),
    );
    const n = Number(deleted[0]?.n ?? 0);
    total += n;
    if (n < DELETE_BATCH) return total;
  }
}

/** The worker's daily job: deletes what expired, and is due again a day later. */
export function positionsRetentionJob(db: Db, retentionDays: number): ScheduledJob {
  let nextRun = 0;
  return {
    name: 'positions-retention',
    async run(now: Date) {
      if (now.getTime() >= nextRun) {
        await deleteExpiredPositions(db, retentionDays, now);
        nextRun = now.getTime() + DAY_MS;
      }
      return new Date(nextRun);
    },
  };
}
