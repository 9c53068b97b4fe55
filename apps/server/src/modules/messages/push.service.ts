// An account's browsers for Web Push: a subscription is stored only when the server may post
// to its endpoint (push-endpoints.ts) and its keys are ones a payload can be encrypted to, so
// a bad one is a 400 now rather than a failed message on event day.
import { createECDH } from 'node:crypto';
import type { PushSubscriptionBody } from '@rally/shared/contracts/messages';
import { and, eq } from 'drizzle-orm';
import type { DbOrTx } from '../../db/client';
import { pushSubscriptions } from '../../db/schema/messages';
import { BadRequestError } from '../../lib/errors';
import { checkPushEndpoint } from './push-endpoints';

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
 * Stores the browser's subscription for the account. An endpoint belongs to one browser: the
 * same browser subscribing again (a new account signed in on it, new keys) takes the row over.
 */
export async function subscribePush(
  db: DbOrTx,
  userId: string,
  body: PushSubscriptionBody,
  allowedHosts: readonly string[],
): Promise<void> {
  checkPushEndpoint(body.endpoint, allowedHosts);
  checkPushKeys(body.keys);
  const row = { userId, endpoint: body.endpoint, p256dh: body.keys.p256dh, auth: body.keys.auth };
  await db
    .insert(pushSubscriptions)
    .values(row)
    .onConflictDoUpdate({ target: pushSubscriptions.endpoint, set: { userId, p256dh: row.p256dh, auth: row.auth } });
}

/** Removes the caller's own subscription at that endpoint; whether there was one. */
export async function unsubscribePush(db: DbOrTx, userId: string, endpoint: string): Promise<boolean> {
  const removed = await db
    .delete(pushSubscriptions)
    .where(and(eq(pushSubscriptions.userId, userId), eq(pushSubscriptions.endpoint, endpoint)))
    .returning({ id: pushSubscriptions.id });
  return removed.length > 0;
}
