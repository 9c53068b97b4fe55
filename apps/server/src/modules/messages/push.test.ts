// An account's push browsers and notification choices through the API: what is stored, what
// is refused with 400 (and leaves nothing behind), and who may go on call.
import { createECDH, randomBytes } from 'node:crypto';
import { eq } from 'drizzle-orm';
import { beforeAll, describe, expect, it } from 'vitest';
import { pushSubscriptions } from '../../db/schema/messages';
import { DB_KINDS, useTestApp } from '../../test/build-app';
import { type Actor, injectAs, registerRider } from '../../test/factories';

/** A subscription as Chrome makes one: an FCM endpoint, a P-256 key and a 16-byte secret. */
function browserSubscription(endpoint = `https://fcm.googleapis.com/fcm/send/${randomBytes(12).toString('hex')}`) {
  const ecdh = createECDH('prime256v1');
  ecdh.generateKeys();
  return {
    endpoint,
    expirationTime: null,
    keys: { p256dh: ecdh.getPublicKey().toString('base64url'), auth: randomBytes(16).toString('base64url') },
  };
}

describe.each(DB_KINDS)('push subscriptions (%s)', (kind) => {
  const t = useTestApp(kind, 'marshall');
  let rider: Actor;
  let other: Actor;

  beforeAll(async () => {
    rider = await registerRider(t.app);
    other = await registerRider(t.app);
  });

  const stored = (endpoint: string) =>
    t.database.db.select().from(pushSubscriptions).where(eq(pushSubscriptions.endpoint, endpoint));
  const devices = async (actor: Actor) =>
    (await injectAs(t.app, actor, 'GET', '/api/my/notification-settings')).json().data.pushDevices;

  it('gives the public key to anyone, and keeps each browser once, with the account last signed in on it', async () => {
    const key = await t.app.inject({ method: 'GET', url: '/api/push/public-key' });
    expect(key.statusCode).toBe(200);
    expect(key.json().data.publicKey).toBe(t.app.messenger.vapid.publicKey);

    const browser = browserSubscription();
    const added = await injectAs(t.app, rider, 'POST', '/api/my/push-subscriptions', browser);
    expect(added.statusCode, added.body).toBe(201);
    expect(await stored(browser.endpoint)).toMatchObject([{ userId: rider.userId, p256dh: browser.keys.p256dh }]);
    expect(await devices(rider)).toBe(1);

    // The same browser (its keys), now signed in as another rider: one row, theirs.
    expect((await injectAs(t.app, other, 'POST', '/api/my/push-subscriptions', browser)).statusCode).toBe(201);
    expect(await stored(browser.endpoint)).toMatchObject([{ userId: other.userId, auth: browser.keys.auth }]);
    expect(await devices(rider)).toBe(0);

    // Only the owner removes it.
    const foreign = await injectAs(t.app, rider, 'DELETE', '/api/my/push-subscriptions', {
      endpoint: browser.endpoint,
    });
    expect(foreign.statusCode).toBe(200);
    expect(foreign.json().message).toBe('This browser had no push subscription');
    expect(await stored(browser.endpoint)).toHaveLength(1);
    const own = await injectAs(t.app, other, 'DELETE', '/api/my/push-subscriptions', { endpoint: browser.endpoint });
    expect(own.statusCode).toBe(200);
    expect(own.json().message).toBe('Push is off for this browser');
    expect(await stored(browser.endpoint)).toEqual([]);

    expect((await injectAs(t.app, null, 'POST', '/api/my/push-subscriptions', browserSubscription())).statusCode).toBe(
      401,
    );
  });

  it('refuses malformed subscriptions and endpoints the server must not post to, storing nothing', async () => {
    const good = browserSubscription();
    const cases: Array<[unknown, RegExp]> = [
      [{ ...good, keys: { ...good.keys, p256dh: 'A'.repeat(87) } }, /keys\.p256dh is not a P-256 public key/],
      [{ ...good, keys: { ...good.keys, p256dh: 'short' } }, /keys\.p256dh/],
      [{ ...good, keys: { ...good.keys, auth: 'A'.repeat(30) } }, /keys\.auth/],
      [{ endpoint: good.endpoint }, /keys/],
      [{ ...good, endpoint: 'not a url' }, /endpoint must be a URL/],
      [{ ...good, endpoint: `https://fcm.googleapis.com/fcm/send/${'x'.repeat(2000)}` }, /at most 1000/],
      [{ ...good, endpoint: 'http://10.0.0.5/x' }, /not at a known push service/],
      [{ ...good, endpoint: 'http://127.0.0.1:9/x' }, /not at a known push service/],
      [{ ...good, endpoint: 'https://evil.example/x' }, /not at a known push service/],
      // A known service over plain http, or with a look-alike host, is still refused.
      [{ ...good, endpoint: 'http://fcm.googleapis.com/fcm/send/x' }, /not at a known push service/],
      [{ ...good, endpoint: 'https://fcm.googleapis.com.evil.example/x' }, /not at a known push service/],
    ];
    for (const [body, message] of cases) {
      const res = await injectAs(t.app, rider, 'POST', '/api/my/push-subscriptions', body);
      expect(res.statusCode, JSON.stringify(body).slice(0, 120)).toBe(400);
      expect(res.json().message).toMatch(message);
    }
    const rows = await t.database.db.select().from(pushSubscriptions).where(eq(pushSubscriptions.userId, rider.userId));
    expect(rows).toEqual([]);
  });

  it('keeps notification choices: defaults, partial changes, and on call only for incident handlers', async () => {
    const fresh = await registerRider(t.app);
    const settings = await injectAs(t.app, fresh, 'GET', '/api/my/notification-settings');
    expect(settings.statusCode).toBe(200);
    expect(settings.json().data).toEqual({
      email: true,
      push: true,
      sms: true,
      onCall: false,
      canBeOnCall: false,
      pushDevices: 0,
    });

    const changed = await injectAs(t.app, fresh, 'PATCH', '/api/my/notification-settings', { sms: false });
    expect(changed.statusCode).toBe(200);
    expect(changed.json().data).toMatchObject({ email: true, push: true, sms: false, onCall: false });
    const second = await injectAs(t.app, fresh, 'PATCH', '/api/my/notification-settings', { email: false });
    expect(second.json().data).toMatchObject({ email: false, push: true, sms: false });

    const refused = await injectAs(t.app, fresh, 'PATCH', '/api/my/notification-settings', {
      onCall: true,
      push: false,
    });
    expect(refused.statusCode).toBe(403);
    expect(refused.json()).toMatchObject({ success: false, message: 'Only staff who handle incidents can go on call' });
    // Nothing of the refused change was kept.
    const after = await injectAs(t.app, fresh, 'GET', '/api/my/notification-settings');
    expect(after.json().data).toMatchObject({ email: false, push: true, sms: false, onCall: false });

    const empty = await injectAs(t.app, fresh, 'PATCH', '/api/my/notification-settings', {});
    expect(empty.statusCode).toBe(400);
    const wrongType = await injectAs(t.app, fresh, 'PATCH', '/api/my/notification-settings', { email: 'yes' });
    expect(wrongType.statusCode).toBe(400);

    const marshall = t.staff.marshall;
    const onCall = await injectAs(t.app, marshall, 'PATCH', '/api/my/notification-settings', { onCall: true });
    expect(onCall.statusCode, onCall.body).toBe(200);
    expect(onCall.json().data).toMatchObject({ onCall: true, canBeOnCall: true, email: true });
  });
});
