// Telling the server about a sign-out on this device (issue 41): the session ends there, and
// with it the push subscriptions this browser registered (the server removes them in the
// logout's transaction). A sign-out offline is kept (lib/storage.ts, pending sign-outs) and
// told once the server answers again: on the next start or when the browser is back online.
// Loaded only at a sign-out or when one is pending: the landing page does not carry it.
import { readPendingSignOuts, writePendingSignOuts } from './storage';

const bearer = (token: string) => ({ Authorization: `Bearer ${token}` });

/**
 * Whether the server has ended the session: it said so, or answered 401 (it had ended
 * already). No answer, or a proxy's 502 page, is not that: the sign-out stays pending.
 */
async function tellServer(token: string): Promise<boolean> {
  try {
    const res = await fetch('/api/auth/logout', { method: 'POST', headers: bearer(token) });
    return res.ok || res.status === 401;
  } catch {
    return false;
  }
}

/**
 * This browser stops getting pushes: the account's subscription is removed (the logout removes
 * it too; this also covers a row the server kept apart), then the browser's own, so nothing
 * meant for the last person shows on a shared phone. Best effort: offline, the pending logout
 * removes it on the server once it is told.
 */
async function stopPushHere(token: string): Promise<void> {
  try {
    if (!('serviceWorker' in navigator)) return;
    const registration = await navigator.serviceWorker.getRegistration('/');
    const subscription = await registration?.pushManager?.getSubscription();
    if (!subscription) return;
    await fetch('/api/my/push-subscriptions', {
      method: 'DELETE',
      headers: { ...bearer(token), 'Content-Type': 'application/json' },
      body: JSON.stringify({ endpoint: subscription.endpoint }),
    }).catch(() => {});
    await subscription.unsubscribe();
  } catch {
    // No push here, or the browser refused: the server-side removal stands on its own.
  }
}

/** Tells the server every pending sign-out it can; those it could not stay pending. */
export async function flushPendingSignOuts(): Promise<void> {
  for (const token of readPendingSignOuts()) {
    if (await tellServer(token)) writePendingSignOuts(readPendingSignOuts().filter((t) => t !== token));
  }
}

/** The sign-out of `token` (already kept pending by the caller): push off here, then the server told. */
export async function endSignIn(token: string): Promise<void> {
  await stopPushHere(token);
  await flushPendingSignOuts();
}
