// Benchmark: scan sync under event-day conditions (issue 14). The real server on a fresh
// database holds 1,000 verified riders and 6 stations; 20 simulated marshal devices scan
// every rider at their station and sync in batches while going offline for random
// stretches: a request made offline fails before it leaves, a request whose answer is lost
// on the way back (the server stored it, the device never heard) stays queued and is sent
// again, and some batches are sent twice at once (a double tap on "sync now"). Afterwards
// the database is compared with what the devices made: every scan stored exactly once.
//
// 3G: one device flushes 500 queued scans through a throttling proxy in this process that
// delays every chunk by half the round trip and meters it at the profile's bandwidth in
// each direction (750 kbit/s up, 1.5 Mbit/s down, 300 ms RTT, like Chrome's "Good 3G"
// with a mountain-road round trip), over one kept-alive connection as a browser would.
//
//   npx tsx apps/server/bench/scan-sync.ts            (PGlite, and PostgreSQL when reachable)
//   BENCH_SCAN_DEVICES (20), BENCH_SCAN_RIDERS (1000), BENCH_SCAN_BATCH (100)
import { randomUUID } from 'node:crypto';
import net from 'node:net';
import { BASE_CATEGORIES } from '@rally/shared/catalog/registration';
import { sql } from 'drizzle-orm';
import { type Database, openDatabase } from '../src/db/client';
import { stations } from '../src/db/schema/event-day';
import { users } from '../src/db/schema/users';
import { hashPassword } from '../src/lib/passwords';
import { startServer } from '../src/test/processes';
import {
  BENCH_PASSWORD,
  benchLogin,
  benchRiderRows,
  DB_LABEL,
  type DbKind,
  insertVerifiedRiders,
  type PgliteTemplate,
  pgReachable,
  runAsScript,
  SERVER_ENV,
  seededServer,
} from './common';

const DEVICES = Number(process.env.BENCH_SCAN_DEVICES ?? 20);
const RIDERS = Number(process.env.BENCH_SCAN_RIDERS ?? 1000);
const BATCH = Number(process.env.BENCH_SCAN_BATCH ?? 100);
const STATIONS = 6;
const THREE_G = { upBitsPerSecond: 750_000, downBitsPerSecond: 1_500_000, rttMs: 300 };
const FLUSH_GOAL_S = 60;

export interface ScanSyncResult {
  database: DbKind;
  devices: number;
  riders: number;
  stations: number;
  sent: number;
  requests: number;
  offlineFailures: number;
  lostAnswers: number;
  doubleSends: number;
  itemsReceived: number;
  stored: number;
  duplicatesStored: number;
  doubleCounted: number;
  lost: number;
  seconds: number;
  uniquePerSecond: number;
  itemsPerSecond: number;
  flush3g: { scans: number; batch: number; seconds: number; requests: number }[];
}

const log = (line: string) => console.error(`  scan-sync | ${line}`);

/** Riders, stations and one marshal account per device, written straight into the database. */
export async function seed(database: Database) {
  const db = database.db;
  const hash = await hashPassword(BENCH_PASSWORD);
  const riderRows = benchRiderRows(RIDERS, 'rider', hash, BASE_CATEGORIES);
  await insertVerifiedRiders(db, riderRows);
  const marshals = Array.from({ length: DEVICES + 1 }, (_, i) => ({
    email: `marshal${i}@bench.test`,
    passwordHash: hash,
    firstName: 'Marshal',
    lastName: String(i),
    role: 'marshall' as const,
  }));
  await db.insert(users).values(marshals);
  const kinds = ['start', 'checkpoint', 'checkpoint', 'checkpoint', 'checkpoint', 'finish'] as const;
  const stationRows = await db
    .insert(stations)
    .values(
      kinds.map((kind, order) => ({
        name: `Station ${order + 1}`,
        code: `S${order + 1}`,
        kind,
        order,
        required: kind !== 'checkpoint',
      })),
    )
    .returning({ id: stations.id });
  return {
    codes: riderRows.map((r) => r.riderCode),
    stationIds: stationRows.map((s) => s.id),
    marshalEmails: marshals.map((m) => m.email),
  };
}

interface Scan {
  id: string;
  stationId: string;
  riderCode: string;
  scannedAt: string;
  deviceId: string;
  source: 'camera';
}

type Result = { id: string; status: string };

async function postBatch(base: string, token: string, batch: Scan[]): Promise<Result[]> {
  const res = await fetch(`${base}/api/admin/scans`, {
    method: 'POST',
    headers: { 'content-type': 'application/json', authorization: `Bearer ${token}` },
    body: JSON.stringify({ scans: batch }),
  });
  const body = (await res.json()) as { data?: { results: Result[] }; message?: string };
  if (!res.ok || !body.data) throw new Error(`sync: ${res.status} ${body.message}`);
  return body.data.results;
}

/** A seeded generator, so two runs make the same offline pattern. */
function rng(seed: number) {
  let s = seed >>> 0;
  return () => {
    s = (s * 1664525 + 1013904223) >>> 0;
    return s / 2 ** 32;
  };
}

