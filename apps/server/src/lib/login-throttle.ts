// Failed-login throttling, kept in the database (table login_throttle) so every server
// instance on one PostgreSQL shares the counts, and decided atomically so 40 parallel
// wrong passwords get exactly the limit judged and the rest refused.
//
// The rule, and why:
// - An attempt reserves a slot before the password is checked. A wrong password keeps
//   the slot (it is a judged failure); a right one gives it back. Reserving first is
//   what makes the limit exact under parallel requests.
// - Per account: after `perAccount` failures in a window the account is closed to every
//   address that has failed on it in that window. An address that has not failed on it
//   still gets its password judged, so an attacker hammering one rider cannot lock the
//   real rider out: the rider signs in from their own phone. An attacker who rotates
//   addresses gets one judged guess per new address per window, and no more.
// - Per address: `perAddress` failures in a window across all accounts close the
//   address (password spraying from one place).
// - A refused attempt changes nothing: no count, no longer lock. A window opens at its
//   first failure and closes `windowMs` later; failures inside it never extend it.
// - Accounts are keyed by the SHA-256 of the email, so the table holds no email.
import { and, eq, gt, inArray, lt, sql } from 'drizzle-orm';
import type { Db, Tx } from '../db/client';
import { loginThrottle } from '../db/schema/login-throttle';
import { sha256Hex } from './tokens';

export interface LoginThrottleLimits {
  enabled: boolean;
  perAccount: number;
  perAddress: number;
  windowMs: number;
}

/** A judged attempt's reservation; settle it once the password has been checked. */
export interface LoginReservation {
  keys: { account: string; pair: string; address: string };
}

export type LoginDecision = { allowed: true; reservation: LoginReservation } | { allowed: false; retryAfterMs: number };

function keysFor(email: string, ip: string) {
  const account = sha256Hex(email);
  return { account: `account:${account}`, pair: `pair:${account}:${ip}`, address: `address:${ip}` };
}

class Refused extends Error {
  constructor(readonly retryAfterMs: number) {
    super('refused');
  }
}

/** Adds one failure to a key, opening a fresh window when the old one has closed. */
async function bump(tx: Tx, key: string, now: Date, cutoff: Date): Promise<void> {
  await tx
    .insert(loginThrottle)
    .values({ key, failures: 1, windowStart: now })
    .onConflictDoUpdate({
      target: loginThrottle.key,
      set: {
        failures: sql`case when ${loginThrottle.windowStart} <= ${cutoff.toISOString()} then 1 else ${loginThrottle.failures} + 1 end`,
        windowStart: sql`case when ${loginThrottle.windowStart} <= ${cutoff.toISOString()} then ${now.toISOString()}::timestamptz else ${loginThrottle.windowStart} end`,
      },
    });
}

/**
 * Decides whether an attempt is judged, reserving its slots when it is. Decisions on one
 * account are serialized by a transaction-scoped advisory lock; the address count, shared
 * by every account, is reserved with a conditional upsert that cannot pass the limit.
 */
export async function reserveLoginAttempt(
  db: Db,
  limits: LoginThrottleLimits,
  email: string,
  ip: string,
  now: Date = new Date(),
): Promise<LoginDecision> {
  const keys = keysFor(email, ip);
  const cutoff = new Date(now.getTime() - limits.windowMs);
  try {
    await db.transaction(async (tx) => {
      await tx.execute(sql`select pg_advisory_xact_lock(hashtext(${keys.account}))`);
      const rows = await tx
        .select()
        .from(loginThrottle)
        .where(and(inArray(loginThrottle.key, [keys.account, keys.pair]), gt(loginThrottle.windowStart, cutoff)));
      const account = rows.find((r) => r.key === keys.account);
      const pair = rows.find((r) => r.key === keys.pair);
      if (account && account.failures >= limits.perAccount && pair && pair.failures > 0) {
        throw new Refused(account.windowStart.getTime() + limits.windowMs - now.getTime());
      }
      // The address slot: taken only while under the limit (or in a fresh window).
      const taken = await tx
        .insert(loginThrottle)
        .values({ key: keys.address, failures: 1, windowStart: now })
        .onConflictDoUpdate({
          target: loginThrottle.key,
          set: {
            failures: sql`case when ${loginThrottle.windowStart} <= ${cutoff.toISOString()} then 1 else ${loginThrottle.failures} + 1 end`,
            windowStart: sql`case when ${loginThrottle.windowStart} <= ${cutoff.toISOString()} then ${now.toISOString()}::timestamptz else ${loginThrottle.windowStart} end`,
          },
          setWhere: sql`${loginThrottle.windowStart} <= ${cutoff.toISOString()} or ${loginThrottle.failures} < ${limits.perAddress}`,
        })
        .returning({ key: loginThrottle.key });
      if (taken.length === 0) {
        const [row] = await tx.select().from(loginThrottle).where(eq(loginThrottle.key, keys.address));
        throw new Refused(row ? row.windowStart.getTime() + limits.windowMs - now.getTime() : limits.windowMs);
      }
      await bump(tx, keys.account, now, cutoff);
      await bump(tx, keys.pair, now, cutoff);
    });
  } catch (err) {
    if (err instanceof Refused) return { allowed: false, retryAfterMs: Math.max(1000, err.retryAfterMs) };
    throw err;
  }
  return { allowed: true, reservation: { keys } };
}

/**
 * Settles a judged attempt. A wrong password keeps its reservation as a failure; anything
 * else (a right password, even on an inactive account) gives the slots back, and clears
 * this address's failures on the account.
 */
export async function settleLoginAttempt(db: Db, reservation: LoginReservation, failed: boolean): Promise<void> {
  if (failed) return;
  const { keys } = reservation;
  await db.transaction(async (tx) => {
    await tx
      .update(loginThrottle)
      .set({ failures: sql`${loginThrottle.failures} - 1` })
      .where(and(inArray(loginThrottle.key, [keys.account, keys.address]), gt(loginThrottle.failures, 0)));
    await tx.delete(loginThrottle).where(eq(loginThrottle.key, keys.pair));
  });
}

/** Drops rows whose window has closed; run now and then so sprays of keys do not pile up. */
export async function pruneLoginThrottle(db: Db, windowMs: number, now: Date = new Date()): Promise<void> {
  await db.delete(loginThrottle).where(lt(loginThrottle.windowStart, new Date(now.getTime() - windowMs)));
}
