// The delivery log and the channels' state for the console, and the test message a staff
// member sends themselves to see a channel work end to end.
import { MESSAGE_CHANNEL_LABELS, MESSAGE_CHANNELS, type MessageChannel } from '@rally/shared/catalog/messages';
import type { MessageListQuery } from '@rally/shared/contracts/messages';
import { and, desc, eq, gte, isNotNull, or, type SQL, sql } from 'drizzle-orm';
import type { Db, DbOrTx } from '../../db/client';
import { outboxMessages, pushSubscriptions } from '../../db/schema/messages';
import { users } from '../../db/schema/users';
import { BadRequestError, ConflictError, NotFoundError } from '../../lib/errors';
import { pageOf, totalRows } from '../../lib/pagination';
import { toE164 } from '../../lib/phone-numbers';
import { visibleAccounts } from '../../lib/visibility';
import type { Channel } from './channel';
import { enqueueMessages, type NewMessage, pushRowSubscription, wakeOutboxWorkers } from './outbox';
import { liveDeviceIds } from './push.service';

const HOUR_MS = 3_600_000;

type Viewer = { userId: string; role: string };

/**
 * Messages to accounts the viewer may not see are not theirs to read (or resend) either; a
 * follower's (no account) and the hotline's are.
 */
const readableBy = (viewer: Viewer) =>
  visibleAccounts(viewer.role, users.role, {
    orphans: true,
    self: { id: outboxMessages.userId, viewerId: viewer.userId },
  });

/** A page of the outbox, newest first, with the push service's address for push rows. */
export async function listDeliveries(db: Db, viewer: Viewer, q: MessageListQuery) {
  const where: Array<SQL | undefined> = [
    q.status ? eq(outboxMessages.status, q.status) : undefined,
    q.channel ? eq(outboxMessages.channel, q.channel) : undefined,
    q.incidentId ? eq(outboxMessages.incidentId, q.incidentId) : undefined,
    readableBy(viewer),
  ];
  return pageOf(
    (limit, offset) =>
      deliveries(db)
        .where(and(...where))
        .orderBy(desc(outboxMessages.createdAt), desc(outboxMessages.id))
        .limit(limit)
        .offset(offset),
    q,
  );
}

/** The delivery log's select: an outbox row with its push service, joined to its account for visibility. */
function deliveries(db: DbOrTx) {
  return db
    .select({
      id: outboxMessages.id,
      channel: outboxMessages.channel,
      template: outboxMessages.template,
      address: outboxMessages.address,
      pushEndpoint: pushSubscriptions.endpoint,
      status: outboxMessages.status,
      attempts: outboxMessages.attempts,
      providerAnswer: outboxMessages.providerAnswer,
      incidentId: outboxMessages.incidentId,
      createdAt: outboxMessages.createdAt,
      sentAt: outboxMessages.sentAt,
      nextAttemptAt: outboxMessages.nextAttemptAt,
      // The list's page count; 1 for a single row.
      total: totalRows,
    })
    .from(outboxMessages)
    .leftJoin(users, eq(users.id, outboxMessages.userId))
    .leftJoin(pushSubscriptions, pushRowSubscription());
}

export type DeliveryRow = Awaited<ReturnType<typeof listDeliveries>>['rows'][number];

/**
 * Queues a failed message again, as new: its tries start over and the workers wake now. Only
 * a failed one: a queued or sent message is never sent a second time by hand. The row keeps
 * its id, so an email keeps its Message-ID and a text its gateway id (none was delivered).
 */
export async function resendMessage(db: Db, viewer: Viewer, id: string, now: Date): Promise<DeliveryRow> {
  return db.transaction(async (tx) => {
    const [found] = await deliveries(tx).where(and(eq(outboxMessages.id, id), readableBy(viewer)));
    if (!found) throw new NotFoundError('Message not found', 'MESSAGE_NOT_FOUND');
    if (found.channel === 'push' && !found.pushEndpoint && found.status === 'failed')
      throw new ConflictError(
        'That browser no longer gets push (its subscription ended): there is nothing to send it to',
        'PUSH_SUBSCRIPTION_GONE',
      );
    // The status test is in the update itself: of two staff pressing at once, one queues it.
    const [again] = await tx
      .update(outboxMessages)
      .set({ status: 'pending', attempts: 0, nextAttemptAt: now, lockedUntil: null, lockedBy: null })
      .where(and(eq(outboxMessages.id, id), eq(outboxMessages.status, 'failed')))
      .returning({
        status: outboxMessages.status,
        attempts: outboxMessages.attempts,
        nextAttemptAt: outboxMessages.nextAttemptAt,
      });
    if (!again)
      throw new ConflictError(
        found.status === 'sent'
          ? 'This message was already sent: only a failed message can be sent again'
          : 'This message is queued: it is tried again by itself',
        'MESSAGE_NOT_FAILED',
      );
    await wakeOutboxWorkers(tx);
    return { ...found, ...again };
  });
}