/** One device: scans its riders one by one into a queue and syncs it like the scanner page does. */
async function runDevice(
  base: string,
  token: string,
  scans: Scan[],
  seed: number,
  counters: { requests: number; offlineFailures: number; lostAnswers: number; doubleSends: number; items: number },
) {
  const random = rng(seed);
  const queue: Scan[] = [];
  let offlineFor = 0;
  const sync = async () => {
    while (queue.length > 0) {
      const batch = queue.slice(0, BATCH);
      if (offlineFor > 0) {
        counters.offlineFailures++;
        return;
      }
      const double = random() < 0.1;
      const lose = random() < 0.15;
      counters.requests += double ? 2 : 1;
      counters.items += batch.length * (double ? 2 : 1);
      if (double) counters.doubleSends++;
      const answers = await Promise.all(
        double ? [postBatch(base, token, batch), postBatch(base, token, batch)] : [postBatch(base, token, batch)],
      );
      if (lose) {
        // The server stored the batch; the answer never reached the phone. It stays queued.
        counters.lostAnswers++;
        return;
      }
      const done = new Set(answers[0]?.map((r) => r.id));
      for (let i = queue.length - 1; i >= 0; i--) if (done.has(queue[i]?.id as string)) queue.splice(i, 1);
    }
  };
  for (const scan of scans) {
    queue.push(scan);
    if (offlineFor > 0) offlineFor--;
    else if (random() < 0.01) offlineFor = 20 + Math.floor(random() * 200); // into a dead zone
    if (queue.length >= 10 || random() < 0.05) await sync();
  }
  // Signal is back for good: everything still queued goes, retrying until the queue is empty.
  offlineFor = 0;
  while (queue.length > 0) await sync();
}

/** A TCP proxy metering each direction at a bandwidth and delaying it by half the round trip. */
function throttlingProxy(target: URL, profile: typeof THREE_G): Promise<{ url: string; close(): Promise<void> }> {
  const pipe = (from: net.Socket, to: net.Socket, bitsPerSecond: number) => {
    let freeAt = 0;
    from.on('data', (chunk: Buffer) => {
      const now = performance.now();
      const start = Math.max(now, freeAt);
      freeAt = start + (chunk.length * 8 * 1000) / bitsPerSecond;
      const at = freeAt + profile.rttMs / 2;
      setTimeout(() => to.write(chunk), at - now);
    });
    from.on('end', () => setTimeout(() => to.end(), Math.max(0, freeAt - performance.now()) + profile.rttMs / 2));
    from.on('error', () => to.destroy());
  };
  const sockets = new Set<net.Socket>();
  const server = net.createServer((client) => {
    const upstream = net.connect(Number(target.port), target.hostname);
    for (const socket of [client, upstream]) {
      sockets.add(socket);
      socket.once('close', () => sockets.delete(socket));
    }
    pipe(client, upstream, profile.upBitsPerSecond);
    pipe(upstream, client, profile.downBitsPerSecond);
  });
  return new Promise((resolve) => {
    server.listen(3322, '127.0.0.1', () => {
      resolve({
        url: 'http://127.0.0.1:3322',
        // A kept-alive connection would hold close() open until its idle timeout.
        close: () =>
          new Promise((r) => {
            server.close(() => r());
            for (const socket of sockets) socket.destroy();
          }),
      });
      server.unref();
    });
  });
}

async function flushOver3g(base: string, token: string, stationId: string, codes: string[], batch: number) {
  const proxy = await throttlingProxy(new URL(base), THREE_G);
  try {
    const queue: Scan[] = codes.slice(0, 500).map((riderCode) => ({
      id: randomUUID(),
      stationId,
      riderCode,
      scannedAt: new Date().toISOString(),
      deviceId: 'phone-3g',
      source: 'camera',
    }));
    const t0 = performance.now();
    let requests = 0;
    for (let i = 0; i < queue.length; i += batch) {
      const results = await postBatch(proxy.url, token, queue.slice(i, i + batch));
      requests++;
      if (results.some((r) => r.status === 'invalid')) throw new Error('3G flush: invalid scans');
    }
    return { scans: queue.length, batch, seconds: (performance.now() - t0) / 1000, requests };
  } finally {
    await proxy.close();
  }
}

