// Benchmark: positions in (issue 42: ≥ 2,000 positions/s on both databases, the board's
// last positions within 2 s of the request). The real server on a fresh database holds
// 1,000 verified riders, each with tracking on; a marshal's console holds the event stream
// open. Two loads, over HTTP as Traccar Client sends them (apps/server/src/test/traccar-client.ts):
// - singles: each phone's position one request at a time, the Android app's POST with the
//   parameters in the query string, from many phones at once;
// - flushes: a valley full of riders back in coverage, each sending its buffer as one JSON
//   array (app 10.x) of BENCH_TRACKING_FLUSH positions (default 120: two hours at one a minute).
// - steady: the event day's own pace, every rider once a minute (BENCH_TRACKING_RATE, default
//   17 requests/s), each request's `position` event timed from the request leaving to its
//   arrival on the board (goal: within 2 s), and the request itself.
// - stop alerts: BENCH_TRACKING_PROBES riders on course (a start scan) stop 5 km from any
//   station and send a position a minute, one at a time as the app does; the position that
//   reaches TRACKING_STOPPED_MIN is timed from its request to the `incident` event on the
//   board. The alert comes with the first position past the threshold: at the app's 60 s
//   interval at most a minute after it, plus this time.
// Afterwards the database is counted: every position stored exactly once.
//
//   npx tsx apps/server/bench/tracking-ingest.ts      (PGlite, and PostgreSQL when reachable)
//   BENCH_TRACKING_RIDERS (1000), BENCH_TRACKING_SINGLES (5 per rider), BENCH_TRACKING_FLUSH (120),
//   BENCH_TRACKING_CONCURRENCY (64 singles in flight), BENCH_TRACKING_FLUSH_CONCURRENCY (16)
import { randomBytes } from 'node:crypto';
import { sql } from 'drizzle-orm';
import type { Database } from '../src/db/client';
import { scans, stations } from '../src/db/schema/event-day';
import { trackers } from '../src/db/schema/tracking';
import { users } from '../src/db/schema/users';
import { hashPassword } from '../src/lib/passwords';
import { rowsOf } from '../src/lib/sql-text';
import { currentEdition } from '../src/modules/editions/editions.service';
import { openSse } from '../src/test/sse-client';
import { androidQuery, type Fix, formObject, OSMAND_PATH } from '../src/test/traccar-client';
import {
  BENCH_PASSWORD,
  benchLogin,
  benchRiderRows,
  DB_LABEL,
  type DbKind,
  insertVerifiedRiders,
  type PgliteTemplate,
  percentile,
  pgReachable,
  runAsScript,
  seededServer,
} from './common';

const RIDERS = Number(process.env.BENCH_TRACKING_RIDERS ?? 1000);
const SINGLES_PER_RIDER = Number(process.env.BENCH_TRACKING_SINGLES ?? 5);
const FLUSH = Number(process.env.BENCH_TRACKING_FLUSH ?? 120);
const CONCURRENCY = Number(process.env.BENCH_TRACKING_CONCURRENCY ?? 64);
const FLUSH_CONCURRENCY = Number(process.env.BENCH_TRACKING_FLUSH_CONCURRENCY ?? 16);
const RATE = Number(process.env.BENCH_TRACKING_RATE ?? 17);
const STEADY_SECONDS = Number(process.env.BENCH_TRACKING_STEADY_SECONDS ?? 20);
const PROBES = Number(process.env.BENCH_TRACKING_PROBES ?? 5);
/** The server's default TRACKING_STOPPED_MIN. */
const STOPPED_MIN = 15;
export const TRACKING_GOAL_PER_S = 2_000;
export const BOARD_GOAL_MS = 2_000;

export interface TrackingIngestResult {
  database: DbKind;
  riders: number;
  singles: { positions: number; seconds: number; perSecond: number; p50Ms: number; p95Ms: number };
  flushes: { requests: number; positions: number; seconds: number; perSecond: number; p50Ms: number; p95Ms: number };
  /** At the event day's pace: each request, and its event on the board. */
  steady: { rate: number; requests: number; p50Ms: number; p95Ms: number };
  board: { events: number; missing: number; p50Ms: number; p95Ms: number };
  /** From the request of the position that reached the threshold to the alert on the board. */
  alerts: { probes: number; raised: number; p50Ms: number; maxMs: number };
  sent: number;
  stored: number;
  failures: number;
}

const log = (line: string) => console.error(`  tracking | ${line}`);

