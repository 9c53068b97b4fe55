// Following a rider through the API, on an app whose email and push are on but whose outbox
// worker is off, so the rows a follow writes stay pending where the test can read them.
import { createECDH, createHash, randomBytes, randomUUID } from 'node:crypto';
import { followRequest } from '@rally/shared/contracts/messages';
import { and, eq } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { parseMessages } from '../../config';
import { followers, outboxMessages, pushSubscriptions } from '../../db/schema/messages';
import { buildTestApp, DB_KINDS, type TestApp } from '../../test/build-app';
import { type Actor, approvedRider, injectAs, registerRider, staff } from '../../test/factories';
import { CONFIRM_INVALID_MESSAGE, EMAIL_OFF_MESSAGE, RIDER_NOT_FOLLOWABLE_MESSAGE } from './followers.service';

const PUSH_HOST = 'push.test:8080';
const sha256 = (text: string) => createHash('sha256').update(text).digest('hex');
const uniqueEmail = (name: string) => `${name}.${randomBytes(5).toString('hex')}@example.com`;

function browserSubscription(endpoint: string) {
  const ecdh = createECDH('prime256v1');
  ecdh.generateKeys();
  return {
    endpoint,
    expirationTime: null,
    keys: { p256dh: ecdh.getPublicKey().toString('base64url'), auth: randomBytes(16).toString('base64url') },
  };
}

