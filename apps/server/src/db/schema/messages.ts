// Messages (DESIGN.md §10): one outbox that every channel sends from, the addresses people
// gave (push subscriptions, notification choices, followers) and the inbound texts seen.
import { sql } from 'drizzle-orm';
import { boolean, index, integer, jsonb, pgTable, text, timestamp, uniqueIndex, uuid } from 'drizzle-orm/pg-core';
import { messageChannelEnum, messageStatusEnum } from './enums';
import { incidents } from './incidents';
import { sessions } from './sessions';
import { users } from './users';

/**
 * A browser's push subscription (RFC 8030): the endpoint it gave and the keys the payload
 * is encrypted to (RFC 8291). Either an account's device or a follower's.
 */
export const pushSubscriptions = pgTable(
  'push_subscriptions',
  {
    id: uuid('id').primaryKey().defaultRandom(),
    /** The account's device; null for a follower's browser. */
    userId: uuid('user_id').references(() => users.id, { onDelete: 'cascade' }),
    /**
     * The sign-in that registered an account's device (a refresh carries it to the new
     * session): signing out removes the row, and while the session is not live the device
     * gets nothing meant for the account. Null for a follower's browser.
     */
    sessionId: uuid('session_id').references(() => sessions.id, { onDelete: 'cascade' }),
    endpoint: text('endpoint').notNull(),
    p256dh: text('p256dh').notNull(),
    auth: text('auth').notNull(),
    createdAt: timestamp('created_at', { withTimezone: true }).notNull().defaultNow(),
  },
  (t) => [
    uniqueIndex('push_subscriptions_endpoint_idx').on(t.endpoint),
    index('push_subscriptions_user_idx').on(t.userId),
    index('push_subscriptions_session_idx').on(t.sessionId),
  ],
);
export type PushSubscriptionRow = typeof pushSubscriptions.$inferSelect;

/** What an account wants to hear by: absent means the defaults (email and push on, SMS on, not on call). */
export const notificationSettings = pgTable('notification_settings', {
  userId: uuid('user_id')
    .primaryKey()
    .references(() => users.id, { onDelete: 'cascade' }),
  email: boolean('email').notNull().default(true),
  push: boolean('push').notNull().default(true),
  sms: boolean('sms').notNull().default(true),
  /** Holders of handle_incidents only: hear every new incident, and its escalation by SMS. */
  onCall: boolean('on_call').notNull().default(false),
  updatedAt: timestamp('updated_at', { withTimezone: true }).notNull().defaultNow(),
});

/**
 * Someone following a rider by email (confirmed by a link first) or by a browser's push
 * subscription. They hear passages, the finish and the rider being out; nothing else.
 */
export const followers = pgTable(
  'followers',
  {
    id: uuid('id').primaryKey().defaultRandom(),
    riderId: uuid('rider_id')
      .notNull()
      .references(() => users.id, { onDelete: 'cascade' }),
    email: text('email'),
    pushSubscriptionId: uuid('push_subscription_id').references(() => pushSubscriptions.id, { onDelete: 'cascade' }),
    /** SHA-256 of the token in the confirmation link (email) or of the unsubscribe link. */
    tokenHash: text('token_hash').notNull(),
    confirmedAt: timestamp('confirmed_at', { withTimezone: true }),
    createdAt: timestamp('created_at', { withTimezone: true }).notNull().defaultNow(),
  },
  (t) => [
    index('followers_rider_idx').on(t.riderId),
    uniqueIndex('followers_token_idx').on(t.tokenHash),
    uniqueIndex('followers_rider_email_idx').on(t.riderId, sql`lower(${t.email})`).where(sql`${t.email} is not null`),
    uniqueIndex('followers_rider_push_idx')
      .on(t.riderId, t.pushSubscriptionId)
      .where(sql`${t.pushSubscriptionId} is not null`),
  ],
);
export type FollowerRow = typeof followers.$inferSelect;

