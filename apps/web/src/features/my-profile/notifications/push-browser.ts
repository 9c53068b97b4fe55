// This browser's side of Web Push: whether it can, the permission, and its subscription made
// with the server's VAPID key (the service worker, public/sw-push.js, shows what arrives).
import {
  fetchPushPublicKey,
  type PushSubscriptionJson,
  removePushSubscription,
  savePushSubscription,
} from './notifications-api';

/** Why push cannot be turned on, in words a rider can act on. */
export class PushUnavailable extends Error {
  override name = 'PushUnavailable';
}

export type PushSupport = 'supported' | 'unsupported' | 'ios-needs-install';

export function pushSupport(): PushSupport {
  if (typeof window === 'undefined') return 'unsupported';
  const can = 'serviceWorker' in navigator && 'PushManager' in window && 'Notification' in window;
  if (can) return 'supported';
  // Safari on iPhone offers push only to the app added to the Home Screen.
  const ios = /iPad|iPhone|iPod/.test(navigator.userAgent);
  return ios ? 'ios-needs-install' : 'unsupported';
}

export const PUSH_UNSUPPORTED_TEXT: Record<Exclude<PushSupport, 'supported'>, string> = {
  unsupported: 'This browser cannot get push notifications. Email and SMS still reach you.',
  'ios-needs-install':
    'On iPhone, push works from the Home Screen app: tap Share, then Add to Home Screen, open the app from there and turn push on.',
};

/** The application server key as pushManager.subscribe takes it (bytes of the base64url key). */
export function applicationServerKey(base64url: string): Uint8Array<ArrayBuffer> {
  const base64 = base64url
    .replace(/-/g, '+')
    .replace(/_/g, '/')
    .padEnd(Math.ceil(base64url.length / 4) * 4, '=');
  const text = atob(base64);
  const bytes = new Uint8Array(new ArrayBuffer(text.length));
  for (let i = 0; i < text.length; i++) bytes[i] = text.charCodeAt(i);
  return bytes;
}

function sameKey(a: ArrayBuffer | null, b: Uint8Array): boolean {
  if (!a || a.byteLength !== b.byteLength) return false;
  const view = new Uint8Array(a);
  return view.every((byte, i) => byte === b[i]);
}

/** The app's service worker (it is registered by the app's screens); none within 10 s is an error. */
async function serviceWorker(): Promise<ServiceWorkerRegistration> {
  const registration = await Promise.race([
    navigator.serviceWorker.ready,
    new Promise<null>((resolve) => setTimeout(() => resolve(null), 10_000)),
  ]);
  if (!registration)
    throw new PushUnavailable('The app is not installed in this browser yet: reload the page and try again.');
  return registration;
}

/** This browser's current subscription, if it has one (without asking for anything). */
export async function currentSubscription(): Promise<PushSubscription | null> {
  if (pushSupport() !== 'supported') return null;
  const registration = await navigator.serviceWorker.getRegistration('/');
  return (await registration?.pushManager.getSubscription()) ?? null;
}

/**
 * Asks for permission, subscribes with the server's key and stores the subscription on the
 * account. A subscription made with another key (the server's keys changed) is replaced.
 */
export async function turnPushOn(): Promise<PushSubscriptionJson> {
  const support = pushSupport();
  if (support !== 'supported') throw new PushUnavailable(PUSH_UNSUPPORTED_TEXT[support]);
  const permission = await Notification.requestPermission();
  if (permission !== 'granted')
    throw new PushUnavailable(
      permission === 'denied'
        ? 'Notifications are blocked for this site. Allow them in the browser’s site settings, then try again.'
        : 'Push needs your permission: press the button again and choose Allow.',
    );
  const [registration, publicKey] = await Promise.all([serviceWorker(), fetchPushPublicKey()]);
  const key = applicationServerKey(publicKey);
  let subscription = await registration.pushManager.getSubscription();
  if (subscription && !sameKey(subscription.options.applicationServerKey, key)) {
    await subscription.unsubscribe();
    subscription = null;
  }
  if (!subscription) {
    try {
      subscription = await registration.pushManager.subscribe({ userVisibleOnly: true, applicationServerKey: key });
    } catch (error) {
      const reason = (error as Error).message || 'no reason given';
      throw new PushUnavailable(
        (error as Error).name === 'NotAllowedError'
          ? `This browser does not allow push for this site (${reason}). Check its notification settings, or use another browser.`
          : `This browser could not set up push (${reason}). Try again later, or use another browser; email and SMS still reach you.`,
      );
    }
  }
  const json = subscription.toJSON() as PushSubscriptionJson;
  await savePushSubscription(json);
  return json;
}

/** Stops push to this browser: on the account first, then at the push service. */
export async function turnPushOff(): Promise<void> {
  const subscription = await currentSubscription();
  if (!subscription) return;
  await removePushSubscription(subscription.endpoint);
  await subscription.unsubscribe();
}
