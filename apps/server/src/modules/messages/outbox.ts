// The outbox (DESIGN.md §10): messages are rows written in the transaction of the event that
// causes them, so a message exists exactly when its event does. Instances claim due rows
// with FOR UPDATE SKIP LOCKED and hold them by a lease (`locked_until`, on the database's
// clock): two instances never take the same row, and a row whose instance died (kill -9)
// becomes due again when its lease ends.
import type { MessageChannel, MessageTemplate } from '@rally/shared/catalog/messages';
import { MESSAGE_BACKOFF_SECONDS, MESSAGE_MAX_ATTEMPTS } from '@rally/shared/catalog/messages';
import { and, eq, inArray, sql } from 'drizzle-orm';
import type { DbOrTx } from '../../db/client';
import { type OutboxRow, outboxMessages, pushSubscriptions } from '../../db/schema/messages';

/** The channel every instance's worker listens on: a new row wakes them when its transaction commits. */
export const OUTBOX_CHANNEL = 'rally_outbox';

/**
 * How long a claimed row stays an instance's without word from it. A send can take longer
 * than this (a message waits its turn in the mail pool behind the rest of its batch), so
 * the worker renews the leases of the rows it still holds every third of it
 * (`renewLeases`): a lease ends only when its instance has stopped renewing, i.e. died.
 */
export const LEASE_SECONDS = 60;

export interface NewMessage {
  channel: MessageChannel;
  template: MessageTemplate;
  address: string;
  data: Record<string, unknown>;
  userId?: string | null;
  followerId?: string | null;
  incidentId?: string | null;
  /** Not before (a scheduled message); now when left out. */
  notBefore?: Date;
}

/** Writes messages (inside the event's transaction) and wakes the workers when it commits. */
export async function enqueueMessages(tx: DbOrTx, messages: readonly NewMessage[]): Promise<OutboxRow[]> {
  if (messages.length === 0) return [];
  const rows = await tx
    .insert(outboxMessages)
    .values(
      messages.map((m) => ({
        channel: m.channel,
        template: m.template,
        address: m.address,
        data: m.data,
        userId: m.userId ?? null,
        followerId: m.followerId ?? null,
        incidentId: m.incidentId ?? null,
        ...(m.notBefore ? { nextAttemptAt: m.notBefore } : {}),
      })),
    )
    .returning();
  await wakeOutboxWorkers(tx);
  return rows;
}

/**
 * Joins a push row to its subscription: a push row's address is its subscription's id (the
 * endpoint stays out of the outbox, so the log and the timeline can name its host only).
 */
export const pushRowSubscription = () =>
  and(eq(outboxMessages.channel, 'push'), sql`${pushSubscriptions.id}::text = ${outboxMessages.address}`);

/** Wakes every instance's worker when the transaction commits (NOTIFY is held until then). */
export async function wakeOutboxWorkers(tx: DbOrTx): Promise<void> {
  await tx.execute(sql`select pg_notify(${OUTBOX_CHANNEL}, '')`);
}

/**
 * Takes up to `limit` due rows for this instance. `now` is the app's clock (tests move it);
 * leases run on the database's clock, which every instance shares.
 */
export async function claimDueMessages(
  db: DbOrTx,
  opts: { now: Date; limit: number; instance: string; leaseSeconds?: number },
) {
  const result = await db.execute(sql`
    update ${outboxMessages} set
      locked_until = now() + make_interval(secs => ${opts.leaseSeconds ?? LEASE_SECONDS}),
      locked_by = ${opts.instance},
      attempts = ${outboxMessages.attempts} + 1
    where ${outboxMessages.id} in (
      select id from ${outboxMessages}
      where status = 'pending' and next_attempt_at <= ${opts.now.toISOString()}::timestamptz
        and (locked_until is null or locked_until <= now())
      order by next_attempt_at
      limit ${opts.limit}
      for update skip locked
    )
    returning id`);
  const ids = (result as unknown as { rows: Array<{ id: string }> }).rows.map((r) => r.id);
  if (ids.length === 0) return [];
  return db.query.outboxMessages.findMany({ where: (m, { inArray }) => inArray(m.id, ids) });
}

/** Extends this instance's leases on rows it is still sending; a row another instance took is left alone. */
export async function renewLeases(
  db: DbOrTx,
  ids: readonly string[],
  instance: string,
  leaseSeconds = LEASE_SECONDS,
): Promise<void> {
  if (ids.length === 0) return;
  await db
    .update(outboxMessages)
    .set({ lockedUntil: sql`now() + make_interval(secs => ${leaseSeconds})` })
    .where(
      and(
        inArray(outboxMessages.id, [...ids]),
        eq(outboxMessages.lockedBy, instance),
        eq(outboxMessages.status, 'pending'),
      ),
    );
}

/** When the next row will be due or its lease will end: the worker sleeps until then. */
export async function nextOutboxWake(db: DbOrTx, now: Date): Promise<Date | null> {
  const result = await db.execute(sql`
    select least(
      (select min(next_attempt_at) from ${outboxMessages} where status = 'pending' and locked_until is null),
      (select min(greatest(locked_until, next_attempt_at)) from ${outboxMessages} where status = 'pending' and locked_until is not null)
    ) as at, now() as db_now`);
  const row = (result as unknown as { rows: unknown[] }).rows[0] as
    | { at: Date | string | null; db_now: Date | string }
    | undefined;
  if (!row?.at) return null;
  // Leases run on the database's clock, due times on the app's: both are read as a wait from now.
  const at = new Date(row.at).getTime();
  return new Date(Math.max(now.getTime(), at));
}

export type SendOutcome =
  | { ok: true; answer: string }
  /** `permanent`: no retry helps (a push subscription gone, an address refused). */
  | { ok: false; answer: string; permanent: boolean };

const cut = (text: string) => (text.length > 500 ? `${text.slice(0, 499)}…` : text);

/** Records what the provider said: sent, due again after the backoff, or failed for good. */
export async function recordOutcome(db: DbOrTx, row: OutboxRow, instance: string, outcome: SendOutcome, now: Date) {
  const mine = and(eq(outboxMessages.id, row.id), eq(outboxMessages.lockedBy, instance));
  if (outcome.ok) {
    await db
      .update(outboxMessages)
      .set({ status: 'sent', sentAt: now, providerAnswer: cut(outcome.answer), lockedUntil: null })
      .where(mine);
    return 'sent' as const;
  }
  const lastTry = outcome.permanent || row.attempts >= MESSAGE_MAX_ATTEMPTS;
  const wait = MESSAGE_BACKOFF_SECONDS[Math.min(row.attempts - 1, MESSAGE_BACKOFF_SECONDS.length - 1)] ?? 60;
  await db
    .update(outboxMessages)
    .set(
      lastTry
        ? { status: 'failed', providerAnswer: cut(outcome.answer), lockedUntil: null }
        : {
            providerAnswer: cut(outcome.answer),
            lockedUntil: null,
            nextAttemptAt: new Date(now.getTime() + wait * 1000),
          },
    )
    .where(mine);
  return lastTry ? ('failed' as const) : ('retry' as const);
}
