// The console's view of messages (the delivery log, the channels, the test message) and
// the one-click unsubscribe link, on a real app whose email goes to a real SMTP server.
import { randomBytes } from 'node:crypto';
import { eq } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { parseMessages } from '../../config';
import { followers, notificationSettings, outboxMessages, pushSubscriptions } from '../../db/schema/messages';
import { buildTestApp, DB_KINDS, type TestApp } from '../../test/build-app';
import { type Actor, injectAs, registerRider, staff } from '../../test/factories';
import { type SmtpSink, startSmtpSink } from '../../test/smtp-sink';
import { enqueueMessages } from './outbox';
import { unsubscribeToken } from './unsubscribe';

const MAIL_FROM = 'rally@example.test';

describe.each(DB_KINDS)('messages in the console (%s)', (kind) => {
  let sink: SmtpSink;
  let t: TestApp;
  let admin: Actor;
  let officer: Actor;
  let rider: Awaited<ReturnType<typeof registerRider>>;
  /** Addresses the mail server refuses for now (a full mailbox that is emptied later). */
  const refusing = new Set<string>();

  beforeAll(async () => {
    sink = await startSmtpSink({
      refuseRecipient: (address) =>
        address.startsWith('refused-') || refusing.has(address)
          ? [550, `<${address}>: Recipient address rejected`]
          : null,
    });
    t = await buildTestApp(kind, { messages: parseMessages({ SMTP_URL: sink.url, MAIL_FROM }) });
    admin = await staff(t.app, t.database.db, 'admin');
    officer = await staff(t.app, t.database.db, 'officer');
    rider = await registerRider(t.app, { phoneNumber: '09171234567' });
  });
  afterAll(async () => {
    await t?.close();
    await sink?.close();
  });

  const settle = async () => {
    const worker = t.app.messenger.worker;
    worker?.wake();
    await worker?.idle();
  };
  const log = (actor: Actor, query = '') => injectAs(t.app, actor, 'GET', `/api/admin/messages${query}`);
  type Entry = { id: string; recipient: string; channel: string; status: string; attempts: number };

  it('lists deliveries newest first, masked for officers and whole for view_users, with filters', async () => {
    const [sub] = await t.database.db
      .insert(pushSubscriptions)
      .values({
        userId: rider.userId,
        endpoint: `https://fcm.googleapis.com/fcm/send/${randomBytes(12).toString('hex')}`,
        p256dh: 'x'.repeat(87),
        auth: 'y'.repeat(22),
      })
      .returning();
    const data = { firstName: 'Juan' };
    const rows = await t.database.db.transaction((tx) =>
      enqueueMessages(tx, [
        { channel: 'email', template: 'verified', address: rider.email, userId: rider.userId, data },
        { channel: 'sms', template: 'verified', address: '+639171234567', userId: rider.userId, data },
        { channel: 'email', template: 'verified', address: 'refused-ana@example.com', data },
        // Never due here: a test must not post to a real push service.
        {
          channel: 'push',
          template: 'verified',
          address: sub?.id as string,
          userId: rider.userId,
          data,
          notBefore: new Date(Date.now() + 86_400_000),
        },
      ]),
    );
    await settle();
    const [mail, text, refused, push] = rows.map((r) => r.id);

    const riderAnswer = await injectAs(t.app, rider, 'GET', '/api/admin/messages');
    expect(riderAnswer.statusCode).toBe(403);

    const masked = await log(officer, '?limit=200');
    expect(masked.statusCode, masked.body).toBe(200);
    const seen = new Map<string, Entry>(masked.json().data.messages.map((m: Entry) => [m.id, m]));
    expect(seen.get(mail as string)).toMatchObject({
      recipient: `${rider.email[0]}***@example.com`,
      status: 'sent',
      attempts: 1,
      providerAnswer: expect.stringMatching(/^250 /),
      template: 'verified',
    });
    // SMS is off in this app: its row fails at once, and says why.
    expect(seen.get(text as string)).toMatchObject({
      recipient: '+63*****4567',
      status: 'failed',
      providerAnswer: expect.stringContaining('not configured'),
    });
    expect(seen.get(push as string)).toMatchObject({
      recipient: 'push: fcm.googleapis.com',
      status: 'pending',
      attempts: 0,
    });
    const order = masked.json().data.messages.map((m: { createdAt: string }) => m.createdAt);
    expect([...order].sort().reverse()).toEqual(order);

    const whole = new Map<string, Entry>(
      (await log(admin, '?limit=200')).json().data.messages.map((m: Entry) => [m.id, m]),
    );
    expect(whole.get(mail as string)?.recipient).toBe(rider.email);
    expect(whole.get(text as string)?.recipient).toBe('+639171234567');
    expect(whole.get(push as string)?.recipient).toBe('push: fcm.googleapis.com');
    expect(whole.get(refused as string)).toMatchObject({
      providerAnswer: expect.stringContaining('<refused-ana@example.com>'),
    });

    const failedSms = (await log(admin, '?channel=sms&status=failed&limit=200')).json().data;
    expect(failedSms.messages.every((m: Entry) => m.channel === 'sms' && m.status === 'failed')).toBe(true);
    expect(failedSms.messages.map((m: Entry) => m.id)).toContain(text);
    const paged = (await log(admin, '?limit=1&page=2')).json().data;
    expect(paged.messages).toHaveLength(1);
    expect(paged.pagination).toMatchObject({ limit: 1, page: 2 });

    for (const bad of ['?status=lost', '?channel=fax', '?incidentId=12', '?limit=0', '?page=x']) {
      const res = await log(admin, bad);
      expect(res.statusCode, bad).toBe(400);
      expect(res.json().success).toBe(false);
    }
  });

  it('resends a failed message once asked, and only a failed one', async () => {
    const address = `full-${randomBytes(6).toString('hex')}@example.com`;
    refusing.add(address);
    const [row] = await t.database.db.transaction((tx) =>
      enqueueMessages(tx, [{ channel: 'email', template: 'test_message', address, data: { staffName: 'Ops' } }]),
    );
    const id = row?.id as string;
    await settle();
    const resend = (actor: Actor, messageId = id) =>
      injectAs(t.app, actor, 'POST', `/api/admin/messages/${messageId}/resend`);
    const failed = (await log(admin, '?status=failed&channel=email&limit=200')).json().data.messages as Entry[];
    expect(failed.find((m) => m.id === id)).toMatchObject({ status: 'failed', attempts: 1 });

    // An officer reads the log but does not run the event's messages.
    expect((await resend(officer)).statusCode).toBe(403);
    const bad = await resend(admin, 'not-an-id');
    expect(bad.statusCode).toBe(400);
    expect(bad.json().message).toContain('id must be a message id');
    expect((await resend(admin, '00000000-0000-4000-8000-000000000000')).json()).toMatchObject({
      success: false,
      code: 'MESSAGE_NOT_FOUND',
    });

    // The mailbox has room again: a resend goes out at once, with the same Message-ID.
    refusing.delete(address);
    const before = sink.messages.length;
    const again = await resend(admin);
    expect(again.statusCode, again.body).toBe(200);
    expect(again.json()).toMatchObject({
      message: 'Queued again: it goes out now',
      data: { id, status: 'pending', attempts: 0, recipient: address },
    });
    await settle();
    const arrived = (await sink.waitForCount(before + 1)).filter((m) => m.envelope.to.includes(address));
    expect(arrived).toHaveLength(1);
    expect(arrived[0]?.header('message-id')).toContain(id);
    const sent = (await log(admin, '?channel=email&limit=200')).json().data.messages as Entry[];
    expect(sent.find((m) => m.id === id)).toMatchObject({ status: 'sent', attempts: 1 });

    // Sent is sent: a second resend is refused, and nothing more goes out.
    const twice = await resend(admin);
    expect(twice.statusCode).toBe(409);
    expect(twice.json()).toMatchObject({ code: 'MESSAGE_NOT_FAILED' });
    expect(twice.json().message).toContain('already sent');
    await settle();
    expect(sink.messages.filter((m) => m.envelope.to.includes(address))).toHaveLength(1);
  });

  it("tells which channels are on and each one's last failure", async () => {
    await t.database.db.transaction((tx) =>
      enqueueMessages(tx, [
        { channel: 'sms', template: 'test_message', address: '+639170000001', data: {} },
        { channel: 'email', template: 'test_message', address: 'refused-bo@example.com', data: {} },
      ]),
    );
    await settle();
    const res = await injectAs(t.app, officer, 'GET', '/api/admin/messages/channels');
    expect(res.statusCode, res.body).toBe(200);
    const channels = res.json().data.channels as Array<{ channel: string; configured: boolean; detail: string }>;
    expect(channels.map((c) => c.channel)).toEqual(['push', 'email', 'sms']);
    // The refusal, masked for an officer.
    expect(channels.find((c) => c.channel === 'email')).toEqual({
      channel: 'email',
      configured: true,
      detail: `On: smtp://127.0.0.1:${sink.port}, from ${MAIL_FROM}`,
      lastFailure: expect.stringContaining('<r***@example.com>'),
    });
    expect(channels.find((c) => c.channel === 'sms')).toEqual({
      channel: 'sms',
      configured: false,
      detail: 'Off: set SMS_GATEWAY_URL',
      lastFailure: expect.stringContaining('sms is not configured'),
    });
    expect((await injectAs(t.app, rider, 'GET', '/api/admin/messages/channels')).statusCode).toBe(403);
  });

  it('sends a test message to the staff member themselves, and refuses a channel that cannot reach them', async () => {
    const res = await injectAs(t.app, admin, 'POST', '/api/admin/messages/test', { channel: 'email' });
    expect(res.statusCode, res.body).toBe(202);
    const [id] = res.json().data.ids as string[];
    await settle();
    const mail = sink.messages.find((m) => m.header('message-id') === `<${id}@rally.test>`);
    expect(mail?.envelope.to).toEqual([admin.email]);
    expect(mail?.header('subject')).toBe('Test message from the Command Center');
    expect(mail?.text).toContain('sent by Admin Account from the Command Center');

    const off = await injectAs(t.app, admin, 'POST', '/api/admin/messages/test', { channel: 'sms' });
    expect(off.statusCode).toBe(400);
    expect(off.json().message).toBe('SMS is off: Off: set SMS_GATEWAY_URL');
    const noBrowser = await injectAs(t.app, admin, 'POST', '/api/admin/messages/test', { channel: 'push' });
    expect(noBrowser.statusCode).toBe(400);
    expect(noBrowser.json().message).toMatch(/^No Push address to test/);
    expect((await injectAs(t.app, admin, 'POST', '/api/admin/messages/test', { channel: 'fax' })).statusCode).toBe(400);
    expect((await injectAs(t.app, officer, 'POST', '/api/admin/messages/test', { channel: 'email' })).statusCode).toBe(
      403,
    );
    const written = await t.database.db.select().from(outboxMessages).where(eq(outboxMessages.userId, admin.userId));
    expect(written.map((r) => r.id)).toEqual([id]);
  });

  it('unsubscribes by the link: GET only asks, POST turns email off or removes the follower', async () => {
    const key = t.app.messenger.unsubscribeKey;
    const settingsOf = () =>
      t.database.db.select().from(notificationSettings).where(eq(notificationSettings.userId, rider.userId));
    const token = unsubscribeToken('user', rider.userId, key);

    const page = await t.app.inject({ method: 'GET', url: `/api/unsubscribe?token=${token}` });
    expect(page.statusCode).toBe(200);
    expect(page.headers['content-type']).toBe('text/html; charset=utf-8');
    expect(page.body).toContain(`action="/api/unsubscribe?token=${token}"`);
    expect(page.headers['content-security-policy']).toMatch(/style-src 'sha256-/);
    expect(await settingsOf()).toEqual([]);

    const oneClick = await t.app.inject({
      method: 'POST',
      url: `/api/unsubscribe?token=${token}`,
      headers: { 'content-type': 'application/x-www-form-urlencoded' },
      payload: 'List-Unsubscribe=One-Click',
    });
    expect(oneClick.statusCode, oneClick.body).toBe(200);
    expect(oneClick.body).toContain('You are unsubscribed');
    expect(await settingsOf()).toMatchObject([{ email: false, push: true, sms: true }]);
    // Again, without a body: still 200, still off.
    const bare = await t.app.inject({ method: 'POST', url: `/api/unsubscribe?token=${token}` });
    expect(bare.statusCode, bare.body).toBe(200);
    expect(await settingsOf()).toMatchObject([{ email: false }]);

    const [fan] = await t.database.db
      .insert(followers)
      .values({ riderId: rider.userId, email: 'fan@example.test', tokenHash: randomBytes(16).toString('hex') })
      .returning();
    const fanToken = unsubscribeToken('follower', fan?.id as string, key);
    const fanRows = () =>
      t.database.db
        .select()
        .from(followers)
        .where(eq(followers.id, fan?.id as string));

    // Forged: another key, a changed id, a cut signature, none at all. Nothing changes.
    const forged = [
      unsubscribeToken('follower', fan?.id as string, 'k'.repeat(64)),
      `${Buffer.from(`follower:${rider.userId}`).toString('base64url')}.${fanToken.split('.')[1]}`,
      fanToken.slice(0, -3),
      'nonsense',
    ];
    for (const bad of forged) {
      const res = await t.app.inject({ method: 'POST', url: `/api/unsubscribe?token=${encodeURIComponent(bad)}` });
      expect(res.statusCode, bad).toBe(400);
      expect(res.json().message).toBe(
        'This unsubscribe link is invalid. Change your email choices in My Profile instead.',
      );
    }
    expect((await t.app.inject({ method: 'GET', url: '/api/unsubscribe' })).statusCode).toBe(400);
    expect(await fanRows()).toHaveLength(1);

    const gone = await t.app.inject({
      method: 'POST',
      url: `/api/unsubscribe?token=${fanToken}`,
      headers: { 'content-type': 'application/x-www-form-urlencoded' },
      payload: 'List-Unsubscribe=One-Click',
    });
    expect(gone.statusCode).toBe(200);
    expect(await fanRows()).toEqual([]);
  });
});
