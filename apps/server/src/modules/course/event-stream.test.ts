import { eq } from 'drizzle-orm';
import type { FastifyInstance } from 'fastify';
import { afterAll, beforeAll, describe, expect, it, vi } from 'vitest';
import { buildApp } from '../../app';
import { openDatabase } from '../../db/client';
import { users } from '../../db/schema/users';
import { publishEvent } from '../../lib/event-bus';
import { buildTestApp, DB_KINDS, type TestApp } from '../../test/build-app';
import { type Actor, approvedRider, bearer, registerRider, staff, syncScan } from '../../test/factories';
import { openSse, type SseConnection, waitLive } from '../../test/sse-client';
import { MAX_STREAMS_PER_ACCOUNT } from './event-stream.routes';

async function listen(app: FastifyInstance): Promise<string> {
  await app.listen({ port: 0, host: '127.0.0.1' });
  const address = app.server.address();
  if (!address || typeof address === 'string') throw new Error('no port');
  return `http://127.0.0.1:${address.port}/api/admin/event/stream`;
}

describe.each(DB_KINDS)('event stream (%s)', (kind) => {
  let t: TestApp;
  let url: string;
  let admin: Actor;
  let officer: Actor;
  let stationId: string;
  const open: SseConnection[] = [];

  const connect = async (actor: Actor) => {
    const conn = await openSse(url, actor.token);
    open.push(conn);
    return conn;
  };

  beforeAll(async () => {
    t = await buildTestApp(kind);
    admin = await staff(t.app, t.database.db, 'admin');
    officer = await staff(t.app, t.database.db, 'officer');
    const res = await t.app.inject({
      method: 'POST',
      url: '/api/admin/stations',
      headers: bearer(admin.token),
      payload: { name: 'Flag-off', kind: 'start' },
    });
    stationId = res.json().data.id;
    url = await listen(t.app);
  });
  afterAll(async () => {
    for (const c of open) c.close();
    await t?.close();
  });

  it('refuses the stream without a token or without view_dashboard', async () => {
    const anonymous = await t.app.inject({ method: 'GET', url: '/api/admin/event/stream' });
    expect(anonymous.statusCode).toBe(401);
    const rider = await registerRider(t.app);
    const refused = await t.app.inject({ method: 'GET', url: '/api/admin/event/stream', headers: bearer(rider.token) });
    expect(refused.statusCode).toBe(403);
  });

  it('flushes its headers at once and delivers scan and course events naming the rider', async () => {
    const conn = await connect(officer);
    expect(conn.status).toBe(200);
    expect(conn.contentType).toMatch(/^text\/event-stream/);
    await waitLive(conn);

    const r = await approvedRider(t.app, admin);
    const [row] = await t.database.db.select({ code: users.riderCode }).from(users).where(eq(users.id, r.userId));
    const { id: scanId } = await syncScan(t.app, admin, { stationId, riderCode: row?.code });
    const scan = await conn.waitFor((e) => e.event === 'scan' && JSON.parse(e.data).scanId === scanId);
    expect(JSON.parse(scan.data)).toMatchObject({
      status: 'accepted',
      riderId: r.userId,
      riderNumber: r.riderNumber,
      kitName: 'DATU OF THE SOUTH',
      stationId,
      stationName: 'Flag-off',
    });
    // Nothing private travels on the stream.
    expect(scan.data).not.toContain('0917');

    const decision = await t.app.inject({
      method: 'POST',
      url: `/api/admin/event/riders/${r.userId}/decision`,
      headers: bearer(admin.token),
      payload: { decision: 'dnf', reason: 'withdrew', note: 'Crash, rider fine' },
    });
    expect(decision.statusCode, decision.body).toBe(200);
    const course = await conn.waitFor((e) => e.event === 'course' && JSON.parse(e.data).riderId === r.userId);
    expect(JSON.parse(course.data)).toMatchObject({ change: 'dnf', state: 'dnf', dnfReason: 'withdrew' });

    // Events publishers of other modules send (incidents) arrive by the same path.
    await t.database.db.transaction((tx) =>
      publishEvent(tx, 'incident', { incidentId: 'i-1', riderId: r.userId, riderNumber: r.riderNumber, kitName: null }),
    );
    await conn.waitFor((e) => e.event === 'incident' && JSON.parse(e.data).incidentId === 'i-1');
  });

  it('publishes only what commits', async () => {
    const conn = await connect(officer);
    await waitLive(conn);
    await t.database.db
      .transaction(async (tx) => {
        await publishEvent(tx, 'course', { change: 'rolled-back', riderId: null, riderNumber: null, kitName: null });
        throw new Error('roll back');
      })
      .catch(() => {});
    await t.database.db.transaction((tx) =>
      publishEvent(tx, 'course', { change: 'committed', riderId: null, riderNumber: null, kitName: null }),
    );
    await conn.waitFor((e) => e.event === 'course' && JSON.parse(e.data).change === 'committed');
    expect(conn.events.some((e) => e.data.includes('rolled-back'))).toBe(false);
  });

  it('sends a heartbeat comment every 20 s', async () => {
    vi.useFakeTimers({ toFake: ['setInterval', 'clearInterval'] });
    try {
      const res = await t.app.inject({
        method: 'GET',
        url: '/api/admin/event/stream',
        headers: bearer(officer.token),
        payloadAsStream: true,
      });
      expect(res.statusCode).toBe(200);
      const stream = res.stream();
      let text = '';
      stream.on('data', (chunk) => {
        text += String(chunk);
      });
      await vi.advanceTimersByTimeAsync(19_000);
      expect(text).not.toContain(': heartbeat');
      await vi.advanceTimersByTimeAsync(1_000);
      await expect.poll(() => text).toContain(': heartbeat');
      stream.destroy();
    } finally {
      vi.useRealTimers();
    }
  });

  it('drops a closed client’s subscription', async () => {
    const before = t.app.eventBus.size;
    const conn = await connect(officer);
    await waitLive(conn);
    expect(t.app.eventBus.size).toBe(before + 1);
    conn.close();
    await expect.poll(() => t.app.eventBus.size, { timeout: 5000 }).toBe(before);
  });

  const incident = (note: string) =>
    publishEvent(t.database.db, 'incident', { incidentId: note, riderId: null, riderNumber: null, kitName: null });

  it('ends a stream, without the next event, once its session ends, the account is deactivated or demoted', async () => {
    const endings: Array<[string, (who: Actor) => Promise<unknown>]> = [
      ['signed out', (who) => t.app.inject({ method: 'POST', url: '/api/auth/logout', headers: bearer(who.token) })],
      ['deactivated', (who) => t.database.db.update(users).set({ status: 'inactive' }).where(eq(users.id, who.userId))],
      ['demoted', (who) => t.database.db.update(users).set({ role: 'participant' }).where(eq(users.id, who.userId))],
    ];
    for (const [how, endIt] of endings) {
      const who = await staff(t.app, t.database.db, 'officer');
      // Accounts of their own: an account holds at most MAX_STREAMS_PER_ACCOUNT streams.
      const watching = await connect(await staff(t.app, t.database.db, 'officer'));
      const conn = await connect(who);
      await waitLive(conn);
      await waitLive(watching);
      await endIt(who);
      await incident(`after-${how}`);
      await watching.waitFor((e) => e.event === 'incident' && e.data.includes(`after-${how}`));
      await conn.ended;
      expect(
        conn.events.some((e) => e.data.includes(`after-${how}`)),
        how,
      ).toBe(false);
      watching.close();
    }
  });

  it(`holds at most ${MAX_STREAMS_PER_ACCOUNT} streams per account`, async () => {
    const who = await staff(t.app, t.database.db, 'officer');
    const conns = [];
    for (let i = 0; i < MAX_STREAMS_PER_ACCOUNT; i++) conns.push(await connect(who));
    const refused = await t.app.inject({ method: 'GET', url: '/api/admin/event/stream', headers: bearer(who.token) });
    expect(refused.statusCode).toBe(429);
    expect(refused.json()).toEqual({
      success: false,
      code: 'RATE_LIMITED',
      message: `This account already has ${MAX_STREAMS_PER_ACCOUNT} live feeds open. Close another console tab and try again.`,
    });
    // Another account is not affected; a closed stream frees its place.
    const other = await connect(admin);
    expect(other.status).toBe(200);
    conns[0]?.close();
    await expect
      .poll(
        async () => {
          const next = await openSse(url, who.token);
          open.push(next);
          return next.status;
        },
        { timeout: 5000 },
      )
      .toBe(200);
  });

  it.skipIf(kind !== 'postgres')(
    'delivers an event published by one server instance to a stream on another',
    async () => {
      const database = await openDatabase({ databaseUrl: t.databaseUrl });
      const second = await buildApp({ config: t.config, database, logger: false });
      try {
        await second.ready();
        const secondUrl = await listen(second);
        const conn = await openSse(secondUrl, officer.token);
        open.push(conn);
        await waitLive(conn);

        // A scan synced through the first instance reaches the board connected to the second.
        const r = await approvedRider(t.app, admin);
        const [row] = await t.database.db.select({ code: users.riderCode }).from(users).where(eq(users.id, r.userId));
        const { id: scanId } = await syncScan(t.app, admin, { stationId, riderCode: row?.code });
        const got = await conn.waitFor((e) => e.event === 'scan' && JSON.parse(e.data).scanId === scanId);
        expect(JSON.parse(got.data).riderId).toBe(r.userId);
        conn.close();
      } finally {
        await second.close();
        await database.close();
      }
    },
  );
});
