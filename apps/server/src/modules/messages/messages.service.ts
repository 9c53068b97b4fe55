// The delivery log and the channels' state for the console, and the test message a staff
// member sends themselves to see a channel work end to end.
import { MESSAGE_CHANNEL_LABELS, MESSAGE_CHANNELS, type MessageChannel } from '@rally/shared/catalog/messages';
import type { MessageListQuery } from '@rally/shared/contracts/messages';
import { and, desc, eq, gte, isNotNull, or, type SQL, sql } from 'drizzle-orm';
import type { Db } from '../../db/client';
import { outboxMessages, pushSubscriptions } from '../../db/schema/messages';
import { users } from '../../db/schema/users';
import { BadRequestError, NotFoundError } from '../../lib/errors';
import { pageOf, totalRows } from '../../lib/pagination';
import { toE164 } from '../../lib/phone-numbers';
import { visibleAccounts } from '../../lib/visibility';
import type { Channel } from './channel';
import { enqueueMessages, type NewMessage } from './outbox';

const HOUR_MS = 3_600_000;

/** A page of the outbox, newest first, with the push service's address for push rows. */
export async function listDeliveries(db: Db, viewer: { userId: string; role: string }, q: MessageListQuery) {
  const where: Array<SQL | undefined> = [
    q.status ? eq(outboxMessages.status, q.status) : undefined,
    q.channel ? eq(outboxMessages.channel, q.channel) : undefined,
    q.incidentId ? eq(outboxMessages.incidentId, q.incidentId) : undefined,
    // Messages to accounts the viewer may not see are not theirs to read either; a
    // follower's (no account) are.
    visibleAccounts(viewer.role, users.role, {
      orphans: true,
      self: { id: outboxMessages.userId, viewerId: viewer.userId },
    }),
  ];
  return pageOf(
    (limit, offset) =>
      db
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
          total: totalRows,
        })
        .from(outboxMessages)
        .leftJoin(users, eq(users.id, outboxMessages.userId))
        // A push row's address is its subscription's id.
        .leftJoin(
          pushSubscriptions,
          and(eq(outboxMessages.channel, 'push'), sql`${pushSubscriptions.id}::text = ${outboxMessages.address}`),
        )
        .where(and(...where))
        .orderBy(desc(outboxMessages.createdAt), desc(outboxMessages.id))
        .limit(limit)
        .offset(offset),
    q,
  );
}

export type DeliveryRow = Awaited<ReturnType<typeof listDeliveries>>['rows'][number];

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
    const subscriptions = await db
      .select({ id: pushSubscriptions.id })
      .from(pushSubscriptions)
      .where(eq(pushSubscriptions.userId, caller.userId));
    addresses = subscriptions.map((s) => s.id);
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