async function seed(database: Database) {
  const db = database.db;
  const hash = await hashPassword(BENCH_PASSWORD);
  const ids = await insertVerifiedRiders(db, benchRiderRows(RIDERS, 'tracked', hash));
  await db.insert(users).values({
    email: 'board@bench.test',
    passwordHash: hash,
    firstName: 'Marshal',
    lastName: 'Board',
    role: 'marshall',
  });
  const edition = await currentEdition(db);
  const riders = ids.map((userId) => ({ userId, trackingId: randomBytes(18).toString('base64url') }));
  for (let i = 0; i < riders.length; i += 250) {
    await db.insert(trackers).values(
      riders.slice(i, i + 250).map((r) => ({
        editionId: edition.id,
        userId: r.userId,
        trackingId: r.trackingId,
        enabled: true,
        consentVersion: 'bench',
        consentedAt: new Date(),
      })),
    );
  }
  // The probes are out on the course: a start scan half an hour ago.
  const [start] = await db
    .insert(stations)
    .values({ name: 'Flag-off', code: 'START', kind: 'start', day: 1, order: 0, lat: 8.4984, lng: 124.752 })
    .returning({ id: stations.id });
  const startedAt = new Date(Date.now() - 30 * 60_000);
  await db.insert(scans).values(
    riders.slice(0, PROBES).map((r) => ({
      id: crypto.randomUUID(),
      stationId: (start as { id: string }).id,
      riderId: r.userId,
      scannedAt: startedAt,
      deviceId: 'bench',
      source: 'manual' as const,
      status: 'accepted' as const,
    })),
  );
  return riders;
}

/** A rider's k-th fix, a minute apart from `base`, along a line south of Cagayan de Oro. */
function fixOf(rider: number, k: number, base: number): Fix {
  return {
    at: new Date(base + k * 60_000),
    lat: 8.4984 - k * 0.004 - rider * 1e-5,
    lon: 124.752 + k * 0.003,
    speed: 11 + (k % 7),
    bearing: 150,
    altitude: 300 + k,
    accuracy: 5,
    battery: Math.max(5, 95 - k * 0.1),
    charging: false,
  };
}

/** Runs `jobs` with `concurrency` in flight; answers each job's milliseconds. */
async function pool(jobs: Array<() => Promise<void>>, concurrency: number): Promise<number[]> {
  const times: number[] = [];
  let next = 0;
  await Promise.all(
    Array.from({ length: concurrency }, async () => {
      while (next < jobs.length) {
        const job = jobs[next++] as () => Promise<void>;
        const t0 = performance.now();
        await job();
        times.push(performance.now() - t0);
      }
    }),
  );
  return times.sort((a, b) => a - b);
}

