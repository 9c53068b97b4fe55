// The event stream, the outbox worker and the API across a database outage, on the real
// PostgreSQL (issue 45: the board went deaf after a restart). A restart of the whole server
// would break every other test file running beside this one, so the outage is made on this
// file's own database alone, with the same effect on the server: every connection to it is
// terminated ("terminating connection due to administrator command", as a restart sends)
// and new ones are refused ("not currently accepting connections") until it is over.
import { setTimeout as sleep } from 'node:timers/promises';
import { and, eq, inArray } from 'drizzle-orm';
import { drizzle } from 'drizzle-orm/node-postgres';
import type { FastifyInstance } from 'fastify';
import pg from 'pg';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { buildApp } from '../../app';
import { loadConfig } from '../../config';
import { type Database, type Db, openDatabase } from '../../db/client';
import { entries } from '../../db/schema/entries';
import { scans } from '../../db/schema/event-day';
import { outboxMessages } from '../../db/schema/messages';
import { type OpenedTestDatabase, openTestDatabase } from '../../test/build-app';
import { type Actor, approvedRider, bearer, staff } from '../../test/factories';
import { type SmtpSink, startSmtpSink } from '../../test/smtp-sink';
import { openSse, type SseConnection, waitLive } from '../../test/sse-client';
import { enqueueMessages } from '../messages/outbox';
import { eventStreamRoutes } from './event-stream.routes';

const HEARTBEAT_MS = 1_000;

/** Cuts every connection to the database but `keep`'s and refuses new ones until `end()`. */
async function outage(url: string, keep?: number) {
  const name = new URL(url).pathname.slice(1);
  const admin = new pg.Client({ connectionString: process.env.TEST_DATABASE_URL });
  await admin.connect();
  await admin.query(`alter database ${name} allow_connections false`);
  await admin.query(
    'select pg_terminate_backend(pid) from pg_stat_activity where datname = $1 and pid <> pg_backend_pid() and pid <> $2',
    [name, keep ?? 0],
  );
  return {
    end: async () => {
      await admin.query(`alter database ${name} allow_connections true`);
      await admin.end();
    },
  };
}

/** Cuts the connections of one server instance (by its application_name) without refusing new ones. */
async function cutInstance(url: string, applicationName: string) {
  const admin = new pg.Client({ connectionString: url });
  await admin.connect();
  const { rowCount } = await admin.query(
    'select pg_terminate_backend(pid) from pg_stat_activity where datname = current_database() and application_name = $1',
    [applicationName],
  );
  await admin.end();
  return rowCount ?? 0;
}

function withApplicationName(url: string, name: string): string {
  const u = new URL(url);
  u.searchParams.set('application_name', name);
  return u.toString();
}

async function listenOn(app: FastifyInstance): Promise<string> {
  await app.listen({ port: 0, host: '127.0.0.1' });
  const address = app.server.address();
  if (!address || typeof address === 'string') throw new Error('no port');
  return `http://127.0.0.1:${address.port}`;
}

const liveAfter = (conn: SseConnection, from: number, live: boolean) =>
  conn.events.slice(from).find((e) => e.event === 'live' && JSON.parse(e.data).live === live);

