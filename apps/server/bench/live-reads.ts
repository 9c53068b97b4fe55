// Benchmark: the public live tracker (GET /api/live) under autocannon, beside a bare
// Fastify hello-world measured in the same run (first and last; the ratio uses their mean,
// as in reads.ts). The server holds 1,000 verified riders on four stations, with passages
// synced through the real scan route: every rider started, two thirds past the
// checkpoint, a third finished. Two reads: a spectator without the answer (200, the whole
// JSON) and one revalidating it (If-None-Match, 304). Goals: ≥ 40% of hello-world's
// req/s, p99 ≤ 25 ms.
//
//   npx tsx apps/server/bench/live-reads.ts   (BENCH_READ_SECONDS, BENCH_CONNECTIONS, BENCH_LIVE_RIDERS)
import { randomUUID } from 'node:crypto';
import type { Database } from '../src/db/client';
import { stations } from '../src/db/schema/event-day';
import { users } from '../src/db/schema/users';
import { hashPassword } from '../src/lib/passwords';
import { markdownTable, writeSectionInPlace } from './benchmarks-doc';
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
  seededServer,
  startHelloWorld,
} from './common';
import { defaultReadOptions, type LoadRun, measureTargets, type ReadOptions, runLabels, warmedRun } from './reads';

const RIDERS = Number(process.env.BENCH_LIVE_RIDERS ?? 1000);
export const LIVE_GOALS = { ratio: 0.4, p99Ms: 25 };

export type LiveTarget = 'hello-world' | 'live (200)' | 'live (304 revalidation)';

export type LiveRun = LoadRun<LiveTarget>;

export interface LiveReadsReport {
  options: ReadOptions;
  riders: number;
  /** Uncompressed JSON and the brotli answer phones get, per database. */
  bytes: Record<string, number>;
  bytesBr: Record<string, number>;
  runs: LiveRun[];
  helloReqPerSec: number;
}

const log = (line: string) => console.error(`  live | ${line}`);

async function seed(kind: DbKind, database: Database) {
  const db = database.db;
  const hash = await hashPassword(BENCH_PASSWORD);
  const rows = benchRiderRows(RIDERS, 'live', hash);
  await insertVerifiedRiders(db, rows);
  await db.insert(users).values({
    email: 'marshal@bench.test',
    passwordHash: hash,
    firstName: 'Marshal',
    lastName: 'Bench',
    role: 'marshall',
  });
  const kinds = ['start', 'checkpoint', 'checkpoint', 'finish'] as const;
  const stationRows = await db
    .insert(stations)
    .values(
      kinds.map((k, order) => ({
        name: `Station ${order + 1}`,
        code: `S${order + 1}`,
        kind: k,
        order,
        required: k !== 'checkpoint',
      })),
    )
    .returning({ id: stations.id });
  log(`${DB_LABEL[kind]}: seeded ${RIDERS} verified riders, ${kinds.length} stations`);
  return { codes: rows.map((r) => r.riderCode), stationIds: stationRows.map((s) => s.id) };
}

/** Passages through the real scan route: all start, 2/3 reach the checkpoints, 1/3 finish. */
async function syncPassages(base: string, seeded: { codes: string[]; stationIds: string[] }) {
  const token = await benchLogin(base, 'marshal@bench.test');
  const t0 = Date.now() - 4 * 3600_000;
  const scans = seeded.codes.flatMap((riderCode, r) => {
    const reach = r % 3 === 0 ? 4 : r % 3 === 1 ? 3 : 1;
    return seeded.stationIds.slice(0, reach).map((stationId, s) => ({
      id: randomUUID(),
      stationId,
      riderCode,
      scannedAt: new Date(t0 + s * 3600_000 + (r % 97) * 20_000).toISOString(),
      deviceId: `bench-${s}`,
      source: 'camera' as const,
    }));
  });
  for (let i = 0; i < scans.length; i += 500) {
    const res = await fetch(`${base}/api/admin/scans`, {
      method: 'POST',
      headers: { 'content-type': 'application/json', authorization: `Bearer ${token}` },
      body: JSON.stringify({ scans: scans.slice(i, i + 500) }),
    });
    if (!res.ok) throw new Error(`syncing passages: ${res.status} ${await res.text()}`);
  }
  log(`synced ${scans.length} passages`);
}

async function measure(url: string, opts: ReadOptions, headers?: Record<string, string>) {
  const r = await warmedRun({ url, connections: opts.connections, pipelining: 1, headers }, opts);
  // A 304 is the expected answer of a revalidation, not a failure.
  const expected304 = headers?.['if-none-match'] ? r['3xx'] : 0;
  return {
    reqPerSec: r.requests.average,
    p50: r.latency.p50,
    p99: r.latency.p99,
    requests: r.requests.total,
    failures: r.non2xx - expected304 + r.errors + r.timeouts,
  };
}

