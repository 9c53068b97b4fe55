// Web Push (RFC 8030) with VAPID (RFC 8292) and the payload encrypted to the browser's keys
// (RFC 8291), by the well-kept `web-push` library. The row's address is the subscription's
// id. Posts go only where checkPushEndpoint allows: https endpoints of the browsers' push
// services, or the operator's PUSH_ENDPOINT_HOSTS, for which plain http is allowed: web-push
// speaks https only, so for those the request it prepares is sent with fetch as it is.
import { createHash } from 'node:crypto';
import { eq } from 'drizzle-orm';
import webpush from 'web-push';
import type { MessagesConfig } from '../../../config';
import type { Db } from '../../../db/client';
import { type OutboxRow, pushSubscriptions } from '../../../db/schema/messages';
import { sessions } from '../../../db/schema/sessions';
import { readOrCreateSecretFile } from '../../../lib/secret-file';
import { type Channel, offChannel } from '../channel';
import type { SendOutcome } from '../outbox';
import { liveDeviceSession } from '../push.service';
import { checkPushEndpoint } from '../push-endpoints';
import type { RenderedMessage } from '../templates';

export interface VapidKeys {
  publicKey: string;
  privateKey: string;
}

export const VAPID_KEY_FILE = 'vapid-keys.json';

const isKeyPair = (value: unknown): value is VapidKeys =>
  typeof value === 'object' &&
  value !== null &&
  typeof (value as VapidKeys).publicKey === 'string' &&
  typeof (value as VapidKeys).privateKey === 'string';

/** The VAPID keys: VAPID_PUBLIC_KEY/VAPID_PRIVATE_KEY, else a pair generated once into DATA_DIR. */
export function loadVapidKeys(config: MessagesConfig, dataDir: string): VapidKeys {
  if (config.vapidPublicKey && config.vapidPrivateKey)
    return { publicKey: config.vapidPublicKey, privateKey: config.vapidPrivateKey };
  const text = readOrCreateSecretFile(
    dataDir,
    VAPID_KEY_FILE,
    () => JSON.stringify(webpush.generateVAPIDKeys()),
    (t) => {
      try {
        return isKeyPair(JSON.parse(t));
      } catch {
        return false;
      }
    },
  );
  return JSON.parse(text) as VapidKeys;
}

/** What the service worker reads (apps/web/public/sw-push.js): a tap opens `url`. */
export function pushPayload(message: RenderedMessage): string {
  return JSON.stringify({
    title: message.subject,
    body: message.text,
    url: message.url,
    tag: message.tag,
    urgent: message.urgent,
  });
}

/** The Topic header (≤ 32 URL-safe characters): a resend replaces the first at the push service. */
export const pushTopic = (rowId: string) => createHash('sha256').update(rowId).digest('base64url').slice(0, 32);

/** A push service's answer, however it was reached. */
interface PushAnswer {
  status: number;
  location: string | null;
  body: string;
}

type RequestDetails = ReturnType<typeof webpush.generateRequestDetails>;

const UUID = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/i;
const SEND_TIMEOUT_MS = 30_000;

const headerText = (value: string | string[] | undefined) => (Array.isArray(value) ? value[0] : value) ?? null;

/** The browsers' push services are https: web-push sends to them itself. */
async function viaWebPush(
  subscription: webpush.PushSubscription,
  payload: string,
  options: webpush.RequestOptions,
): Promise<PushAnswer> {
  try {
    const res = await webpush.sendNotification(subscription, payload, { ...options, timeout: SEND_TIMEOUT_MS });
    return { status: res.statusCode, location: headerText(res.headers.location), body: res.body };
  } catch (err) {
    if (err instanceof webpush.WebPushError)
      return { status: err.statusCode, location: null, body: String(err.body ?? '') };
    throw err;
  }
}

/**
 * An operator's PUSH_ENDPOINT_HOSTS may be plain http, which web-push cannot speak: the request
 * it prepared (the same encrypted body and VAPID headers) goes out with fetch as it is. A
 * redirect is never followed: checkPushEndpoint vetted this URL only, and an allowed host that
 * redirected would lead the server to post (or GET) wherever it says, internal addresses
 * included. web-push's own https requests follow none either.
 */