export async function runTrackingIngest(kind: DbKind, template: PgliteTemplate | null): Promise<TrackingIngestResult> {
  const { server, seeded, env, seedSeconds, close } = await seededServer(kind, template, {
    dirPrefix: 'rally-bench-tracking-',
    port: 3331,
    seed,
  });
  log(`${DB_LABEL[kind]}: seeded ${RIDERS} riders with tracking on in ${seedSeconds.toFixed(1)} s`);
  let failures = 0;
  const fail = (what: string) => {
    failures++;
    if (failures <= 5) log(`refused: ${what}`);
  };
  try {
    const token = await benchLogin(server.url, 'board@bench.test');
    const board = await openSse(`${server.url}/api/admin/event/stream`, token);
    const sentAt = new Map<string, number>();
    const boardMs: number[] = [];
    board.onEvent((e) => {
      if (e.event !== 'position') return;
      const data = JSON.parse(e.data) as { userId: string; last: { at: string } };
      const t0 = sentAt.get(`${data.userId}|${data.last.at}`);
      if (t0 !== undefined) boardMs.push(e.receivedAt - t0);
    });

    // Singles: every rider's positions one request at a time, riders interleaved.
    // Whole seconds: the Android app sends Unix seconds.
    const base = Math.floor(Date.now() / 1000) * 1000 - 6 * 3_600_000;
    const singles: Array<() => Promise<void>> = [];
    for (let k = 0; k < SINGLES_PER_RIDER; k++) {
      seeded.forEach((r, i) => {
        singles.push(async () => {
          const f = fixOf(i, k, base);
          sentAt.set(`${r.userId}|${f.at.toISOString()}`, performance.now());
          const res = await fetch(`${server.url}${OSMAND_PATH}?${androidQuery(r.trackingId, f)}`, { method: 'POST' });
          await res.arrayBuffer();
          if (res.status !== 200) fail(`single ${res.status}`);
        });
      });
    }
    const s0 = performance.now();
    const singleMs = await pool(singles, CONCURRENCY);
    const singleSeconds = (performance.now() - s0) / 1000;
    log(`${DB_LABEL[kind]}: ${singles.length} singles in ${singleSeconds.toFixed(1)} s`);
    await new Promise((r) => setTimeout(r, 1500));

    // Flushes: each rider's buffer, newer than its singles, as one JSON array.
    const flushBase = base + SINGLES_PER_RIDER * 60_000;
    const flushes = seeded.map((r, i) => async () => {
      const body = JSON.stringify(
        Array.from({ length: FLUSH }, (_, k) => formObject(r.trackingId, fixOf(i, SINGLES_PER_RIDER + k, flushBase))),
      );
      const res = await fetch(`${server.url}${OSMAND_PATH}`, {
        method: 'POST',
        headers: { 'content-type': 'application/json' },
        body,
      });
      await res.arrayBuffer();
      if (res.status !== 200) fail(`flush ${res.status}`);
    });
    const f0 = performance.now();
    const flushMs = await pool(flushes, FLUSH_CONCURRENCY);
    const flushSeconds = (performance.now() - f0) / 1000;
    log(`${DB_LABEL[kind]}: ${flushes.length} flushes of ${FLUSH} in ${flushSeconds.toFixed(1)} s`);

    // Steady: the event day's pace, each rider in turn, newer than its flush.
    await new Promise((r) => setTimeout(r, 2000));
    boardMs.length = 0;
    sentAt.clear();
    const steadyBase = flushBase + FLUSH * 60_000;
    const steadyCount = Math.round(RATE * STEADY_SECONDS);
    const steadyMs: number[] = [];
    const inFlight: Promise<void>[] = [];
    const s1 = performance.now();
    for (let n = 0; n < steadyCount; n++) {
      const wait = s1 + (n * 1000) / RATE - performance.now();
      if (wait > 0) await new Promise((r) => setTimeout(r, wait));
      const i = n % seeded.length;
      const r = seeded[i] as (typeof seeded)[number];
      const f = fixOf(i, SINGLES_PER_RIDER + FLUSH + Math.floor(n / seeded.length), steadyBase);
      const t0 = performance.now();
      sentAt.set(`${r.userId}|${f.at.toISOString()}`, t0);
      inFlight.push(
        fetch(`${server.url}${OSMAND_PATH}?${androidQuery(r.trackingId, f)}`, { method: 'POST' }).then(async (res) => {
          await res.arrayBuffer();
          steadyMs.push(performance.now() - t0);
          if (res.status !== 200) fail(`steady ${res.status}`);
        }),
      );
    }
    await Promise.all(inFlight);
    await new Promise((r) => setTimeout(r, 2500));
    log(`${DB_LABEL[kind]}: ${steadyCount} requests at ${RATE}/s`);

    // Stop alerts: each probe stops 5 km from the station and sends a position a minute (the
    // last reaching the threshold now), one at a time; the probes one after another.
    const alertMs: number[] = [];
    const raised = new Map<string, number>();
    board.onEvent((e) => {
      if (e.event !== 'incident') return;
      const data = JSON.parse(e.data) as { riderId?: string };
      if (data.riderId && !raised.has(data.riderId)) raised.set(data.riderId, e.receivedAt);
    });
    for (const r of seeded.slice(0, PROBES)) {
      const stopStart = Math.floor(Date.now() / 1000) * 1000 - STOPPED_MIN * 60_000;
      let crossedAt = 0;
      for (let m = 0; m <= STOPPED_MIN; m++) {
        const f: Fix = {
          at: new Date(stopStart + m * 60_000),
          lat: 8.3 + (m % 2) * 0.0001,
          lon: 124.9,
          speed: 0,
          bearing: 0,
          altitude: 420,
          accuracy: 8,
          battery: 60,
          charging: false,
        };
        if (m === STOPPED_MIN) crossedAt = performance.now();
        const res = await fetch(`${server.url}${OSMAND_PATH}?${androidQuery(r.trackingId, f)}`, { method: 'POST' });
        await res.arrayBuffer();
        if (res.status !== 200) fail(`probe ${res.status}`);
      }
      const deadline = performance.now() + 5_000;
      while (!raised.has(r.userId) && performance.now() < deadline) await new Promise((w) => setTimeout(w, 20));
      const raisedAt = raised.get(r.userId);
      if (raisedAt !== undefined) alertMs.push(raisedAt - crossedAt);
    }
    alertMs.sort((a, b) => a - b);
    log(`${DB_LABEL[kind]}: ${alertMs.length} of ${PROBES} stop alerts raised`);
    board.close();

    const sent = singles.length + flushes.length * FLUSH + steadyCount + PROBES * (STOPPED_MIN + 1);
    steadyMs.sort((a, b) => a - b);
    const stored = await countStored(kind, env, server);
    const boardSorted = boardMs.sort((a, b) => a - b);
    return {
      database: kind,
      riders: RIDERS,
      singles: {
        positions: singles.length,
        seconds: singleSeconds,
        perSecond: singles.length / singleSeconds,
        p50Ms: percentile(singleMs, 0.5),
        p95Ms: percentile(singleMs, 0.95),
      },
      flushes: {
        requests: flushes.length,
        positions: flushes.length * FLUSH,
        seconds: flushSeconds,
        perSecond: (flushes.length * FLUSH) / flushSeconds,
        p50Ms: percentile(flushMs, 0.5),
        p95Ms: percentile(flushMs, 0.95),
      },
      steady: {
        rate: RATE,
        requests: steadyCount,
        p50Ms: percentile(steadyMs, 0.5),
        p95Ms: percentile(steadyMs, 0.95),
      },
      board: {
        events: boardSorted.length,
        missing: steadyCount - boardSorted.length,
        p50Ms: percentile(boardSorted, 0.5),
        p95Ms: percentile(boardSorted, 0.95),
      },
      alerts: {
        probes: PROBES,
        raised: alertMs.length,
        p50Ms: percentile(alertMs, 0.5),
        maxMs: alertMs.at(-1) ?? Number.NaN,
      },
      sent,
      stored,
      failures,
    };
  } finally {
    await close();
  }
}

