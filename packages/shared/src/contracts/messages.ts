// Messages (DESIGN.md §10): push subscriptions, notification choices, followers, the
// delivery log and the SMS gateway's inbound webhook.
import { z } from 'zod';
import {
  INBOUND_TEXT_OUTCOMES,
  MESSAGE_CHANNELS,
  MESSAGE_STATUSES,
  MESSAGE_TEMPLATES,
  SMS_PIN_PATTERN,
  SMS_PIN_RULE,
} from '../catalog/messages';
import { envelope, isoDateTime, pagination } from './common';

/** A browser's PushSubscription as `toJSON()` gives it (expirationTime may be null). */
export const pushSubscriptionBody = z.object({
  endpoint: z
    .string({ message: 'endpoint must be a URL' })
    .max(1000, { message: 'endpoint must be at most 1000 characters' })
    .url({ message: 'endpoint must be a URL' }),
  expirationTime: z.number().nullable().optional(),
  keys: z.object(
    {
      // A P-256 public key, uncompressed (65 bytes: 87 characters of base64url).
      p256dh: z
        .string({ message: 'keys.p256dh must be text' })
        .regex(/^[A-Za-z0-9_-]{86,88}={0,2}$/, { message: 'keys.p256dh must be a base64url P-256 public key' }),
      // 16 random bytes: 22 characters of base64url.
      auth: z
        .string({ message: 'keys.auth must be text' })
        .regex(/^[A-Za-z0-9_-]{22}={0,2}$/, { message: 'keys.auth must be 16 bytes of base64url' }),
    },
    { message: 'keys must hold p256dh and auth' },
  ),
});
export type PushSubscriptionBody = z.infer<typeof pushSubscriptionBody>;

export const pushPublicKeyResponse = envelope(z.object({ publicKey: z.string() }));

export const notificationSettings = z.object({
  email: z.boolean(),
  push: z.boolean(),
  sms: z.boolean(),
  /** Only holders of handle_incidents may switch it on. */
  onCall: z.boolean(),
});
export type NotificationSettings = z.infer<typeof notificationSettings>;
export const notificationSettingsResponse = envelope(
  notificationSettings.extend({
    /** Whether this account may go on call (holds handle_incidents). */
    canBeOnCall: z.boolean(),
    /** How many of this account's browsers get push. */
    pushDevices: z.number().int(),
  }),
);
export const updateNotificationSettingsRequest = notificationSettings
  .partial()
  .refine((v) => Object.keys(v).length > 0, { message: 'Nothing to change: send email, push, sms or onCall' });

export const followRequest = z.union(
  [
    z.object({ email: z.string().trim().max(254).email({ message: 'email must be an email address' }) }).strict(),
    z.object({ pushSubscription: pushSubscriptionBody }).strict(),
  ],
  { message: 'Send either email or pushSubscription' },
);
export type FollowRequest = z.infer<typeof followRequest>;
export const followTokenRequest = z.object({
  token: z
    .string()
    .trim()
    .regex(/^[A-Za-z0-9_-]{20,100}$/, { message: 'token is invalid' }),
});
export const followAnswer = envelope(z.object({ riderName: z.string(), confirmed: z.boolean() }));

export const follower = z.object({
  id: z.string(),
  channel: z.enum(['email', 'push']),
  /** The email masked (m***@gmail.com), or the browser's push service. */
  label: z.string(),
  confirmed: z.boolean(),
  createdAt: z.string(),
});
export type Follower = z.infer<typeof follower>;
export const followersResponse = envelope(z.array(follower));

export const messageListQuery = z.object({
  status: z.enum(MESSAGE_STATUSES, { message: `status must be one of: ${MESSAGE_STATUSES.join(', ')}` }).optional(),
  channel: z.enum(MESSAGE_CHANNELS, { message: `channel must be one of: ${MESSAGE_CHANNELS.join(', ')}` }).optional(),
  incidentId: z.string().uuid({ message: 'incidentId must be a UUID' }).optional(),
  page: z.coerce.number().int().min(1).max(10_000).default(1),
  limit: z.coerce.number().int().min(1).max(200).default(50),
});
export type MessageListQuery = z.infer<typeof messageListQuery>;

