// A push subscription belongs to the sign-in that registered it (issue 41): signing out
// removes it, a browser whose session ended gets nothing meant for the account, a browser
// re-registered by another account never gets what was queued for the first, and an
// endpoint keeps its owner and keys unless the same browser (its auth secret) asks. Sent by
// the app's own worker to a real push service (test/push-service.ts) that decrypts each
// message with the browser's keys.
import { randomUUID } from 'node:crypto';
import { eq, inArray, sql } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { parseMessages } from '../../config';
import { notificationSettings, type OutboxRow, outboxMessages, pushSubscriptions } from '../../db/schema/messages';
import { buildTestApp, DB_KINDS, type TestApp } from '../../test/build-app';
import { type Actor, approvedRider, injectAs, login, registerRider, staff } from '../../test/factories';
import { type PushService, startPushService, type TestSubscription } from '../../test/push-service';
import { enqueueMessages, type NewMessage } from './outbox';

describe.each(DB_KINDS)('push subscriptions and sessions (%s)', (kind) => {
  let service: PushService;
  let t: TestApp;
  let admin: Actor;

  beforeAll(async () => {
    service = await startPushService();
    t = await buildTestApp(kind, { messages: parseMessages({ PUSH_ENDPOINT_HOSTS: service.host }) });
    admin = await staff(t.app, t.database.db, 'admin');
  });
  afterAll(async () => {
    await t?.close();
    await service?.close();
  });

  const idOf = (s: TestSubscription) => s.endpoint.slice(s.endpoint.lastIndexOf('/') + 1);
  const deliveredTo = (s: TestSubscription) => service.delivered.filter((d) => d.subscriptionId === idOf(s));
  const rowOf = async (endpoint: string) =>
    (await t.database.db.select().from(pushSubscriptions).where(eq(pushSubscriptions.endpoint, endpoint)))[0];
  const devices = async (actor: Actor) =>
    (await injectAs(t.app, actor, 'GET', '/api/my/notification-settings')).json().data.pushDevices as number;

  /** Lets the app's worker send everything due, and waits until it has. */
  async function drain() {
    const worker = t.app.messenger.worker;
    if (!worker) throw new Error('the test app runs no worker');
    worker.wake();
    await worker.idle();
  }

  /** Rows queued now but held back (due in a day), as if written before what the test does next. */
  async function queueHeld(messages: NewMessage[]): Promise<string[]> {
    const later = new Date(Date.now() + 86_400_000);
    const rows = await t.database.db.transaction((tx) =>
      enqueueMessages(
        tx,
        messages.map((m) => ({ ...m, notBefore: later })),
      ),
    );
    return rows.map((r) => r.id);
  }

  /** Makes held rows due, sends them, and answers them as the worker left them. */
  async function release(ids: string[]): Promise<OutboxRow[]> {
    await t.database.db
      .update(outboxMessages)
      .set({ nextAttemptAt: sql`now() - interval '1 minute'` })
      .where(inArray(outboxMessages.id, ids));
    await drain();
    return t.database.db.select().from(outboxMessages).where(inArray(outboxMessages.id, ids));
  }

  /** A second sign-in of the same account (another browser): its own session token. */
  async function signInAgain(actor: Actor): Promise<Actor> {
    const res = await login(t.app, actor.email);
    expect(res.statusCode, res.body).toBe(200);
    return { ...actor, token: res.json().token };
  }

  async function subscribe(actor: Actor, subscription: TestSubscription) {
    const res = await injectAs(t.app, actor, 'POST', '/api/my/push-subscriptions', subscription);
    expect(res.statusCode, res.body).toBe(201);
  }

  async function sos(note: string) {
    const rider = await approvedRider(t.app, admin);
    const id = randomUUID();
    const res = await injectAs(t.app, rider, 'POST', '/api/my/sos', { id, kind: 'medical', note });
    expect(res.statusCode, res.body).toBe(201);
    await drain();
    return id;
  }

  it('signing out removes that browser’s subscription, and a refresh keeps it working', async () => {
    const marshall = await staff(t.app, t.database.db, 'marshall');
    const on = await injectAs(t.app, marshall, 'PATCH', '/api/my/notification-settings', { onCall: true });
    expect(on.statusCode, on.body).toBe(200);
    // The checkpoint's tablet: its own sign-in, and push on there.
    const tablet = await signInAgain(marshall);
    const browser = service.subscribe();
    await subscribe(tablet, browser);

    // A refresh swaps the token: the browser stays this sign-in's, and hears the next SOS.
    const refreshed = await injectAs(t.app, tablet, 'POST', '/api/auth/refresh');
    expect(refreshed.statusCode, refreshed.body).toBe(200);
    const current = { ...tablet, token: refreshed.json().token as string };
    await sos('Before sign-out');
    expect(deliveredTo(browser).map((d) => JSON.parse(d.text).body)).toEqual([
      expect.stringContaining('Before sign-out'),
    ]);

    const out = await injectAs(t.app, current, 'POST', '/api/auth/logout');
    expect(out.statusCode, out.body).toBe(200);
    expect(await rowOf(browser.endpoint)).toBeUndefined();
    expect(await devices(marshall)).toBe(0);

    // The next SOS, with its medical note, never reaches the signed-out tablet.
    const incidentId = await sos('Diabetic, insulin in the top box');
    expect(deliveredTo(browser)).toHaveLength(1);
    const queued = await t.database.db.select().from(outboxMessages).where(eq(outboxMessages.incidentId, incidentId));
    expect(queued.filter((r) => r.userId === marshall.userId)).toEqual([]);
  });

  it('a browser whose session ended without a sign-out gets nothing for the account, queued or new', async () => {
    const marshall = await staff(t.app, t.database.db, 'marshall');
    await t.database.db.insert(notificationSettings).values({ userId: marshall.userId, onCall: true });
    const tablet = await signInAgain(marshall);
    const browser = service.subscribe();
    await subscribe(tablet, browser);
    const row = await rowOf(browser.endpoint);
    const queued = await queueHeld([
      { channel: 'push', template: 'verified', address: row?.id as string, userId: marshall.userId, data: {} },
    ]);

    // Changing the password elsewhere ends every other session, the tablet's included.
    const changed = await injectAs(t.app, marshall, 'POST', '/api/auth/change-password', {
      currentPassword: 'Warrior2025!',
      newPassword: 'Bagani-Ridge-2026',
    });
    expect(changed.statusCode, changed.body).toBe(200);
    expect((await injectAs(t.app, tablet, 'GET', '/api/auth/profile')).statusCode).toBe(401);

    // Queued before the session ended: not sent at send time.
    const [held] = await release(queued);
    expect(held).toMatchObject({ status: 'failed', providerAnswer: 'Not sent: that browser is signed out' });
    // A new SOS is not even queued for it.
    const incidentId = await sos('Crash near the bridge');
    const rows = await t.database.db.select().from(outboxMessages).where(eq(outboxMessages.incidentId, incidentId));
    expect(rows.filter((r) => r.address === row?.id)).toEqual([]);
    expect(deliveredTo(browser)).toEqual([]);
    expect(await devices(marshall)).toBe(0);
  });

  it('a browser re-registered by another account never gets what was queued for the first', async () => {
    const first = await registerRider(t.app);
    const second = await registerRider(t.app);
    const browser = service.subscribe();
    await subscribe(first, browser);
    const row = await rowOf(browser.endpoint);
    const queued = await queueHeld([
      {
        channel: 'push',
        template: 'registration_received',
        address: row?.id as string,
        userId: first.userId,
        data: { firstName: 'Juan', verificationCode: first.verificationCode },
      },
    ]);

    // The same browser (same keys), now signed in as someone else.
    await subscribe(second, browser);
    expect(await rowOf(browser.endpoint)).toMatchObject({ userId: second.userId });
    const [held] = await release(queued);
    expect(held).toMatchObject({
      status: 'failed',
      providerAnswer: 'Not sent: that browser now belongs to another account',
    });
    expect(deliveredTo(browser)).toEqual([]);

    // What is queued for the new owner still arrives.
    const [mine] = await release(
      await queueHeld([
        { channel: 'push', template: 'verified', address: row?.id as string, userId: second.userId, data: {} },
      ]),
    );
    expect(mine).toMatchObject({ status: 'sent' });
    expect(deliveredTo(browser)).toHaveLength(1);
  });

  it('an endpoint keeps its owner and keys unless the same browser asks (its auth secret)', async () => {
    const owner = await registerRider(t.app);
    const thief = await registerRider(t.app);
    const followed = await approvedRider(t.app, admin);
    const browser = service.subscribe();
    await subscribe(owner, browser);
    const before = await rowOf(browser.endpoint);
    const forged = { ...service.subscribe(), endpoint: browser.endpoint };

    const taken = await injectAs(t.app, thief, 'POST', '/api/my/push-subscriptions', forged);
    expect(taken.statusCode).toBe(409);
    expect(taken.json()).toMatchObject({ success: false, code: 'PUSH_ENDPOINT_TAKEN' });
    const followedBy = await injectAs(t.app, null, 'POST', `/api/follow/${followed.userId}`, {
      pushSubscription: forged,
    });
    expect(followedBy.statusCode).toBe(409);
    expect(followedBy.json()).toMatchObject({ success: false, code: 'PUSH_ENDPOINT_TAKEN' });
    expect(await rowOf(browser.endpoint)).toEqual(before);
    expect(await devices(owner)).toBe(1);

    // The owner still reads their pushes (the service decrypts with the browser's own keys).
    const [sent] = await release(
      await queueHeld([
        { channel: 'push', template: 'verified', address: before?.id as string, userId: owner.userId, data: {} },
      ]),
    );
    expect(sent).toMatchObject({ status: 'sent' });
    expect(service.refused).toEqual([]);
    expect(deliveredTo(browser)).toHaveLength(1);

    // The browser itself following a rider keeps its owner; the same browser signed in as
    // another account moves it.
    const follows = await injectAs(t.app, null, 'POST', `/api/follow/${followed.userId}`, {
      pushSubscription: browser,
    });
    expect(follows.statusCode, follows.body).toBe(202);
    expect(await rowOf(browser.endpoint)).toMatchObject({ userId: owner.userId, auth: browser.keys.auth });
    await subscribe(thief, browser);
    expect(await rowOf(browser.endpoint)).toMatchObject({ userId: thief.userId });
  });
});