async function viaFetch(url: URL, details: RequestDetails): Promise<PushAnswer> {
  const res = await fetch(url, {
    method: details.method,
    headers: details.headers as Record<string, string>,
    body: details.body ? new Uint8Array(details.body) : undefined,
    redirect: 'manual',
    signal: AbortSignal.timeout(SEND_TIMEOUT_MS),
  });
  return { status: res.status, location: res.headers.get('location'), body: await res.text() };
}

/** What a network failure was (fetch hides it in `cause`). */
const networkReason = (err: unknown) =>
  (err as { cause?: { message?: string } }).cause?.message ?? (err as Error).message;

export function webPushChannel(config: MessagesConfig, keys: VapidKeys | null, db: Db): Channel {
  if (!keys) return offChannel('push', 'VAPID_PUBLIC_KEY and VAPID_PRIVATE_KEY');
  const vapidDetails = { subject: config.vapidSubject, publicKey: keys.publicKey, privateKey: keys.privateKey };
  return {
    name: 'push',
    configured: true,
    describe: () =>
      `On: the browsers' push services${config.pushEndpointHosts.length ? ` and ${config.pushEndpointHosts.join(', ')}` : ''}`,
    async send(message: RenderedMessage, row: OutboxRow): Promise<SendOutcome> {
      const gone: SendOutcome = { ok: false, answer: 'The push subscription was removed', permanent: true };
      if (!UUID.test(row.address)) return gone;
      const [found] = await db
        .select({ subscription: pushSubscriptions, liveSession: sessions.id })
        .from(pushSubscriptions)
        .leftJoin(sessions, liveDeviceSession())
        .where(eq(pushSubscriptions.id, row.address));
      if (!found) return gone;
      const { subscription } = found;
      // A message for an account goes to that account's browser while it is signed in there,
      // as it is at send time: the row may have waited while the browser signed out or was
      // registered again by someone else (a shared phone). A follower's message has no account.
      if (row.userId !== null) {
        if (subscription.userId !== row.userId)
          return { ok: false, answer: 'Not sent: that browser now belongs to another account', permanent: true };
        if (!found.liveSession) return { ok: false, answer: 'Not sent: that browser is signed out', permanent: true };
      }
      // Checked again at send time: PUSH_ENDPOINT_HOSTS may have shrunk since it was stored.
      let url: URL;
      try {
        url = checkPushEndpoint(subscription.endpoint, config.pushEndpointHosts);
      } catch (err) {
        return { ok: false, answer: (err as Error).message, permanent: true };
      }
      const target = {
        endpoint: subscription.endpoint,
        keys: { p256dh: subscription.p256dh, auth: subscription.auth },
      };
      const payload = pushPayload(message);
      const options: webpush.RequestOptions = {
        vapidDetails,
        // An SOS is worth nothing an hour late, and wakes the phone; the rest may wait a day.
        TTL: message.urgent ? 3600 : 24 * 3600,
        urgency: message.urgent ? 'high' : 'normal',
        topic: pushTopic(row.id),
      };
      let details: RequestDetails;
      try {
        details = webpush.generateRequestDetails(target, payload, options);
      } catch (err) {
        // Keys it cannot encrypt to never will be: no retry.
        return { ok: false, answer: `Push not sent: ${(err as Error).message}`, permanent: true };
      }
      let answer: PushAnswer;
      try {
        answer = url.protocol === 'https:' ? await viaWebPush(target, payload, options) : await viaFetch(url, details);
      } catch (err) {
        return { ok: false, answer: `Push service unreachable: ${networkReason(err)}`, permanent: false };
      }
      const { status, location } = answer;
      if (status >= 200 && status < 300) return { ok: true, answer: `${status}${location ? ` ${location}` : ''}` };
      // A push service answers a message, it does not send it elsewhere: the next try would be redirected alike.
      if (status >= 300 && status < 400)
        return { ok: false, answer: `Push service answered ${status} (a redirect, not followed)`, permanent: true };
      if (status === 404 || status === 410) {
        // The browser unsubscribed or the subscription expired: it will never work again.
        await db.delete(pushSubscriptions).where(eq(pushSubscriptions.id, subscription.id));
        return { ok: false, answer: `${status} subscription gone (removed)`, permanent: true };
      }
      const permanent = status >= 400 && status < 500 && status !== 429 && status !== 408;
      return { ok: false, answer: `Push service answered ${status} ${answer.body.slice(0, 200)}`.trim(), permanent };
    },
  };
}