export async function runLiveReads(
  kinds: DbKind[],
  template: PgliteTemplate,
  opts: ReadOptions = defaultReadOptions(),
): Promise<LiveReadsReport> {
  const hello = await startHelloWorld();
  const cleanups: Array<() => Promise<void> | void> = [];
  try {
    const targets: Array<{ target: LiveTarget; db: DbKind | null; url: string; headers?: Record<string, string> }> = [
      { target: 'hello-world', db: null, url: `${hello.url}/hello` },
    ];
    const bytes: Record<string, number> = {};
    const bytesBr: Record<string, number> = {};
    for (const kind of kinds) {
      const { server, seeded, close } = await seededServer(kind, template, {
        dirPrefix: 'rally-bench-live-',
        seed: (database) => seed(kind, database),
      });
      cleanups.unshift(close);
      await syncPassages(server.url, seeded);
      const url = `${server.url}/api/live`;
      const res = await fetch(url, { headers: { 'accept-encoding': 'identity' } });
      const body = await res.text();
      // fetch decompresses the body; the header says what went over the wire.
      const compressed = await fetch(url, { headers: { 'accept-encoding': 'br' } });
      bytesBr[kind] = Number(compressed.headers.get('content-length'));
      await compressed.arrayBuffer();
      const etag = res.headers.get('etag');
      const json = JSON.parse(body) as { data: Array<{ riders: unknown[]; finishers: unknown[] }> };
      const riders = json.data.reduce((n, r) => n + r.riders.length, 0);
      if (res.status !== 200 || riders !== RIDERS || !etag)
        throw new Error(`live on ${kind}: ${res.status}, ${riders} riders, etag ${etag}`);
      bytes[kind] = Buffer.byteLength(body);
      // What a phone's browser sends: the answer comes compressed (br), as spectators get it.
      targets.push({ target: 'live (200)', db: kind, url, headers: { 'accept-encoding': 'gzip, deflate, br' } });
      targets.push({ target: 'live (304 revalidation)', db: kind, url, headers: { 'if-none-match': etag } });
    }
    targets.push({ target: 'hello-world', db: null, url: `${hello.url}/hello` });
    const { runs, helloReqPerSec } = await measureTargets(targets, opts, log, (t) => measure(t.url, opts, t.headers));
    return { options: opts, riders: RIDERS, bytes, bytesBr, runs, helloReqPerSec };
  } finally {
    await hello.stop();
    for (const c of cleanups) await c();
  }
}

export function liveRows(report: LiveReadsReport) {
  const label = runLabels();
  return report.runs.map((r) => {
    const ratio = r.db ? r.reqPerSec / report.helloReqPerSec : null;
    return {
      ...label(r),
      'req/s': Math.round(r.reqPerSec),
      'p50 ms': r.p50,
      'p99 ms': r.p99,
      'of hello-world': ratio === null ? '-' : `${(100 * ratio).toFixed(1)}%`,
      goals:
        ratio === null
          ? '-'
          : `${ratio >= LIVE_GOALS.ratio ? 'met' : 'MISSED'} ≥40%, ${r.p99 <= LIVE_GOALS.p99Ms ? 'met' : 'MISSED'} p99≤25ms`,
      failures: r.failures,
    };
  });
}

export function liveSummary(report: LiveReadsReport): string {
  const kind = Object.keys(report.bytes)[0] ?? 'pglite';
  return `GET /api/live: ${report.riders} riders, ${report.bytes[kind]} bytes of JSON, ${report.bytesBr[kind]} bytes as brotli`;
}

runAsScript(import.meta.url, async (template) => {
  const kinds: DbKind[] = (await pgReachable()) ? ['pglite', 'postgres'] : ['pglite'];
  const report = await runLiveReads(kinds, template);
  console.log(liveSummary(report));
  console.table(liveRows(report));
});

const LIVE_START = '<!-- live-reads:start -->';
const LIVE_END = '<!-- live-reads:end -->';

export function liveSection(report: LiveReadsReport, when: Date, commit: string, load: [number, number]): string {
  const o = report.options;
  return [
    LIVE_START,
    '## 9. Public live tracker beside a bare Fastify hello-world',
    '',
    '`apps/server/bench/live-reads.ts`: `GET /api/live` on a server holding 1,000 verified riders on four stations,',
    'passages synced through the real scan route (all started, two thirds past the checkpoints, a third finished),',
    `under autocannon (${o.connections} connections, ${o.seconds} s each after ${o.warmupSeconds} s of warm-up, no pipelining),`,
    'beside hello-world measured first and last in the same run (the ratio uses their mean). "live (200)" asks as a',
    "phone's browser does (`accept-encoding: gzip, deflate, br`) and gets the whole answer, compressed once per answer;",
    '"live (304 revalidation)" sends the ETag back (`If-None-Match`), as the page and every browser cache do.',
    `Goals: at least ${LIVE_GOALS.ratio * 100}% of hello-world's req/s, p99 at most ${LIVE_GOALS.p99Ms} ms.`,
    '',
    `Measured ${when.toISOString().replace('T', ' ').slice(0, 16)} UTC, commit ${commit}; load average (1 min)`,
    `${load[0].toFixed(1)} at start, ${load[1].toFixed(1)} at end. ${liveSummary(report)}.`,
    '',
    markdownTable(liveRows(report)),
    LIVE_END,
  ].join('\n');
}

/** Replaces the live tracker's section of docs/benchmarks.md in place (before the Investigation when new). */
export function writeLiveSection(section: string): string {
  return writeSectionInPlace(LIVE_START, LIVE_END, section);
}
