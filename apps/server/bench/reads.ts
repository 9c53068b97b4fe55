// Benchmark: the two hottest public reads under autocannon (no pipelining), on each
// database, beside a bare Fastify hello-world measured in the same run. On a shared
// machine absolute req/s drift with the neighbours' load, so the figure that means
// something is the ratio to hello-world; hello-world is measured first and last and the
// ratio uses the mean, so drift during the run shows instead of hiding.
//
//   npx tsx apps/server/bench/reads.ts      (BENCH_READ_SECONDS, BENCH_CONNECTIONS, BENCH_TAKEN)
import autocannon from 'autocannon';
import { multipart, registrationFields } from '../src/test/factories';
import {
  DB_LABEL,
  type DbKind,
  type FreshServer,
  freshServer,
  type PgliteTemplate,
  pgReachable,
  phoneFiles,
  runAsScript,
  startHelloWorld,
} from './common';

export interface ReadOptions {
  seconds: number;
  warmupSeconds: number;
  connections: number;
  /** Riders registered before the reads, numbers 1..taken. */
  taken: number;
}

export const defaultReadOptions = (): ReadOptions => ({
  seconds: Number(process.env.BENCH_READ_SECONDS ?? 10),
  warmupSeconds: Number(process.env.BENCH_WARMUP_SECONDS ?? 2),
  connections: Number(process.env.BENCH_CONNECTIONS ?? 50),
  taken: Number(process.env.BENCH_TAKEN ?? 500),
});

// "profile" reads one rider's profile (a shared link opened by a crowd); "profiles, all
// riders in turn" walks every seeded rider's profile round-robin, so an answer cache cannot
// make it look better than the riders' real mix would.
export type ReadTarget = 'hello-world' | 'profile' | 'profiles, all riders in turn' | 'taken numbers';

/** One target measured under load (the reads here, the live tracker in live-reads.ts). */
export interface LoadRun<Target extends string> {
  target: Target;
  db: DbKind | null;
  reqPerSec: number;
  p50: number;
  p99: number;
  requests: number;
  /** Unexpected answers (non-2xx, bar an expected 304) plus socket errors and timeouts: must be 0. */
  failures: number;
}

export type ReadRun = LoadRun<ReadTarget>;

export interface ReadsReport {
  options: ReadOptions;
  runs: ReadRun[];
  /** Mean of the hello-world runs before and after: the denominator of every ratio. */
  helloReqPerSec: number;
  seeding: { db: DbKind; riders: number; seconds: number }[];
  takenBytes: Record<string, number>;
}

/** One recorded autocannon run after a short unrecorded one: JIT, connection pools and caches warm, as in production. */
export async function warmedRun(options: Parameters<typeof autocannon>[0], opts: ReadOptions) {
  if (opts.warmupSeconds > 0) await autocannon({ ...options, duration: opts.warmupSeconds });
  return autocannon({ ...options, duration: opts.seconds });
}

/**
 * Measures the targets in turn, hello-world first and last (the caller lists it so), and
 * answers the runs with the mean of hello-world's: the denominator of every ratio.
 */
export async function measureTargets<T extends { target: string; db: DbKind | null }, M extends { reqPerSec: number }>(
  targets: T[],
  opts: ReadOptions,
  log: (line: string) => void,
  measureOne: (target: T) => Promise<M>,
) {
  const runs: Array<{ target: T['target']; db: DbKind | null } & M> = [];
  for (const t of targets) {
    log(`${t.target}${t.db ? ` on ${DB_LABEL[t.db]}` : ''}: ${opts.seconds} s x ${opts.connections} connections`);
    runs.push({ target: t.target, db: t.db, ...(await measureOne(t)) });
  }
  const helloRuns = runs.filter((r) => r.target === 'hello-world');
  return { runs, helloReqPerSec: helloRuns.reduce((a, r) => a + r.reqPerSec, 0) / helloRuns.length };
}

/** The first two columns of a table of runs, hello-world's two told apart as first and last. */
export function runLabels() {
  let helloSeen = 0;
  return (r: { target: string; db: DbKind | null }) => ({
    target: r.target === 'hello-world' ? `hello-world (${++helloSeen === 1 ? 'first' : 'last'})` : r.target,
    database: r.db ? DB_LABEL[r.db] : '-',
  });
}

async function measure(url: string, opts: ReadOptions, paths?: string[]): Promise<Omit<ReadRun, 'target' | 'db'>> {
  let next = 0;
  // With several paths every request takes the next one, across all connections.
  const requests = paths
    ? [
        {
          setupRequest: (req: { path?: string }) => {
            req.path = paths[next++ % paths.length];
            return req;
          },
        },
      ]
    : undefined;
  const r = await warmedRun({ url, connections: opts.connections, pipelining: 1, requests }, opts);
  return {
    reqPerSec: r.requests.average,
    p50: r.latency.p50,
    p99: r.latency.p99,
    requests: r.requests.total,
    failures: r.non2xx + r.errors + r.timeouts,
  };
}

