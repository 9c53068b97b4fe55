// The hourly cap on follow confirmations (issue 41), counted per mailbox in the database:
// every spelling of one inbox shares one allowance (followers/mailbox.ts), and a
// transaction-scoped advisory lock on the mailbox makes the count and the send one step, so
// parallel follows naming many riders cannot each see room for one more.
import { createHash } from 'node:crypto';
import { and, count, eq, gt, inArray, lt, sql } from 'drizzle-orm';
import type { DbOrTx } from '../../db/client';
import { followConfirmSends } from '../../db/schema/follow-caps';
import { normalisedMailbox } from './mailbox';

const HOUR_MS = 3_600_000;

const mailboxHash = (email: string) => createHash('sha256').update(normalisedMailbox(email)).digest('hex');

/**
 * Takes `email`'s mailbox for the rest of the transaction: another follow of any spelling of
 * it waits until this one commits. Take it before anything is read or written.
 */
export async function lockMailbox(tx: DbOrTx, email: string): Promise<void> {
  await tx.execute(sql`select pg_advisory_xact_lock(hashtextextended(${`follow-confirm:${mailboxHash(email)}`}, 0))`);
}

/** Whether the mailbox has had `perHour` confirmations in the hour before `now`, for any rider. */
export async function mailboxFull(tx: DbOrTx, email: string, now: Date, perHour: number): Promise<boolean> {
  const [row] = await tx
    .select({ n: count() })
    .from(followConfirmSends)
    .where(
      and(
        eq(followConfirmSends.mailboxHash, mailboxHash(email)),
        gt(followConfirmSends.sentAt, new Date(now.getTime() - HOUR_MS)),
      ),
    );
  return Number(row?.n ?? 0) >= perHour;
}

/** Counts a confirmation sent to `email`'s mailbox, and forgets sends older than the hour. */
export async function countConfirmation(tx: DbOrTx, email: string, now: Date): Promise<void> {
  await tx.insert(followConfirmSends).values({ mailboxHash: mailboxHash(email), sentAt: now });
  // Old rows of any mailbox, a batch at a time; rows another follow is deleting are skipped,
  // never waited for (two deletes locking rows in different orders could deadlock).
  const stale = tx
    .select({ id: followConfirmSends.id })
    .from(followConfirmSends)
    .where(lt(followConfirmSends.sentAt, new Date(now.getTime() - HOUR_MS)))
    .limit(100)
    .for('update', { skipLocked: true });
  await tx.delete(followConfirmSends).where(inArray(followConfirmSends.id, stale));
}