export async function runScanSync(kind: DbKind, template: PgliteTemplate | null): Promise<ScanSyncResult> {
  const { server, seeded, env, seedSeconds, close } = await seededServer(kind, template, {
    dirPrefix: 'rally-bench-scans-',
    port: 3321,
    seed,
  });
  log(`${DB_LABEL[kind]}: seeded ${RIDERS} verified riders, ${STATIONS} stations in ${seedSeconds.toFixed(1)} s`);
  try {
    const tokens = await Promise.all(seeded.marshalEmails.map((email) => benchLogin(server.url, email)));
    // Each station has its devices; each device scans a share of the riders at its station.
    const scansPerDevice: Scan[][] = Array.from({ length: DEVICES }, () => []);
    const sent = new Set<string>();
    seeded.stationIds.forEach((stationId, s) => {
      const devices = Array.from({ length: DEVICES }, (_, d) => d).filter((d) => d % STATIONS === s);
      seeded.codes.forEach((riderCode, r) => {
        const d = devices[r % devices.length] as number;
        const scan: Scan = {
          id: randomUUID(),
          stationId,
          riderCode,
          scannedAt: new Date(Date.now() - (STATIONS - s) * 60_000).toISOString(),
          deviceId: `phone-${d}`,
          source: 'camera',
        };
        scansPerDevice[d]?.push(scan);
        sent.add(scan.id);
      });
    });
    const counters = { requests: 0, offlineFailures: 0, lostAnswers: 0, doubleSends: 0, items: 0 };
    const t1 = performance.now();
    await Promise.all(
      scansPerDevice.map((scans, d) => runDevice(server.url, tokens[d] as string, scans, 1000 + d, counters)),
    );
    const seconds = (performance.now() - t1) / 1000;

    const check = await openDatabaseAfter(kind, env, server);
    const rows = (await check.db.execute(sql`select id from scans`)) as unknown as { rows: Array<{ id: string }> };
    const storedIds = rows.rows.map((r) => r.id);
    const storedSet = new Set(storedIds);
    const doubled = (await check.db.execute(
      sql`select count(*)::int as n from (select rider_id, station_id from scans where status = 'accepted' group by 1, 2 having count(*) > 1) x`,
    )) as unknown as { rows: Array<{ n: number }> };
    await check.close();

    const flush3g = [];
    const fresh = seeded.stationIds[0] as string;
    for (const batch of [500, 100]) {
      flush3g.push(
        await flushOver3g(
          server.url,
          tokens[DEVICES] as string,
          fresh,
          seeded.codes.slice(batch === 500 ? 0 : 500),
          batch,
        ),
      );
    }
    return {
      database: kind,
      devices: DEVICES,
      riders: RIDERS,
      stations: STATIONS,
      sent: sent.size,
      requests: counters.requests,
      offlineFailures: counters.offlineFailures,
      lostAnswers: counters.lostAnswers,
      doubleSends: counters.doubleSends,
      itemsReceived: counters.items,
      stored: [...sent].filter((id) => storedSet.has(id)).length,
      duplicatesStored: storedIds.length - storedSet.size + [...storedSet].filter((id) => !sent.has(id)).length,
      doubleCounted: Number(doubled.rows[0]?.n ?? 0),
      lost: [...sent].filter((id) => !storedSet.has(id)).length,
      seconds,
      uniquePerSecond: sent.size / seconds,
      itemsPerSecond: counters.items / seconds,
      flush3g,
    };
  } finally {
    await close();
  }
}

/** The embedded database belongs to its server: it is read once the server has stopped. */
async function openDatabaseAfter(
  kind: DbKind,
  env: Record<string, string>,
  server: Awaited<ReturnType<typeof startServer>>,
) {
  if (kind === 'postgres') return openDatabase({ databaseUrl: env.DATABASE_URL });
  await server.stop('SIGTERM');
  const database = await openDatabase({ dataDir: env.DATA_DIR });
  // The 3G flush needs the server again: restart it on the same data once the count is read.
  const close = async () => {
    await database.close();
    const again = await startServer({ ...env, ...SERVER_ENV }, 3321);
    Object.assign(server, again);
  };
  return { db: database.db, close };
}

export function scanSyncRows(results: ScanSyncResult[]) {
  return results.map((r) => ({
    database: DB_LABEL[r.database],
    'scans sent': r.sent,
    stored: r.stored,
    'duplicates stored': r.duplicatesStored,
    'passages counted twice': r.doubleCounted,
    lost: r.lost,
    requests: r.requests,
    'offline attempts': r.offlineFailures,
    'answers lost (resent)': r.lostAnswers,
    'double sends': r.doubleSends,
    'items received': r.itemsReceived,
    'ingest (unique scans/s)': Math.round(r.uniquePerSecond),
    'ingest (items/s)': Math.round(r.itemsPerSecond),
    ...Object.fromEntries(r.flush3g.map((f) => [`3G flush 500 (batches of ${f.batch})`, `${f.seconds.toFixed(1)} s`])),
  }));
}

runAsScript(import.meta.url, async (template) => {
  const results = [await runScanSync('pglite', template)];
  if (await pgReachable()) results.push(await runScanSync('postgres', null));
  console.table(scanSyncRows(results));
  const ok = results.every(
    (r) =>
      r.lost === 0 &&
      r.duplicatesStored === 0 &&
      r.doubleCounted === 0 &&
      r.flush3g.every((f) => f.seconds <= FLUSH_GOAL_S),
  );
  console.log(`BENCH_RESULT ${JSON.stringify(results)}`);
  if (!ok) process.exitCode = 1;
});
