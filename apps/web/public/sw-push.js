// Web Push in the app's service worker (imported by the generated sw.js: vite.config.ts
// `workbox.importScripts`). Shows what the server pushes (the payload of
// apps/server/src/modules/messages/channels/web-push.ts: { title, body, url, tag, urgent })
// and, when it is tapped, brings the app forward on the message's page. A classic script,
// not a module: importScripts runs it as the worker starts.

const PUSH_ICON = '/icons/icon-192.png';
const PUSH_FALLBACK_TITLE = 'Mindanao Warriors Rally';

/**
 * Where a tap leads: the message's link when it is on this site, else the rider pass. A
 * link elsewhere is never opened: the worker only trusts its own origin.
 * @param {unknown} url
 * @param {string} origin
 * @returns {string}
 */
function pushTarget(url, origin) {
  if (typeof url === 'string' && url !== '') {
    try {
      const parsed = new URL(url, origin);
      if (parsed.origin === origin) return parsed.href;
    } catch {
      // Not a URL: the fallback below.
    }
  }
  return new URL('/me', origin).href;
}

/**
 * What a tap does with the app's open windows: focus one already on that page, else take one
 * on the same screen there (the console with another incident), else open a new one.
 * @param {string} target
 * @param {ReadonlyArray<{ url: string }>} windows
 * @returns {{ action: 'focus' | 'navigate', index: number } | { action: 'open' }}
 */
function clickAction(target, windows) {
  const exact = windows.findIndex((w) => w.url === target);
  if (exact >= 0) return { action: 'focus', index: exact };
  const path = new URL(target).pathname;
  const samePage = windows.findIndex((w) => {
    try {
      return new URL(w.url).pathname === path;
    } catch {
      return false;
    }
  });
  if (samePage >= 0) return { action: 'navigate', index: samePage };
  return { action: 'open' };
}

/**
 * The notification the payload describes; an unreadable payload still shows something.
 * @param {{ json(): unknown, text(): string } | null} data
 * @param {string} origin
 */
function pushNotification(data, origin) {
  /** @type {Record<string, unknown>} */
  let message = {};
  try {
    const parsed = data ? data.json() : null;
    if (parsed && typeof parsed === 'object') message = /** @type {Record<string, unknown>} */ (parsed);
  } catch {
    message = { body: data ? data.text() : '' };
  }
  const urgent = message.urgent === true;
  const tag = typeof message.tag === 'string' && message.tag !== '' ? message.tag : undefined;
  return {
    title: typeof message.title === 'string' && message.title !== '' ? message.title : PUSH_FALLBACK_TITLE,
    options: {
      body: typeof message.body === 'string' ? message.body : '',
      icon: PUSH_ICON,
      badge: PUSH_ICON,
      tag,
      // A newer message of the same tag replaces the older one; an SOS alerts again.
      renotify: Boolean(tag) && urgent,
      // An SOS stays on screen until someone acts on it.
      requireInteraction: urgent,
      vibrate: urgent ? [300, 100, 300, 100, 300] : undefined,
      data: { url: pushTarget(message.url, origin) },
    },
  };
}

// Read by the unit test (sw-push.test.ts) when the file runs outside a worker.
self.rallyPush = { pushTarget, clickAction, pushNotification };

self.addEventListener('push', (event) => {
  const { title, options } = pushNotification(event.data, self.location.origin);
  event.waitUntil(self.registration.showNotification(title, options));
});

self.addEventListener('notificationclick', (event) => {
  event.notification.close();
  const target = pushTarget(event.notification.data?.url, self.location.origin);
  event.waitUntil(
    (async () => {
      const windows = await self.clients.matchAll({ type: 'window', includeUncontrolled: true });
      const choice = clickAction(target, windows);
      if (choice.action === 'open') return self.clients.openWindow(target);
      const client = windows[choice.index];
      const focused = await client.focus();
      return choice.action === 'navigate' && 'navigate' in focused ? focused.navigate(target) : focused;
    })(),
  );
});
