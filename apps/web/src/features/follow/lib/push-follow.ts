// Following by push: this browser subscribes with the server's VAPID key and the
// subscription goes to the rider's follow call, not to any account (a parent following on
// their own phone needs none). The browser's permission prompt is the confirmation.
import { applicationServerKey, PushUnavailable, pushSupport } from '../../my-profile/notifications/push-browser';
import { type FollowBody, fetchPushPublicKey } from '../api/follow-api';

export { PushUnavailable, pushSupport };

type PushSubscriptionJson = Extract<FollowBody, { pushSubscription: unknown }>['pushSubscription'];

/** The app's service worker (registered by every screen but the landing page); none within 10 s is an error. */
async function serviceWorker(): Promise<ServiceWorkerRegistration> {
  const registration = await Promise.race([
    navigator.serviceWorker.ready,
    new Promise<null>((resolve) => setTimeout(() => resolve(null), 10_000)),
  ]);
  if (!registration) throw new PushUnavailable('This page is still getting ready: reload it and try again.');
  return registration;
}

/** Asks for permission and answers this browser's subscription (an existing one with the same key is reused). */
export async function subscribeThisBrowser(): Promise<PushSubscriptionJson> {
  if (pushSupport() !== 'supported') throw new PushUnavailable('This browser cannot get push notifications.');
  const permission = await Notification.requestPermission();
  if (permission !== 'granted')
    throw new PushUnavailable(
      permission === 'denied'
        ? 'Notifications are blocked for this site. Allow them in the browser’s site settings, or follow by email.'
        : 'Notifications need your permission: press the button again and choose Allow.',
    );
  const [registration, publicKey] = await Promise.all([serviceWorker(), fetchPushPublicKey()]);
  const key = applicationServerKey(publicKey);
  const existing = await registration.pushManager.getSubscription();
  const current = existing?.options.applicationServerKey;
  const sameKey =
    current && current.byteLength === key.byteLength && new Uint8Array(current).every((b, i) => b === key[i]);
  let subscription = sameKey ? existing : null;
  if (!subscription) {
    // A subscription made with a key the server no longer has cannot be pushed to: replace it.
    await existing?.unsubscribe();
    try {
      subscription = await registration.pushManager.subscribe({ userVisibleOnly: true, applicationServerKey: key });
    } catch (error) {
      throw new PushUnavailable(
        `This browser could not set up notifications (${(error as Error).message || 'no reason given'}). Follow by email instead.`,
      );
    }
  }
  return subscription.toJSON() as PushSubscriptionJson;
}
