// An account's browsers for Web Push: a subscription is stored only when the server may post
// to its endpoint (push-endpoints.ts) and its keys are ones a payload can be encrypted to, so
// a bad one is a 400 now rather than a failed message on event day. An account's device
// belongs to the sign-in that registered it (DESIGN.md §10): signing out removes it, and a
// device whose sign-in has ended hears nothing meant for the account.
import { createECDH } from 'node:crypto';
import type { PushSubscriptionBody } from '@rally/shared/contracts/messages';
import { and, eq, gt, isNull, sql } from 'drizzle-orm';
import type { DbOrTx } from '../../db/client';
import { pushSubscriptions } from '../../db/schema/messages';
import { sessions } from '../../db/schema/sessions';
import { BadRequestError, ConflictError } from '../../lib/errors';
import { checkPushEndpoint } from './push-endpoints';

export const PUSH_ENDPOINT_TAKEN_MESSAGE =
  'This push endpoint is registered already with other keys: only the browser that holds it can register it again';

/** The browser's P-256 key must be a point on the curve, its auth secret 16 bytes (RFC 8291 §3). */
export function checkPushKeys(keys: PushSubscriptionBody['keys']): void {
  const point = Buffer.from(keys.p256dh, 'base64url');
  try {
    if (point.length !== 65 || point[0] !== 0x04) throw new Error('not uncompressed');
    // Refuses a point that is not on the curve.
    const probe = createECDH('prime256v1');
    probe.generateKeys();
    probe.computeSecret(point);
  } catch {
    throw new BadRequestError('keys.p256dh is not a P-256 public key', 'PUSH_KEYS_INVALID');
  }
  if (Buffer.from(keys.auth, 'base64url').length !== 16)
    throw new BadRequestError('keys.auth must be 16 bytes of base64url', 'PUSH_KEYS_INVALID');
}

/**
 * Whether a stored subscription is being registered again by the browser that holds it: its
 * auth secret is the request's. An endpoint is no secret (a push service's log, a shared
 * screen); the secret never leaves the browser but to us, so whoever knows the endpoint alone
 * cannot move the row to themselves or swap its keys, and the owner keeps reading its pushes.
 */
const sameBrowser = () => sql`${pushSubscriptions.auth} = excluded.auth`;

/**
 * Stores the browser's subscription for the account, tied to the caller's sign-in. An endpoint
 * belongs to one browser: the same browser (its auth secret) subscribing again, signed in as
 * anyone, takes the row over; anyone else gets 409 and the row stays as it was.
 */
export async function subscribePush(
  db: DbOrTx,
  caller: { userId: string; sessionId: string },
  body: PushSubscriptionBody,
  allowedHosts: readonly string[],
): Promise<void> {
  checkPushEndpoint(body.endpoint, allowedHosts);
  checkPushKeys(body.keys);
  const { userId, sessionId } = caller;
  const row = { userId, sessionId, endpoint: body.endpoint, p256dh: body.keys.p256dh, auth: body.keys.auth };
  const [stored] = await db
    .insert(pushSubscriptions)
    .values(row)
    .onConflictDoUpdate({
      target: pushSubscriptions.endpoint,
      set: { userId, sessionId, p256dh: row.p256dh },
      setWhere: sameBrowser(),
    })
    .returning({ id: pushSubscriptions.id });
  if (!stored) throw new ConflictError(PUSH_ENDPOINT_TAKEN_MESSAGE, 'PUSH_ENDPOINT_TAKEN');
}

/**
 * A follower's browser (no account): its row's id. The browser already stored (an account's
 * device, or following another rider) keeps its owner and sign-in; another browser claiming
 * its endpoint gets 409.
 */
export async function followerPushSubscription(db: DbOrTx, body: PushSubscriptionBody): Promise<string> {
  const { endpoint } = body;
  const { p256dh, auth } = body.keys;
  const [stored] = await db
    .insert(pushSubscriptions)
    .values({ userId: null, sessionId: null, endpoint, p256dh, auth })
    .onConflictDoUpdate({ target: pushSubscriptions.endpoint, set: { p256dh }, setWhere: sameBrowser() })
    .returning({ id: pushSubscriptions.id });
  if (!stored) throw new ConflictError(PUSH_ENDPOINT_TAKEN_MESSAGE, 'PUSH_ENDPOINT_TAKEN');
  return stored.id;
}

/**
 * Joins an account's device to its sign-in while that is live (not revoked, not expired, the
 * same account's): what is meant for the account goes to these devices only. Rendered with the
 * tables' own names, so raw SQL joins `push_subscriptions` and `sessions` unaliased.
 */
export const liveDeviceSession = () =>
  and(
    eq(sessions.id, pushSubscriptions.sessionId),
    eq(sessions.userId, pushSubscriptions.userId),
    isNull(sessions.revokedAt),
    gt(sessions.expiresAt, sql`now()`),
  );

/** The account's browsers that would get a push now (signed in as it still): their subscription ids. */
export async function liveDeviceIds(db: DbOrTx, userId: string): Promise<string[]> {
  const rows = await db
    .select({ id: pushSubscriptions.id })
    .from(pushSubscriptions)
    .innerJoin(sessions, liveDeviceSession())
    .where(eq(pushSubscriptions.userId, userId));
  return rows.map((r) => r.id);
}

/** Sign-out (in its transaction): the browsers that sign-in registered stop being the account's. */
export async function forgetSessionDevices(tx: DbOrTx, sessionId: string): Promise<void> {
  await tx.delete(pushSubscriptions).where(eq(pushSubscriptions.sessionId, sessionId));
}

/** A refresh swaps the session for a new one of the same sign-in: its browsers go with it. */
export async function moveSessionDevices(tx: DbOrTx, fromSessionId: string, toSessionId: string): Promise<void> {
  await tx
    .update(pushSubscriptions)
    .set({ sessionId: toSessionId })
    .where(eq(pushSubscriptions.sessionId, fromSessionId));
}

/** Removes the caller's own subscription at that endpoint; whether there was one. */
export async function unsubscribePush(db: DbOrTx, userId: string, endpoint: string): Promise<boolean> {
  const removed = await db
    .delete(pushSubscriptions)
    .where(and(eq(pushSubscriptions.userId, userId), eq(pushSubscriptions.endpoint, endpoint)))
    .returning({ id: pushSubscriptions.id });
  return removed.length > 0;
}
