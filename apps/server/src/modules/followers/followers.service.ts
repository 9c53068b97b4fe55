// Followers (DESIGN.md §10): family follow a verified rider by email, confirmed by a link
// first, or by this browser's push subscription (the browser's permission prompt is the
// confirmation). Until an email is confirmed it gets the confirmation and nothing else, and
// the answer never tells whether an address already follows.
import { createHash, randomBytes } from 'node:crypto';
import { RIDER_ROLES } from '@rally/shared/catalog/accounts';
import type { FollowRequest } from '@rally/shared/contracts/messages';
import { and, count, desc, eq, gt, inArray, isNull, sql } from 'drizzle-orm';
import type { Db, DbOrTx } from '../../db/client';
import { entries } from '../../db/schema/entries';
import { followers, outboxMessages, pushSubscriptions } from '../../db/schema/messages';
import { users } from '../../db/schema/users';
import { BadRequestError, ConflictError, NotFoundError } from '../../lib/errors';
import { ownEntry } from '../../lib/riders';
import type { Messenger } from '../messages/messenger';
import { enqueueMessages } from '../messages/outbox';
import { checkPushKeys, followerPushSubscription } from '../messages/push.service';
import { checkPushEndpoint } from '../messages/push-endpoints';
import { consentInEffect } from '../privacy/consents.service';
import { authorName } from '../profiles/profiles.presenter';
import { canonicalUserId } from '../profiles/profiles.service';
import { countConfirmation, lockMailbox, mailboxFull } from './confirm-cap';
import type { FollowerListRow } from './followers.presenter';

/** A repeat for the same unconfirmed email re-sends the confirmation at most this often. */
export const CONFIRM_RESEND_AFTER_MS = 10 * 60_000;
/**
 * Confirmations one mailbox gets per hour, whichever riders they name and however its
 * address is spelled: the per-rider pause above does not stop one person naming a
 * stranger's inbox for a hundred riders.
 */
export const CONFIRMS_PER_EMAIL_PER_HOUR = 5;

export const RIDER_NOT_FOLLOWABLE_MESSAGE = 'There is no verified rider to follow here';
export const FOLLOWERS_OFF_MESSAGE = 'This rider does not accept followers';
export const EMAIL_OFF_MESSAGE = 'Following by email is not available: the organisers have not set up email';
export const PUSH_OFF_MESSAGE = 'Following by push is not available: the organisers have not set up push';
export const CONFIRM_INVALID_MESSAGE =
  'This confirmation link is invalid or was replaced by a newer one. Follow the rider again to get a new link.';

const hashToken = (token: string) => createHash('sha256').update(token).digest('hex');
/** 32 random bytes: the link's token; only its hash is stored. */
const newToken = () => randomBytes(32).toString('base64url');

/** The rider an id names when they may be followed: an active, verified rider (else 404). */
async function followableRider(db: DbOrTx, rawId: string) {
  const id = canonicalUserId(rawId);
  const notFound = () => new NotFoundError(RIDER_NOT_FOLLOWABLE_MESSAGE, 'RIDER_NOT_FOUND');
  if (id === null) throw notFound();
  const [row] = await db
    .select({ id: users.id, firstName: users.firstName, lastName: users.lastName, kitName: users.kitName })
    .from(users)
    .innerJoin(entries, ownEntry)
    .where(
      and(
        eq(users.id, id),
        eq(users.status, 'active'),
        inArray(users.role, [...RIDER_ROLES]),
        eq(entries.status, 'verified'),
      ),
    )
    .limit(1);
  if (!row) throw notFound();
  return row;
}

export interface FollowContext {
  messenger: Messenger;
  pushEndpointHosts: readonly string[];
  now: Date;
}

/** `POST /api/follow/{userId}`: what the follow form sent. Which answer it gets is the route's (always 202). */
export async function followRider(db: Db, rawRiderId: string, body: FollowRequest, ctx: FollowContext) {
  const rider = await followableRider(db, rawRiderId);
  // A rider who withdrew the followers consent (DESIGN.md §12) takes no new ones.
  if (!(await consentInEffect(db, rider.id, 'followers')))
    throw new ConflictError(FOLLOWERS_OFF_MESSAGE, 'FOLLOWERS_OFF');
  if ('email' in body) return followByEmail(db, rider, body.email, ctx);
  return followByPush(db, rider.id, body.pushSubscription, ctx);
}