/** Positions in the database (the embedded one is read once its server has stopped). */
async function countStored(
  kind: DbKind,
  env: Record<string, string>,
  server: { stop(signal?: NodeJS.Signals): Promise<number | null> },
): Promise<number> {
  const { openDatabase } = await import('../src/db/client');
  if (kind === 'pglite') await server.stop('SIGTERM');
  const database = await openDatabase(
    kind === 'postgres' ? { databaseUrl: env.DATABASE_URL } : { dataDir: env.DATA_DIR },
  );
  try {
    const [row] = rowsOf<{ n: number }>(await database.db.execute(sql`select count(*)::int as n from positions`));
    return Number(row?.n ?? 0);
  } finally {
    await database.close();
  }
}

export function trackingIngestRows(results: TrackingIngestResult[]) {
  return results.map((r) => ({
    database: DB_LABEL[r.database],
    riders: r.riders,
    'singles (positions/s)': Math.round(r.singles.perSecond),
    'singles p50 / p95 (ms)': `${r.singles.p50Ms.toFixed(0)} / ${r.singles.p95Ms.toFixed(0)}`,
    [`flushes of ${FLUSH} (positions/s)`]: Math.round(r.flushes.perSecond),
    'flush p50 / p95 (ms)': `${r.flushes.p50Ms.toFixed(0)} / ${r.flushes.p95Ms.toFixed(0)}`,
    [`at ${r.steady.rate}/s: request p50 / p95 (ms)`]: `${r.steady.p50Ms.toFixed(0)} / ${r.steady.p95Ms.toFixed(0)}`,
    'board event p50 / p95 (ms)': `${r.board.p50Ms.toFixed(0)} / ${r.board.p95Ms.toFixed(0)}`,
    'board events missing': r.board.missing,
    'stop alerts raised': `${r.alerts.raised} of ${r.alerts.probes}`,
    'alert after threshold p50 / max (ms)': `${r.alerts.p50Ms.toFixed(0)} / ${r.alerts.maxMs.toFixed(0)}`,
    sent: r.sent,
    stored: r.stored,
    refused: r.failures,
  }));
}

runAsScript(import.meta.url, async (template) => {
  const results = [await runTrackingIngest('pglite', template)];
  if (await pgReachable()) results.push(await runTrackingIngest('postgres', null));
  console.table(trackingIngestRows(results));
  const ok = results.every(
    (r) =>
      r.stored === r.sent &&
      r.failures === 0 &&
      r.flushes.perSecond >= TRACKING_GOAL_PER_S &&
      r.board.missing === 0 &&
      r.alerts.raised === r.alerts.probes &&
      r.board.p95Ms <= BOARD_GOAL_MS,
  );
  console.log(`BENCH_RESULT ${JSON.stringify(results)}`);
  if (!ok) process.exitCode = 1;
});