export const deliveryLogEntry = z.object({
  id: z.string(),
  channel: z.enum(MESSAGE_CHANNELS),
  template: z.enum(MESSAGE_TEMPLATES),
  /** Masked for roles without view_users. */
  recipient: z.string(),
  status: z.enum(MESSAGE_STATUSES),
  attempts: z.number().int(),
  providerAnswer: z.string().nullable(),
  incidentId: z.string().nullable(),
  createdAt: z.string(),
  sentAt: z.string().nullable(),
  nextAttemptAt: z.string().nullable(),
});
export type DeliveryLogEntry = z.infer<typeof deliveryLogEntry>;
export const deliveryLogResponse = envelope(z.object({ messages: z.array(deliveryLogEntry), pagination }));
/** A failed message queued again: its entry as the log now shows it. */
export const resendResponse = envelope(deliveryLogEntry);

export const channelState = z.object({
  channel: z.enum(MESSAGE_CHANNELS),
  configured: z.boolean(),
  /** What is missing, or where it sends. */
  detail: z.string(),
  /** The last failure of this channel in the past hour, if any (a phone that is off). */
  lastFailure: z.string().nullable(),
});
export const channelsResponse = envelope(z.object({ channels: z.array(channelState) }));
export const testMessageRequest = z.object({
  channel: z.enum(MESSAGE_CHANNELS, { message: `channel must be one of: ${MESSAGE_CHANNELS.join(', ')}` }),
});

/** SMS Gateway for Android's `sms:received` webhook. */
export const inboundSmsWebhook = z.object({
  event: z.string().max(64),
  id: z.string().min(1).max(128),
  deviceId: z.string().max(128).optional(),
  payload: z.object({
    messageId: z.string().max(128).optional(),
    message: z.string().max(5000),
    phoneNumber: z.string().max(32),
    receivedAt: isoDateTime('payload.receivedAt'),
  }),
});
export type InboundSmsWebhook = z.infer<typeof inboundSmsWebhook>;
/** The test message's outbox rows (one per address the staff member has on that channel). */
export const testMessageResponse = envelope(z.object({ ids: z.array(z.string()) }));
/** `DELETE /api/my/push-subscriptions`: the browser's endpoint to stop pushing to. */
export const pushUnsubscribeRequest = z.object({
  endpoint: z
    .string({ message: 'endpoint must be a URL' })
    .max(1000, { message: 'endpoint must be at most 1000 characters' }),
});

/** `POST /api/sms/inbound`'s answer: what the text was understood as (a repeat: what it was the first time). */
export const inboundSmsAnswer = envelope(
  z.object({ outcome: z.enum(INBOUND_TEXT_OUTCOMES), repeat: z.boolean(), replied: z.boolean() }),
);
/** Any other event of the phone's webhooks (`sms:sent`, `system:ping`): taken and left alone. */
export const otherSmsWebhook = z.object({
  event: z.string().max(64),
  id: z.string().min(1).max(128),
  deviceId: z.string().max(128).optional(),
  payload: z.record(z.string(), z.unknown()).optional(),
});
/** `POST /api/sms/inbound`'s body as documented: a received text, or another event. */
export const smsWebhookBody = z.union([inboundSmsWebhook, otherSmsWebhook]);

/** `PUT /api/my/sms-pin`: the PIN a qr_scan holder ends a text of scans with (stored hashed, shown nowhere). */
export const smsPinRequest = z.object({
  pin: z.string({ message: SMS_PIN_RULE }).regex(SMS_PIN_PATTERN, { message: SMS_PIN_RULE }),
});
export type SmsPinRequest = z.infer<typeof smsPinRequest>;

/** `POST /api/follow/{userId}`: the rider followed (an id that names no verified rider is a 404). */
export const followRiderParam = z.object({ userId: z.string().max(64, { message: 'userId is too long' }) });
/** What the follow form tells the visitor after a 202 (the same whether or not the email already follows). */
export const FOLLOW_EMAIL_SENT_MESSAGE = 'Check your inbox to confirm.';
export const FOLLOW_PUSH_MESSAGE = 'You will get notifications in this browser.';