describe.each(DB_KINDS)('followers (%s)', (kind) => {
  let t: TestApp;
  let admin: Actor;

  beforeAll(async () => {
    t = await buildTestApp(kind, {
      messages: parseMessages({
        // Email is on (its settings are given) but nothing listens there, and no worker sends.
        SMTP_URL: 'smtp://127.0.0.1:9',
        MAIL_FROM: 'rally@example.test',
        MESSAGE_WORKER: 'off',
        PUSH_ENDPOINT_HOSTS: PUSH_HOST,
      }),
    });
    admin = await staff(t.app, t.database.db, 'admin');
  });
  afterAll(async () => {
    await t?.close();
  });

  const follow = (riderId: string, body: unknown) => injectAs(t.app, null, 'POST', `/api/follow/${riderId}`, body);
  const confirm = (token: string) => injectAs(t.app, null, 'POST', '/api/follow/confirm', { token });
  const followersOf = (riderId: string) => t.database.db.select().from(followers).where(eq(followers.riderId, riderId));
  const confirmations = (followerId: string) =>
    t.database.db
      .select()
      .from(outboxMessages)
      .where(and(eq(outboxMessages.followerId, followerId), eq(outboxMessages.template, 'follow_confirm')))
      .orderBy(outboxMessages.createdAt);

  it('follows by email: one pending confirmation whose token confirms, and repeats send nothing more', async () => {
    const rider = await approvedRider(t.app, admin, { kitName: 'BAGWIS' });
    const email = uniqueEmail('Nanay');

    const res = await follow(rider.userId, { email });
    expect(res.statusCode, res.body).toBe(202);
    expect(res.json()).toEqual({ success: true, message: 'Check your inbox to confirm.' });
    const [follower, ...more] = await followersOf(rider.userId);
    expect(more).toEqual([]);
    expect(follower).toMatchObject({ email, confirmedAt: null, pushSubscriptionId: null });
    const [mail, ...extra] = await confirmations(follower!.id);
    expect(extra).toEqual([]);
    expect(mail).toMatchObject({ channel: 'email', status: 'pending', address: email, userId: null });
    const token = (mail!.data as { token: string }).token;
    expect(mail!.data).toEqual({ riderName: 'BAGWIS', token });
    // Only the hash is kept.
    expect(follower!.tokenHash).toBe(sha256(token));

    // The same address again (another case) within 10 minutes: the same answer, no second email.
    const again = await follow(rider.userId, { email: email.toUpperCase() });
    expect(again.statusCode).toBe(202);
    expect(again.json().message).toBe('Check your inbox to confirm.');
    expect(await confirmations(follower!.id)).toHaveLength(1);

    const mine = await injectAs(t.app, rider, 'GET', '/api/my/followers');
    expect(mine.statusCode).toBe(200);
    expect(mine.json().data).toEqual([
      {
        id: follower!.id,
        channel: 'email',
        label: 'N***@example.com',
        confirmed: false,
        createdAt: expect.any(String),
      },
    ]);

    const confirmed = await confirm(token);
    expect(confirmed.statusCode, confirmed.body).toBe(200);
    expect(confirmed.json().data).toEqual({ riderName: 'BAGWIS', confirmed: true });
    expect((await followersOf(rider.userId))[0]?.confirmedAt).toBeInstanceOf(Date);
    // The link opened twice (a mail scanner, a second tap) is still fine.
    expect((await confirm(token)).statusCode).toBe(200);
    // A confirmed follower asking again gets the same answer and no email.
    expect((await follow(rider.userId, { email })).statusCode).toBe(202);
    expect(await confirmations(follower!.id)).toHaveLength(1);

    const unknown = await confirm(randomBytes(32).toString('base64url'));
    expect(unknown.statusCode).toBe(400);
    expect(unknown.json()).toMatchObject({ success: false, message: CONFIRM_INVALID_MESSAGE });
    expect((await confirm('short')).statusCode).toBe(400);
  });

  it('re-sends an unconfirmed confirmation after 10 minutes with a new link that replaces the old', async () => {
    const rider = await approvedRider(t.app, admin);
    const email = uniqueEmail('tatay');
    expect((await follow(rider.userId, { email })).statusCode).toBe(202);
    const [follower] = await followersOf(rider.userId);
    const [first] = await confirmations(follower!.id);

    const realClock = t.app.clock.now;
    t.app.clock.now = () => new Date(Date.now() + 11 * 60_000);
    try {
      expect((await follow(rider.userId, { email })).statusCode).toBe(202);
    } finally {
      t.app.clock.now = realClock;
    }
    const rows = await confirmations(follower!.id);
    expect(rows).toHaveLength(2);
    const oldToken = (first!.data as { token: string }).token;
    const newToken = (rows[1]!.data as { token: string }).token;
    expect(newToken).not.toBe(oldToken);
    expect((await confirm(oldToken)).statusCode).toBe(400);
    expect((await confirm(newToken)).statusCode).toBe(200);
  });

  it('refuses riders who cannot be followed, bad addresses and an email channel that is off, storing nothing', async () => {
    const unverified = await registerRider(t.app);
    const email = uniqueEmail('lola');
    for (const id of [unverified.userId, admin.userId, randomUUID(), 'not-an-id']) {
      const res = await follow(id, { email });
      expect(res.statusCode, id).toBe(404);
      expect(res.json().message).toBe(RIDER_NOT_FOLLOWABLE_MESSAGE);
    }
    expect(await followersOf(unverified.userId)).toEqual([]);

    const rider = await approvedRider(t.app, admin);
    const bad: Array<[unknown, RegExp]> = [
      [{ email: 'not-an-email' }, /email must be an email address/],
      // Header injection: a second header smuggled after CR/LF never reaches the mailer (the
      // API's control-character check answers first; the contract's email rule refuses it too, below).
      [{ email: `${email}\r\nBcc: victim@example.com` }, /control characters|email must be an email address/],
      [{ email: `${email}\nBcc: victim@example.com` }, /control characters|email must be an email address/],
      [{ email, pushSubscription: browserSubscription(`http://${PUSH_HOST}/x`) }, /either email or pushSubscription/],
      [{}, /either email or pushSubscription/],
    ];
    for (const [body, message] of bad) {
      const res = await follow(rider.userId, body);
      expect(res.statusCode, JSON.stringify(body)).toBe(400);
      expect(res.json().message).toMatch(message);
    }

    for (const injected of [`${email}\r\nBcc: victim@example.com`, `${email}\nBcc: x@example.com`, `a\r@example.com`])
      expect(followRequest.safeParse({ email: injected }).success, JSON.stringify(injected)).toBe(false);

    // The same app with email off, as a server without SMTP_URL runs.
    const on = t.app.messenger.on as Set<string>;
    on.delete('email');
    try {
      const off = await follow(rider.userId, { email });
      expect(off.statusCode).toBe(400);
      expect(off.json().message).toBe(EMAIL_OFF_MESSAGE);
    } finally {
      on.add('email');
    }
    expect(await followersOf(rider.userId)).toEqual([]);
    const mails = await t.database.db.select().from(outboxMessages).where(eq(outboxMessages.address, email));
    expect(mails).toEqual([]);
  });

  it('follows by push at once at allowed endpoints only, and riders list and remove only their own followers', async () => {
    const rider = await approvedRider(t.app, admin);
    const other = await approvedRider(t.app, admin);
    for (const endpoint of ['http://10.0.0.5/push/x', 'https://evil.example/push/x', 'http://127.0.0.1:8080/x']) {
      const res = await follow(rider.userId, { pushSubscription: browserSubscription(endpoint) });
      expect(res.statusCode, endpoint).toBe(400);
      expect(res.json().message).toMatch(/not at a known push service/);
      expect(
        await t.database.db.select().from(pushSubscriptions).where(eq(pushSubscriptions.endpoint, endpoint)),
      ).toEqual([]);
    }
    expect(await followersOf(rider.userId)).toEqual([]);

    const endpoint = `http://${PUSH_HOST}/push/${randomBytes(8).toString('hex')}`;
    const browser = browserSubscription(endpoint);
    const res = await follow(rider.userId, { pushSubscription: browser });
    expect(res.statusCode, res.body).toBe(202);
    // Twice from the same browser: still one follower.
    expect((await follow(rider.userId, { pushSubscription: browser })).statusCode).toBe(202);
    const [sub] = await t.database.db.select().from(pushSubscriptions).where(eq(pushSubscriptions.endpoint, endpoint));
    expect(sub).toMatchObject({ userId: null, p256dh: browser.keys.p256dh, auth: browser.keys.auth });
    const [pushFollower, ...more] = await followersOf(rider.userId);
    expect(more).toEqual([]);
    expect(pushFollower).toMatchObject({ pushSubscriptionId: sub!.id, email: null });
    expect(pushFollower!.confirmedAt).toBeInstanceOf(Date);
    // Nothing is sent for a push follow.
    expect(
      await t.database.db.select().from(outboxMessages).where(eq(outboxMessages.followerId, pushFollower!.id)),
    ).toEqual([]);

    expect((await follow(rider.userId, { email: uniqueEmail('kuya') })).statusCode).toBe(202);
    const listed = await injectAs(t.app, rider, 'GET', '/api/my/followers');
    expect(
      listed
        .json()
        .data.map((f: { channel: string; label: string; confirmed: boolean }) => [f.channel, f.label, f.confirmed]),
    ).toEqual(
      expect.arrayContaining([
        ['push', `Browser (${PUSH_HOST})`, true],
        ['email', 'k***@example.com', false],
      ]),
    );
    expect(listed.json().data).toHaveLength(2);
    expect((await injectAs(t.app, other, 'GET', '/api/my/followers')).json().data).toEqual([]);

    // Another rider's follower is "not found", and stays.
    const foreign = await injectAs(t.app, other, 'DELETE', `/api/my/followers/${pushFollower!.id}`);
    expect(foreign.statusCode).toBe(404);
    expect(await followersOf(rider.userId)).toHaveLength(2);
    expect((await injectAs(t.app, rider, 'DELETE', `/api/my/followers/${randomUUID()}`)).statusCode).toBe(404);

    const removed = await injectAs(t.app, rider, 'DELETE', `/api/my/followers/${pushFollower!.id}`);
    expect(removed.statusCode, removed.body).toBe(200);
    expect((await followersOf(rider.userId)).map((f) => f.id)).not.toContain(pushFollower!.id);
    // The browser followed nobody else: it is forgotten too.
    expect(await t.database.db.select().from(pushSubscriptions).where(eq(pushSubscriptions.id, sub!.id))).toEqual([]);

    expect((await injectAs(t.app, null, 'GET', '/api/my/followers')).statusCode).toBe(401);
  });
});