describe.skipIf(!process.env.TEST_DATABASE_URL)('across a database outage (PostgreSQL)', () => {
  let opened: OpenedTestDatabase;
  let url: string;
  let sink: SmtpSink;
  const apps: FastifyInstance[] = [];
  const databases: Database[] = [];
  const streams: SseConnection[] = [];

  /** A server instance of its own on the test database, named in pg_stat_activity. */
  const instance = async (name: string) => {
    const database = await openDatabase({ databaseUrl: withApplicationName(url, name), poolSize: 20 });
    databases.push(database);
    const config = loadConfig({
      RATE_LIMITS: 'off',
      PUBLIC_URL: 'http://rally.test',
      WEB_DIST: '/nonexistent',
      SMTP_URL: sink.url,
      MAIL_FROM: 'rally@example.test',
    });
    const app = await buildApp({ config, database, logger: false });
    // The same stream with a heartbeat every second, so a silence is seen within a test.
    await app.register(eventStreamRoutes, { prefix: '/api/outage', db: database.db, heartbeatMs: HEARTBEAT_MS });
    await app.ready();
    apps.push(app);
    return { app, database, base: await listenOn(app) };
  };
  const stream = async (base: string, actor: Actor) => {
    const conn = await openSse(`${base}/api/outage/admin/event/stream`, actor.token);
    streams.push(conn);
    await waitLive(conn);
    return conn;
  };
  const station = async (app: FastifyInstance, admin: Actor, name: string) => {
    const res = await app.inject({
      method: 'POST',
      url: '/api/admin/stations',
      headers: bearer(admin.token),
      payload: { name, kind: 'checkpoint' },
    });
    expect(res.statusCode, res.body).toBe(201);
    return res.json().data.id as string;
  };
  const riderCode = async (db: Db, userId: string) =>
    (await db.select({ code: entries.riderCode }).from(entries).where(eq(entries.userId, userId)))[0]?.code as string;

  beforeAll(async () => {
    sink = await startSmtpSink();
    opened = await openTestDatabase('postgres');
    url = opened.url as string;
  });
  afterAll(async () => {
    for (const s of streams) s.close();
    // Bounded: once (Node 20, a loaded CI machine) an instance's close after the outages never
    // finished and the hook timed out after every test had passed. What is under test is the
    // behaviour above; a close that hangs is logged, and the database is dropped by force.
    const bounded = async (what: string, close: () => Promise<unknown>) => {
      let timer: NodeJS.Timeout | undefined;
      const late = new Promise<'late'>((resolve) => {
        timer = setTimeout(() => resolve('late'), 20_000);
      });
      if ((await Promise.race([close(), late])) === 'late') console.warn(`${what} did not close within 20 s`);
      clearTimeout(timer);
    };
    for (const app of apps) await bounded('a server instance', () => app.close());
    for (const d of databases) await bounded('a database pool', () => d.close());
    await opened?.drop();
    await sink?.close();
  });

  it('says live:false, keeps its heartbeat and its session, is live again within 10 s of the database, and delivers what comes after', async () => {
    const { app, base } = await instance('outage_stream');
    const admin = await staff(app, opened.database.db, 'admin');
    const stationId = await station(app, admin, 'Outage CP');
    const rider = await approvedRider(app, admin);
    const code = await riderCode(opened.database.db, rider.userId);
    const conn = await stream(base, admin);
    const from = conn.events.length;
    const heartbeatsFrom = conn.comments.length;

    const down = await outage(url);
    await conn.waitFor((e) => conn.events.indexOf(e) >= from && e.event === 'live' && !JSON.parse(e.data).live, 5_000);

    // Meanwhile an answer that cannot be had is a clear 503, not a hang or a 500.
    const unavailable = await app.inject({ method: 'GET', url: '/api/admin/stations', headers: bearer(admin.token) });
    expect(unavailable.statusCode).toBe(503);
    expect(unavailable.headers['retry-after']).toBe('5');
    expect(unavailable.json()).toMatchObject({ success: false, code: 'DATABASE_UNAVAILABLE' });

    // The database away for several heartbeats: session checks at each of them fail.
    await sleep(4 * HEARTBEAT_MS);
    await down.end();
    const back = performance.now();
    const live = await conn.waitFor(
      (e) => conn.events.indexOf(e) >= from && e.event === 'live' && JSON.parse(e.data).live === true,
      10_000,
    );
    expect(live.receivedAt - back).toBeLessThan(10_000);

    // The heartbeat never stopped: no gap near the outage's length (a second's period, with
    // room for a busy machine's timers).
    const beats = [back - 5 * HEARTBEAT_MS, ...conn.comments.slice(heartbeatsFrom), performance.now()].filter(
      (t) => t >= back - 5 * HEARTBEAT_MS,
    );
    const gaps = beats.slice(1).map((t, i) => t - (beats[i] as number));
    expect(Math.max(...gaps)).toBeLessThan(3 * HEARTBEAT_MS);

    // The stream is still open (a failed session check signed nobody out), and hears a scan.
    const scanId = crypto.randomUUID();
    const res = await app.inject({
      method: 'POST',
      url: '/api/admin/scans',
      headers: bearer(admin.token),
      payload: {
        scans: [
          {
            id: scanId,
            scannedAt: new Date().toISOString(),
            deviceId: 'cp-phone',
            source: 'camera',
            stationId,
            riderCode: code,
          },
        ],
      },
    });
    expect(res.statusCode, res.body).toBe(200);
    await conn.waitFor((e) => e.event === 'scan' && JSON.parse(e.data).scanId === scanId, 5_000);
  }, 60_000);

  it('sends a message queued while the database was away, without a server restart', async () => {
    const { database } = await instance('outage_outbox');
    // A connection that outlives the outage writes the row while the server cannot see it:
    // its notification reaches no listener.
    const writer = new pg.Client({ connectionString: url });
    await writer.connect();
    const pid = (await writer.query('select pg_backend_pid() as pid')).rows[0].pid as number;
    const down = await outage(url, pid);
    await sleep(500);
    const [row] = await enqueueMessages(drizzle(writer) as unknown as Db, [
      { channel: 'email', template: 'test_message', address: 'outage@example.test', data: { staffName: 'Outage' } },
    ]);
    await sleep(1_500);
    await down.end();
    await writer.end();
    const status = async () =>
      (
        await database.db
          .select({ status: outboxMessages.status })
          .from(outboxMessages)
          .where(eq(outboxMessages.id, row?.id as string))
      )[0]?.status;
    const deadline = Date.now() + 20_000;
    while ((await status()) !== 'sent' && Date.now() < deadline) await sleep(100);
    expect(await status()).toBe('sent');
    expect(sink.messages.some((m) => m.header('message-id')?.startsWith(`<${row?.id}@`))).toBe(true);
  }, 60_000);

  it('two instances, a scan burst, one cut off midway: every scan stored once, every board hears every scan', {
    timeout: 90_000,
  }, async () => {
    const a = await instance('outage_a');
    const b = await instance('outage_b');
    const admin = await staff(a.app, opened.database.db, 'admin');
    const stationId = await station(a.app, admin, 'Burst CP');
    const riders = await Promise.all([0, 1, 2, 3].map(() => approvedRider(a.app, admin)));
    const codes = await Promise.all(riders.map((r) => riderCode(opened.database.db, r.userId)));
    const boardA = await stream(a.base, admin);
    const boardB = await stream(b.base, admin);
    const fromA = boardA.events.length;
    // What instance A's feed said from here on (each drop and return), as its streams are told it.
    const saidA: boolean[] = [];
    a.app.eventBus.subscribe((e) => {
      if (e.type === 'live') saidA.push(e.live);
    });

    // 30 batches of 5, alternating between the instances; a batch that fails (the instance
    // lost its database) is sent again to the other one, as a scanner would retry it.
    const ids: string[] = [];
    const sentTo = new Map<string, number>();
    const sendBatch = async (batch: number) => {
      const payload = {
        scans: codes.concat(codes[0] as string).map((riderCode, i) => {
          const id = crypto.randomUUID();
          ids.push(id);
          sentTo.set(riderCode, (sentTo.get(riderCode) ?? 0) + 1);
          return {
            id,
            scannedAt: new Date(Date.now() + i).toISOString(),
            deviceId: `burst-${batch}`,
            source: 'camera',
            stationId,
            riderCode,
          };
        }),
      };
      const order = batch % 2 === 0 ? [a.app, b.app] : [b.app, a.app];
      for (let attempt = 0; attempt < 20; attempt += 1) {
        const app = order[attempt % 2] as FastifyInstance;
        const res = await app.inject({
          method: 'POST',
          url: '/api/admin/scans',
          headers: bearer(admin.token),
          payload,
        });
        if (res.statusCode === 200) return;
        expect(res.statusCode, res.body).toBe(503);
        await sleep(100);
      }
      throw new Error(`batch ${batch} never stored`);
    };
    const burst = (async () => {
      for (let batch = 0; batch < 30; batch += 1) await sendBatch(batch);
    })();
    await sleep(150);
    expect(await cutInstance(url, 'outage_a')).toBeGreaterThan(0);
    await sleep(300);
    await cutInstance(url, 'outage_a');
    await burst;

    // Stored once each: every id, and nothing more.
    const stored = await opened.database.db
      .select({ id: scans.id })
      .from(scans)
      .where(and(inArray(scans.id, ids), eq(scans.stationId, stationId)));
    expect(stored.length).toBe(ids.length);
    expect(new Set(stored.map((s) => s.id)).size).toBe(ids.length);

    // Board B never lost its feed: it heard every scan as an event. The set of what it heard is
    // built once per check: rebuilt for each id, as it once was, a check cost 150 x 160 parses and
    // the waiter's first pass over the events already received a few million, which held this
    // whole process (both instances, their LISTEN pings and every timer) for 8-20 s on a loaded
    // machine and made the live:false/true of board A below arrive out of step with this test.
    const heard = (conn: SseConnection) =>
      new Set(conn.events.filter((e) => e.event === 'scan').map((e) => JSON.parse(e.data).scanId as string));
    const missing = (conn: SseConnection) => {
      const got = heard(conn);
      return ids.filter((id) => !got.has(id));
    };
    await boardB.waitFor((e) => e.event === 'scan' && missing(boardB).length === 0, 10_000).catch(() => {});
    expect(missing(boardB)).toEqual([]);

    // Board A lost its feed: it said live:false then live:true, and the console re-reads on
    // live:true. What it did not hear as an event is in that re-read: each rider's timeline
    // holds every scan sent for them.
    // Live again after its last drop (a busy machine may take a while). "Its last drop" is the
    // feed's, not the last the board has received so far: a live:false reaches the board only
    // after the stream's session check, so a drop can be on its way while an earlier live:true is
    // the board's latest, and a test that took that one went on while instance A was still
    // re-LISTENing: the batch below then committed unheard (the board re-reads on the live:true
    // that follows, but this test waits for the event). So: instance A is LISTENing again, and
    // the board has been told every drop and return its feed made, the last a return.
    const deadline = Date.now() + 20_000;
    while (!a.app.eventBus.isLive && Date.now() < deadline) await sleep(50);
    expect(a.app.eventBus.isLive).toBe(true);
    const toldA = () => boardA.events.slice(fromA).filter((e) => e.event === 'live');
    await boardA.waitFor(() => toldA().length >= saidA.length, Math.max(1, deadline - Date.now())).catch(() => {});
    expect(toldA().map((e) => JSON.parse(e.data).live)).toEqual(saidA);
    expect(liveAfter(boardA, fromA, false)).toBeDefined();
    expect(saidA.at(-1)).toBe(true);
    for (const [i, r] of riders.entries()) {
      const res = await a.app.inject({
        method: 'GET',
        url: `/api/admin/event/riders/${r.userId}/timeline`,
        headers: bearer(admin.token),
      });
      expect(res.statusCode, res.body).toBe(200);
      const scansOfRider = (res.json().data.entries as Array<{ type: string; stationId: string | null }>).filter(
        (e) => e.type === 'scan' && e.stationId === stationId,
      );
      expect(scansOfRider.length).toBe(sentTo.get(codes[i] as string));
    }
    // And after its reconnection it hears new scans again.
    await sendBatch(99);
    const last = ids[ids.length - 1] as string;
    await boardA.waitFor((e) => e.event === 'scan' && JSON.parse(e.data).scanId === last, 10_000);
  });
});
