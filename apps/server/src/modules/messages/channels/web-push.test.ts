// Web Push through a real push service (test/push-service.ts), sent by the app's own outbox
// worker: the payload arrives encrypted to the browser's keys and decrypts as a browser would,
// the VAPID JWT verifies with the server's public key, and what a 410 or a 500 leaves behind.
import { randomUUID } from 'node:crypto';
import { mkdtempSync, rmSync, statSync } from 'node:fs';
import { createServer, type Server, type ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';
import os from 'node:os';
import path from 'node:path';
import { eq } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import webpush from 'web-push';
import { parseMessages } from '../../../config';
import { type OutboxRow, pushSubscriptions } from '../../../db/schema/messages';
import { buildTestApp, DB_KINDS, type TestApp } from '../../../test/build-app';
import { type Actor, injectAs, registerRider } from '../../../test/factories';
import { type PushService, startPushService, type TestSubscription } from '../../../test/push-service';
import { sendThroughOutbox } from '../../../test/send-through-outbox';
import { pushTopic, VAPID_KEY_FILE } from './web-push';

/** A plain HTTP server on 127.0.0.1 that counts its requests and answers each with `answer`. */
async function localServer(answer: (res: ServerResponse, url: string) => void) {
  const seen: string[] = [];
  const server: Server = createServer((req, res) => {
    seen.push(`${req.method} ${req.url}`);
    req.resume();
    req.on('end', () => answer(res, req.url ?? ''));
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const { port } = server.address() as AddressInfo;
  return {
    host: `127.0.0.1:${port}`,
    seen,
    close: () =>
      new Promise<void>((resolve) => {
        server.closeAllConnections();
        server.close(() => resolve());
      }),
  };
}

describe.each(DB_KINDS)('web push to a real push service (%s)', (kind) => {
  let service: PushService;
  let t: TestApp;
  let rider: Actor;
  // An internal address the server must never be led to, and an allowed host that redirects there.
  let internal: Awaited<ReturnType<typeof localServer>>;
  let redirecting: Awaited<ReturnType<typeof localServer>>;

  beforeAll(async () => {
    service = await startPushService();
    internal = await localServer((res) => res.writeHead(201, { location: '/message/1' }).end());
    // /push/307/… answers 307 (the POST again), /push/303/… 303 (a GET), both to the internal server.
    redirecting = await localServer((res, url) =>
      res.writeHead(Number(url.split('/')[2]), { location: `http://${internal.host}/admin/secret` }).end(),
    );
    t = await buildTestApp(kind, {
      messages: parseMessages({ PUSH_ENDPOINT_HOSTS: `${service.host},${redirecting.host}` }),
    });
    rider = await registerRider(t.app);
  });
  afterAll(async () => {
    await t?.close();
    await service?.close();
    await internal?.close();
    await redirecting?.close();
  });

  /** A browser subscribes through the API; answers its subscription's row id. */
  async function subscribed(): Promise<{ id: string; subscription: TestSubscription }> {
    const subscription = service.subscribe();
    const res = await injectAs(t.app, rider, 'POST', '/api/my/push-subscriptions', subscription);
    expect(res.statusCode, res.body).toBe(201);
    const [row] = await t.database.db
      .select()
      .from(pushSubscriptions)
      .where(eq(pushSubscriptions.endpoint, subscription.endpoint));
    return { id: row?.id as string, subscription };
  }

  it('delivers the message encrypted to the browser, signed with the server’s VAPID key', async () => {
    const { id } = await subscribed();
    const incidentId = '7b0f3a52-8d7e-4c1e-9a51-3f0c2d9e4b11';
    const [plain, urgent] = await sendThroughOutbox(t, [
      {
        channel: 'push',
        template: 'verified',
        address: id,
        userId: rider.userId,
        data: { firstName: 'Juan', riderNumber: 42 },
      },
      {
        channel: 'push',
        template: 'incident_opened',
        address: id,
        userId: rider.userId,
        data: { riderNumber: 42, kitName: 'ANG MANDIRIGMA', kindLabel: 'Crash', incidentId },
      },
    ]);
    expect(service.refused).toEqual([]);
    expect(plain).toMatchObject({ status: 'sent', attempts: 1 });
    expect(plain?.providerAnswer).toMatch(new RegExp(`^201 ${service.origin}/message/\\d+$`));
    expect(urgent).toMatchObject({ status: 'sent', attempts: 1 });
    expect(service.refused).toEqual([]);

    const publicKey = (await t.app.inject({ method: 'GET', url: '/api/push/public-key' })).json().data.publicKey;
    const byTopic = (row: OutboxRow | undefined) =>
      service.delivered.filter((d) => d.topic === pushTopic(row?.id as string));
    const [first] = byTopic(plain);
    expect(byTopic(plain)).toHaveLength(1);
    expect(JSON.parse(first?.text ?? '')).toEqual({
      title: 'You are verified, warrior',
      body: 'Juan, you are verified as rider #42. Your rider pass and QR code: http://rally.test/me',
      url: 'http://rally.test/me',
      tag: 'verification',
      urgent: false,
    });
    expect(first).toMatchObject({ ttl: '86400', urgency: 'normal' });
    expect(first?.topic).toMatch(/^[A-Za-z0-9_-]{1,32}$/);
    expect(first?.vapid).toMatchObject({ aud: service.origin, publicKey, sub: 'mailto:rally@localhost' });

    const [alarm] = byTopic(urgent);
    expect(JSON.parse(alarm?.text ?? '')).toMatchObject({
      title: 'SOS #42 ANG MANDIRIGMA: Crash',
      url: `http://rally.test/admin?tab=event-day&incident=${incidentId}`,
      tag: `incident-${incidentId}`,
      urgent: true,
    });
    expect(alarm).toMatchObject({ ttl: '3600', urgency: 'high' });
  });

  it('drops a subscription the push service says is gone (410), and retries a 500', async () => {
    const gone = await subscribed();
    const busy = await subscribed();
    service.answer(gone.subscription.endpoint, 410);
    service.answer(busy.subscription.endpoint, 500);
    const before = service.delivered.length;
    const started = Date.now();
    const [failed, retried] = await sendThroughOutbox(t, [
      { channel: 'push', template: 'verified', address: gone.id, data: { firstName: 'Ana' } },
      { channel: 'push', template: 'verified', address: busy.id, data: { firstName: 'Ana' } },
    ]);
    expect(failed).toMatchObject({ status: 'failed', attempts: 1, providerAnswer: '410 subscription gone (removed)' });
    const left = await t.database.db.select().from(pushSubscriptions).where(eq(pushSubscriptions.id, gone.id));
    expect(left).toEqual([]);

    expect(retried).toMatchObject({ status: 'pending', attempts: 1, lockedUntil: null });
    expect(retried?.providerAnswer).toBe('Push service answered 500 busy');
    expect(retried?.nextAttemptAt.getTime()).toBeGreaterThanOrEqual(started + 9_000);
    const kept = await t.database.db.select().from(pushSubscriptions).where(eq(pushSubscriptions.id, busy.id));
    expect(kept).toHaveLength(1);
    expect(service.delivered.length).toBe(before);
  });

  it('never follows a push service’s redirect', async () => {
    for (const status of [303, 307]) {
      // A browser's keys, at an endpoint of the allowed host that redirects to an internal one.
      const path = `/push/${status}/${randomUUID()}`;
      const subscription = { ...service.subscribe(), endpoint: `http://${redirecting.host}${path}` };
      const res = await injectAs(t.app, rider, 'POST', '/api/my/push-subscriptions', subscription);
      expect(res.statusCode, res.body).toBe(201);
      const [row] = await t.database.db
        .select()
        .from(pushSubscriptions)
        .where(eq(pushSubscriptions.endpoint, subscription.endpoint));
      const [message] = await sendThroughOutbox(t, [
        { channel: 'push', template: 'verified', address: row?.id as string, data: { firstName: 'Ana' } },
      ]);
      expect(redirecting.seen).toContain(`POST ${path}`);
      expect(internal.seen).toEqual([]);
      expect(message?.providerAnswer).toBe(`Push service answered ${status} (a redirect, not followed)`);
      expect(message).toMatchObject({ status: 'failed', attempts: 1 });
    }
  });
});

describe('the VAPID key pair', () => {
  const dataDir = mkdtempSync(path.join(os.tmpdir(), 'rally-vapid-'));
  afterAll(() => rmSync(dataDir, { recursive: true, force: true }));

  const publicKeyOf = async (overrides: Parameters<typeof buildTestApp>[1]) => {
    const t = await buildTestApp('pglite', { dataDir, ...overrides });
    try {
      const res = await t.app.inject({ method: 'GET', url: '/api/push/public-key' });
      expect(res.statusCode).toBe(200);
      return res.json().data.publicKey as string;
    } finally {
      await t.close();
    }
  };

  it('is generated once into DATA_DIR (0600) and kept across a restart; the settings win', async () => {
    const first = await publicKeyOf({});
    expect(first).toMatch(/^[A-Za-z0-9_-]{87}$/);
    expect(statSync(path.join(dataDir, VAPID_KEY_FILE)).mode & 0o777).toBe(0o600);
    expect(await publicKeyOf({})).toBe(first);

    const given = webpush.generateVAPIDKeys();
    const configured = await publicKeyOf({
      messages: parseMessages({ VAPID_PUBLIC_KEY: given.publicKey, VAPID_PRIVATE_KEY: given.privateKey }),
    });
    expect(configured).toBe(given.publicKey);
  });
});