/**
 * Registers riders 1..count over the real route (cash payment, so no receipt), the first
 * one with a profile photo: that is the rider whose public profile is read. Four at a
 * time, the size of the server's hashing thread pool.
 */
async function seed(
  server: FreshServer,
  count: number,
  photo: Buffer,
): Promise<{ profileId: string; allIds: string[]; ms: number }> {
  const t0 = performance.now();
  const numbers = Array.from({ length: count }, (_, i) => i + 1);
  let profileId = '';
  const allIds: string[] = [];
  const worker = async () => {
    for (let n = numbers.shift(); n !== undefined; n = numbers.shift()) {
      const files =
        n === 1 ? [{ field: 'profileImage', filename: 'me.jpg', contentType: 'image/jpeg', data: photo }] : [];
      const body = multipart(registrationFields({ riderNumber: String(n), paymentMethod: 'cash' }), files);
      const res = await fetch(`${server.url}/api/auth/register-with-uploads`, {
        method: 'POST',
        headers: body.headers,
        body: body.payload,
      });
      const json = (await res.json()) as { data?: { user?: { id: string } }; message?: string };
      if (res.status !== 201) throw new Error(`seeding rider ${n} on ${server.kind}: ${res.status} ${json.message}`);
      if (n === 1) profileId = json.data?.user?.id ?? '';
      allIds.push(json.data?.user?.id ?? '');
    }
  };
  await Promise.all(Array.from({ length: 4 }, worker));
  return { profileId, allIds, ms: performance.now() - t0 };
}

export async function runReads(
  kinds: DbKind[],
  template: PgliteTemplate,
  opts: ReadOptions = defaultReadOptions(),
  log: (line: string) => void = console.log,
): Promise<ReadsReport> {
  const servers: FreshServer[] = [];
  const hello = await startHelloWorld();
  try {
    for (const kind of kinds) servers.push(await freshServer(kind, template));
    const { profile: photo } = await phoneFiles();
    log(`  seeding ${opts.taken} riders on ${kinds.map((k) => DB_LABEL[k]).join(' and ')} over HTTP...`);
    const seeded = await Promise.all(servers.map((s) => seed(s, opts.taken, photo)));
    // Promise.all over `servers` answered one entry per server, in order.
    const seededOf = (i: number) => seeded[i]!;

    const targets: { target: ReadTarget; db: DbKind | null; url: string; paths?: string[] }[] = [
      { target: 'hello-world', db: null, url: `${hello.url}/hello` },
    ];
    const takenBytes: Record<string, number> = {};
    for (const [i, s] of servers.entries()) {
      const riders = seededOf(i);
      const profileUrl = `${s.url}/api/users/${riders.profileId}/profile`;
      const takenUrl = `${s.url}/api/rider-numbers/taken`;
      // Sanity before load: the reads answer 200 and the list really holds every number.
      const p = await fetch(profileUrl);
      if (p.status !== 200) throw new Error(`profile read on ${s.kind}: ${p.status}`);
      const t = await fetch(takenUrl);
      const body = await t.text();
      const n = (JSON.parse(body) as { data: { takenNumbers: number[] } }).data.takenNumbers.length;
      if (n !== opts.taken) throw new Error(`taken list on ${s.kind} holds ${n}, expected ${opts.taken}`);
      takenBytes[s.kind] = Buffer.byteLength(body);
      targets.push({ target: 'profile', db: s.kind, url: profileUrl });
      targets.push({
        target: 'profiles, all riders in turn',
        db: s.kind,
        url: profileUrl,
        paths: riders.allIds.map((id) => `/api/users/${id}/profile`),
      });
      targets.push({ target: 'taken numbers', db: s.kind, url: takenUrl });
    }
    targets.push({ target: 'hello-world', db: null, url: `${hello.url}/hello` });

    const { runs, helloReqPerSec } = await measureTargets(
      targets,
      opts,
      (line) => log(`  ${line}`),
      (t) => measure(t.url, opts, t.paths),
    );
    return {
      options: opts,
      runs,
      helloReqPerSec,
      seeding: servers.map((s, i) => ({ db: s.kind, riders: opts.taken, seconds: seededOf(i).ms / 1000 })),
      takenBytes,
    };
  } finally {
    await hello.stop();
    for (const s of servers) await s.close();
  }
}

export function readRows(report: ReadsReport) {
  const label = runLabels();
  return report.runs.map((r) => ({
    ...label(r),
    'req/s': Math.round(r.reqPerSec),
    'p50 ms': r.p50,
    'p99 ms': r.p99,
    'of hello-world': r.db ? `${((100 * r.reqPerSec) / report.helloReqPerSec).toFixed(1)}%` : '-',
    failures: r.failures,
  }));
}

runAsScript(import.meta.url, async (template) => {
  const kinds: DbKind[] = (await pgReachable()) ? ['pglite', 'postgres'] : ['pglite'];
  console.table(readRows(await runReads(kinds, template)));
});