async function followByEmail(
  db: Db,
  rider: Awaited<ReturnType<typeof followableRider>>,
  email: string,
  ctx: FollowContext,
): Promise<'email'> {
  if (!ctx.messenger.on.has('email')) throw new BadRequestError(EMAIL_OFF_MESSAGE, 'EMAIL_OFF');
  const riderName = authorName(rider);
  await db.transaction(async (tx) => {
    // First, so the cap's count and this send are one step for every spelling of the inbox.
    await lockMailbox(tx, email);
    // The row is locked for the transaction, so two repeats at once send one email.
    const [existing] = await tx
      .select({ id: followers.id, confirmedAt: followers.confirmedAt })
      .from(followers)
      .where(and(eq(followers.riderId, rider.id), sql`lower(${followers.email}) = lower(${email})`))
      .for('update');
    if (existing?.confirmedAt) return;
    if (existing && (await sentSince(tx, existing.id, new Date(ctx.now.getTime() - CONFIRM_RESEND_AFTER_MS)))) return;
    if (await mailboxFull(tx, email, ctx.now, CONFIRMS_PER_EMAIL_PER_HOUR)) return;
    const token = newToken();
    let followerId = existing?.id;
    if (followerId) {
      // The earlier link stops working: only the newest token's hash is kept.
      await tx
        .update(followers)
        .set({ tokenHash: hashToken(token) })
        .where(eq(followers.id, followerId));
    } else {
      const [created] = await tx
        .insert(followers)
        .values({ riderId: rider.id, email, tokenHash: hashToken(token) })
        // A concurrent first request for the same address won: it sends the one email.
        .onConflictDoNothing()
        .returning({ id: followers.id });
      if (!created) return;
      followerId = created.id;
    }
    await enqueueMessages(tx, [
      { channel: 'email', template: 'follow_confirm', address: email, followerId, data: { riderName, token } },
    ]);
    await countConfirmation(tx, email, ctx.now);
  });
  return 'email';
}

/** Whether this follower's confirmation went out after `since` (the app's clock, so tests can move it). */
async function sentSince(tx: DbOrTx, followerId: string, since: Date): Promise<boolean> {
  const [row] = await tx
    .select({ n: count() })
    .from(outboxMessages)
    .where(
      and(
        eq(outboxMessages.followerId, followerId),
        eq(outboxMessages.template, 'follow_confirm'),
        gt(outboxMessages.createdAt, since),
      ),
    );
  return Number(row?.n ?? 0) > 0;
}

async function followByPush(
  db: Db,
  riderId: string,
  subscription: Extract<FollowRequest, { pushSubscription: unknown }>['pushSubscription'],
  ctx: FollowContext,
): Promise<'push'> {
  if (!ctx.messenger.on.has('push')) throw new BadRequestError(PUSH_OFF_MESSAGE, 'PUSH_OFF');
  checkPushEndpoint(subscription.endpoint, ctx.pushEndpointHosts);
  checkPushKeys(subscription.keys);
  await db.transaction(async (tx) => {
    // One row per browser: one already stored keeps its owner and keys (409 unless it is this browser).
    const subscriptionId = await followerPushSubscription(tx, subscription);
    await tx
      .insert(followers)
      // Push has no link to confirm: the token only fills the column (its hash, never sent).
      .values({ riderId, pushSubscriptionId: subscriptionId, tokenHash: hashToken(newToken()), confirmedAt: ctx.now })
      // This browser already follows the rider: nothing changes.
      .onConflictDoNothing();
  });
  return 'push';
}

/** `POST /api/follow/confirm`: the email's link. Confirming twice is fine; an unknown token is a 400. */
export async function confirmFollow(db: Db, token: string, now: Date) {
  const [row] = await db
    .select({
      id: followers.id,
      confirmedAt: followers.confirmedAt,
      firstName: users.firstName,
      lastName: users.lastName,
      kitName: users.kitName,
    })
    .from(followers)
    .innerJoin(users, eq(users.id, followers.riderId))
    .where(eq(followers.tokenHash, hashToken(token)))
    .limit(1);
  if (!row) throw new BadRequestError(CONFIRM_INVALID_MESSAGE, 'FOLLOW_TOKEN_INVALID');
  if (!row.confirmedAt)
    await db
      .update(followers)
      .set({ confirmedAt: now })
      .where(and(eq(followers.id, row.id), isNull(followers.confirmedAt)));
  return { riderName: authorName(row), confirmed: true };
}

/** The rider's own followers, newest first. */
export function listFollowers(db: DbOrTx, riderId: string): Promise<FollowerListRow[]> {
  return db
    .select({
      id: followers.id,
      email: followers.email,
      endpoint: pushSubscriptions.endpoint,
      confirmedAt: followers.confirmedAt,
      createdAt: followers.createdAt,
    })
    .from(followers)
    .leftJoin(pushSubscriptions, eq(pushSubscriptions.id, followers.pushSubscriptionId))
    .where(eq(followers.riderId, riderId))
    .orderBy(desc(followers.createdAt), desc(followers.id));
}

/**
 * Removes one of the rider's own followers (another rider's is "not found", as an unknown id
 * is). A follower's browser that follows nobody else any more is forgotten too; an account's
 * own device stays.
 */
export async function removeFollower(db: Db, riderId: string, followerId: string): Promise<void> {
  await db.transaction(async (tx) => {
    const [removed] = await tx
      .delete(followers)
      .where(and(eq(followers.id, followerId), eq(followers.riderId, riderId)))
      .returning({ pushSubscriptionId: followers.pushSubscriptionId });
    if (!removed) throw new NotFoundError('Follower not found', 'FOLLOWER_NOT_FOUND');
    if (removed.pushSubscriptionId)
      await tx
        .delete(pushSubscriptions)
        .where(
          and(
            eq(pushSubscriptions.id, removed.pushSubscriptionId),
            isNull(pushSubscriptions.userId),
            sql`not exists (select 1 from ${followers} where ${followers.pushSubscriptionId} = ${pushSubscriptions.id})`,
          ),
        );
  });
}
