// The service worker's push code (public/sw-push.js) is a classic script the worker imports;
// its choices are pure functions, run here as the worker would load them. Showing a pushed
// message for real is the e2e spec's (e2e/push-notifications.spec.ts); a tap on a system
// notification cannot be driven there, so where it leads is proven here.
import { readFileSync } from 'node:fs';
import path from 'node:path';
import { runInNewContext } from 'node:vm';
import { describe, expect, it } from 'vitest';

type Click = { action: 'focus' | 'navigate'; index: number } | { action: 'open' };
interface RallyPush {
  pushTarget(url: unknown, origin: string): string;
  clickAction(target: string, windows: Array<{ url: string }>): Click;
  pushNotification(
    data: { json(): unknown; text(): string } | null,
    origin: string,
  ): { title: string; options: Record<string, unknown> };
}

const source = readFileSync(path.resolve(__dirname, '../../../../public/sw-push.js'), 'utf8');
const listeners: string[] = [];
const worker: { rallyPush?: RallyPush } & Record<string, unknown> = {
  addEventListener: (type: string) => listeners.push(type),
};
runInNewContext(source, { self: worker, URL });
const sw = worker.rallyPush as RallyPush;
const ORIGIN = 'https://rally.example';
const payload = (value: unknown) => ({ json: () => value, text: () => JSON.stringify(value) });

describe('the service worker’s push code', () => {
  it('listens for push and notificationclick', () => {
    expect(listeners).toEqual(['push', 'notificationclick']);
  });

  it('opens only links on its own origin, else the rider pass', () => {
    expect(sw.pushTarget(`${ORIGIN}/admin?tab=event-day&incident=1`, ORIGIN)).toBe(
      `${ORIGIN}/admin?tab=event-day&incident=1`,
    );
    expect(sw.pushTarget('/verify', ORIGIN)).toBe(`${ORIGIN}/verify`);
    for (const foreign of ['https://evil.example/me', 'javascript:alert(1)', '//evil.example/x', null, 42, ''])
      expect(sw.pushTarget(foreign, ORIGIN), String(foreign)).toBe(`${ORIGIN}/me`);
  });

  it('focuses a window on the page, reuses one on the same screen, else opens one', () => {
    const target = `${ORIGIN}/admin?tab=event-day&incident=2`;
    expect(sw.clickAction(target, [{ url: `${ORIGIN}/me` }, { url: target }])).toEqual({ action: 'focus', index: 1 });
    expect(sw.clickAction(target, [{ url: `${ORIGIN}/me` }, { url: `${ORIGIN}/admin?tab=riders` }])).toEqual({
      action: 'navigate',
      index: 1,
    });
    expect(sw.clickAction(target, [{ url: `${ORIGIN}/me` }])).toEqual({ action: 'open' });
    expect(sw.clickAction(target, [])).toEqual({ action: 'open' });
  });

  it('shows the payload: urgent ones stay until acted on; an unreadable one still shows', () => {
    const sos = sw.pushNotification(
      payload({ title: 'SOS #42', body: 'Crash', url: `${ORIGIN}/admin`, tag: 'incident-1', urgent: true }),
      ORIGIN,
    );
    expect(sos.title).toBe('SOS #42');
    expect(sos.options).toMatchObject({
      body: 'Crash',
      icon: '/icons/icon-192.png',
      tag: 'incident-1',
      requireInteraction: true,
      renotify: true,
      data: { url: `${ORIGIN}/admin` },
    });
    const plain = sw.pushNotification(
      payload({ title: 'Verified', body: 'Yes', url: null, tag: 'v', urgent: false }),
      ORIGIN,
    );
    expect(plain.options).toMatchObject({ requireInteraction: false, renotify: false, data: { url: `${ORIGIN}/me` } });
    const garbled = sw.pushNotification(
      {
        json: () => {
          throw new SyntaxError('not JSON');
        },
        text: () => 'hello',
      },
      ORIGIN,
    );
    expect(garbled).toMatchObject({ title: 'Mindanao Warriors Rally', options: { body: 'hello' } });
  });
});