export interface ChannelStateRow {
  channel: MessageChannel;
  configured: boolean;
  detail: string;
  lastFailure: { answer: string; address: string } | null;
}

/**
 * Each channel, on or off, and what went wrong last within the hour (a phone that is off,
 * a refused login). A failed row was last tried at about its `next_attempt_at`; a row
 * waiting for a retry failed shortly before it: either way that time is within the hour.
 */
export async function channelStates(
  db: Db,
  channels: ReadonlyMap<MessageChannel, Channel>,
  now: Date,
): Promise<ChannelStateRow[]> {
  const since = new Date(now.getTime() - HOUR_MS);
  const failures = await db
    .selectDistinctOn([outboxMessages.channel], {
      channel: outboxMessages.channel,
      answer: outboxMessages.providerAnswer,
      address: outboxMessages.address,
    })
    .from(outboxMessages)
    .where(
      and(
        isNotNull(outboxMessages.providerAnswer),
        or(
          eq(outboxMessages.status, 'failed'),
          and(eq(outboxMessages.status, 'pending'), sql`${outboxMessages.attempts} > 0`),
        ),
        gte(outboxMessages.nextAttemptAt, since),
      ),
    )
    .orderBy(outboxMessages.channel, desc(outboxMessages.nextAttemptAt));
  const lastFailure = new Map(failures.map((f) => [f.channel, { answer: f.answer ?? '', address: f.address }]));
  return MESSAGE_CHANNELS.map((name) => {
    const channel = channels.get(name);
    return {
      channel: name,
      configured: channel?.configured ?? false,
      detail: channel?.describe() ?? 'Off',
      lastFailure: lastFailure.get(name) ?? null,
    };
  });
}

/**
 * A test message to the caller's own address on `channel`: their email, their phone, or
 * each browser they subscribed. Sent whatever their notification choices say: they asked.
 */
export async function sendTestMessage(
  db: Db,
  channels: ReadonlyMap<MessageChannel, Channel>,
  caller: { userId: string; name: string },
  channelName: MessageChannel,
): Promise<string[]> {
  const label = MESSAGE_CHANNEL_LABELS[channelName];
  const channel = channels.get(channelName);
  if (!channel?.configured)
    throw new BadRequestError(`${label} is off: ${channel?.describe() ?? 'not configured'}`, 'CHANNEL_OFF');
  const [me] = await db
    .select({ email: users.email, phoneNumber: users.phoneNumber })
    .from(users)
    .where(eq(users.id, caller.userId));
  if (!me) throw new NotFoundError('Account not found', 'USER_NOT_FOUND');
  let addresses: string[];
  if (channelName === 'email') addresses = me.email ? [me.email] : [];
  else if (channelName === 'sms') {
    const phone = toE164(me.phoneNumber);
    addresses = phone ? [phone] : [];
  } else {
    addresses = await liveDeviceIds(db, caller.userId);
  }
  if (addresses.length === 0) {
    const missing = {
      email: 'Your account has no email address.',
      sms: 'Your account has no mobile number that can get texts: add one to your account first.',
      push: 'No browser of yours gets push: switch push on in My Profile on this device first.',
    }[channelName];
    throw new BadRequestError(`No ${label} address to test: ${missing}`, 'NO_ADDRESS');
  }
  const rows: NewMessage[] = addresses.map((address) => ({
    channel: channelName,
    template: 'test_message',
    address,
    userId: caller.userId,
    data: { staffName: caller.name },
  }));
  const written = await db.transaction((tx) => enqueueMessages(tx, rows));
  return written.map((r) => r.id);
}