/**
 * The outbox: every message is a row written in the transaction of the event that causes it.
 * A worker in each server instance claims due rows (FOR UPDATE SKIP LOCKED, then a lease in
 * `locked_until`), sends, and records the answer; a crash leaves the lease to expire and
 * another instance sends it, under the same id, which each channel passes to its provider
 * as the message's own id (Message-ID, the SMS gateway's id, the push Topic).
 */
export const outboxMessages = pgTable(
  'outbox_messages',
  {
    id: uuid('id').primaryKey().defaultRandom(),
    channel: messageChannelEnum('channel').notNull(),
    /** What is said: a key of the templates (modules/messages/templates.ts). */
    template: text('template').notNull(),
    /** The account it is for, when it is for one (a rider, a staff member). */
    userId: uuid('user_id').references(() => users.id, { onDelete: 'cascade' }),
    followerId: uuid('follower_id').references(() => followers.id, { onDelete: 'cascade' }),
    /** The email address, the E.164 phone number, or the push subscription's id. */
    address: text('address').notNull(),
    /** The template's values, fixed when the event happened. */
    data: jsonb('data').$type<Record<string, unknown>>().notNull(),
    incidentId: uuid('incident_id').references(() => incidents.id, { onDelete: 'set null' }),
    status: messageStatusEnum('status').notNull().default('pending'),
    attempts: integer('attempts').notNull().default(0),
    nextAttemptAt: timestamp('next_attempt_at', { withTimezone: true }).notNull().defaultNow(),
    lockedUntil: timestamp('locked_until', { withTimezone: true }),
    lockedBy: text('locked_by'),
    /** The provider's last answer (status line, message id, error), cut to 500 characters. */
    providerAnswer: text('provider_answer'),
    createdAt: timestamp('created_at', { withTimezone: true }).notNull().defaultNow(),
    sentAt: timestamp('sent_at', { withTimezone: true }),
  },
  (t) => [
    index('outbox_due_idx').on(t.nextAttemptAt).where(sql`${t.status} = 'pending'`),
    index('outbox_created_idx').on(t.createdAt),
    index('outbox_incident_idx').on(t.incidentId),
  ],
);
export type OutboxRow = typeof outboxMessages.$inferSelect;

/**
 * An incident nobody has acknowledged yet: due at `dueAt` to text every on-call phone and the
 * hotline, then again each period, until acknowledged (the row is deleted then).
 */
export const incidentEscalations = pgTable('incident_escalations', {
  incidentId: uuid('incident_id')
    .primaryKey()
    .references(() => incidents.id, { onDelete: 'cascade' }),
  round: integer('round').notNull().default(0),
  dueAt: timestamp('due_at', { withTimezone: true }).notNull(),
  lockedUntil: timestamp('locked_until', { withTimezone: true }),
});

/**
 * Each SMS webhook handled, by the gateway's event id: a repeat changes nothing. The message
 * is kept with any SMS PIN in it masked. A number's recent texts are read to tell a machine
 * that keeps sending the same text (no reply to it).
 */
export const inboundTexts = pgTable(
  'inbound_texts',
  {
    webhookId: text('webhook_id').primaryKey(),
    phoneNumber: text('phone_number').notNull(),
    message: text('message').notNull(),
    receivedAt: timestamp('received_at', { withTimezone: true }).notNull(),
    /** What it was understood as: sos, scans, help, ignored. */
    outcome: text('outcome').notNull(),
    createdAt: timestamp('created_at', { withTimezone: true }).notNull().defaultNow(),
  },
  (t) => [index('inbound_texts_phone_idx').on(t.phoneNumber, t.receivedAt)],
);

/**
 * A staff member's SMS PIN (qr_scan holders; PUT /api/my/sms-pin), hashed as passwords are:
 * a text of scans counts only when it ends with it, for a sender's number proves nothing.
 */
export const smsPins = pgTable('sms_pins', {
  userId: uuid('user_id')
    .primaryKey()
    .references(() => users.id, { onDelete: 'cascade' }),
  pinHash: text('pin_hash').notNull(),
  updatedAt: timestamp('updated_at', { withTimezone: true }).notNull().defaultNow(),
});
