// Benchmark: what the server costs in memory and how soon it answers, per database.
// Each database gets a server on an EMPTY store (the embedded one runs initdb, PostgreSQL
// a fresh database the server migrates), measured idle; then a registration rush of 990
// riders with phone-like uploads runs against that process and its peak resident memory
// is read (the kernel's high-water mark, VmHWM); then the store, riders and all, is
// restarted (what an organiser does during an event), timed to its first answer and
// measured idle again. Split of the
// memory (V8 heap, external, array buffers, PGlite's WebAssembly memory) comes from
// memory-probe.mjs, preloaded into the server. Finally `npm start` itself is timed on the
// unchanged checkout, from the command to the first answer.
//
//   npx tsx apps/server/bench/memory.ts     both databases (PostgreSQL when reachable)
//   BENCH_MEMORY_RIDERS (990), BENCH_CONCURRENCY (16), BENCH_MEMORY_DB=pglite|postgres (one only)
//   BENCH_MEMORY_NPM_START=0                 skip timing `npm start`
//   BENCH_NODE_FLAGS="--max-semi-space-size=2"   Node flags of the server instead of its start script's
//   BENCH_SERVER=tsx                         measure the server run from its TypeScript sources through tsx
//   MEMORY_PROBE_SNAPSHOT=dir                heap snapshots at every probe (slow, large)
import { type ChildProcess, execFileSync, spawn } from 'node:child_process';
import { existsSync, readdirSync, readFileSync } from 'node:fs';
import path from 'node:path';
import { fileURLToPath, pathToFileURL } from 'node:url';
import { multipart, registrationFields } from '../src/test/factories';
import {
  cleanUpOnInterrupt,
  DB_LABEL,
  type DbKind,
  freshPgDatabase,
  pgReachable,
  phoneFiles,
  repoRoot,
  SERVER_ENV,
  tempDir,
} from './common';

export interface MemoryProbe {
  rss: number;
  peakRss: number | null;
  rssAnon: number | null;
  rssFile: number | null;
  heapTotal: number;
  heapUsed: number;
  external: number;
  arrayBuffers: number;
  wasmMemory: number;
  wasmMemories: number;
  snapshot?: string;
}

export interface MemoryRun {
  db: DbKind;
  /** How the server ran: the built JavaScript (`dist`) or its sources through tsx. */
  server: 'dist' | 'tsx';
  /** Spawn to the first answer on an empty store (initdb or migrations included). */
  firstStartMs: number;
  idleFirst: MemoryProbe;
  /** Spawn to the first answer on the store after the rush: a restart during the event (and the CPU it took). */
  restartMs: number;
  restartCpuMs: number | null;
  idle: MemoryProbe;
  /** The probe sample with the highest RSS during the rush, and the kernel's high-water mark after it. */
  rushSample: MemoryProbe;
  peakRss: number;
  afterRush: MemoryProbe;
  rush: {
    riders: number;
    completed: number;
    errors: number;
    seconds: number;
    perMinute: number;
    /** After the load, until the last rider's files were processed (the file queue's drain, DESIGN.md §13). */
    drainSeconds?: number;
  };
}

export interface MemoryReport {
  runs: MemoryRun[];
  /** `npm start` on the unchanged checkout, command to first answer; null when not measured. */
  npmStartMs: number | null;
  npmStartCpuMs?: number | null;
  npmStartNote: string;
}

const serverSrc = fileURLToPath(new URL('../src/server.ts', import.meta.url));
const serverDist = fileURLToPath(new URL('../dist/server.js', import.meta.url));
const runner = fileURLToPath(new URL('../scripts/run.mjs', import.meta.url));
const probe = fileURLToPath(new URL('./memory-probe.mjs', import.meta.url));

function serverBuildIsFresh(): boolean {
  try {
    execFileSync(process.execPath, [path.join(repoRoot, 'scripts/freshness.mjs'), 'check', 'server'], {
      stdio: 'ignore',
    });
    return true;
  } catch {
    return false;
  }
}

/**
 * How the server is measured: as `npm start` runs it (the built JavaScript), unless
 * BENCH_SERVER=tsx asks for its sources through tsx. A fresh clone has no build yet, and
 * run.mjs would build it inside the measured process (esbuild's memory counted as the
 * server's), so a missing or stale build is made first, in a process of its own.
 */
export function serverMode(): 'dist' | 'tsx' {
  if (process.env.BENCH_SERVER === 'tsx') return 'tsx';
  if (!existsSync(serverDist) || !serverBuildIsFresh())
    execFileSync('npm', ['run', 'build', '-w', '@rally/server'], { cwd: repoRoot, stdio: 'ignore' });
  return 'dist';
}

/**
 * CPU time (ms) used so far by a process group: every process in it, and their exited
 * children. On a shared machine the wall-clock time to the first answer follows the
 * neighbours' load; this follows the work done. Linux only (/proc); null elsewhere.
 */
function groupCpuMs(pgid: number): number | null {
  if (!existsSync('/proc/self/stat')) return null;
  let ticks = 0;
  for (const pid of readdirSync('/proc').filter((d) => /^\d+$/.test(d))) {
    try {
      const stat = readFileSync(`/proc/${pid}/stat`, 'utf8');
      const f = stat.slice(stat.lastIndexOf(')') + 2).split(' ');
      // fields after the name: state ppid pgrp … utime(11) stime(12) cutime(13) cstime(14)
      if (Number(f[2]) !== pgid) continue;
      ticks += Number(f[11]) + Number(f[12]) + Number(f[13]) + Number(f[14]);
    } catch {
      // the process ended meanwhile
    }
  }
  return ticks * 10; // USER_HZ is 100 on Linux
}

interface Launched {
  child: ChildProcess;
  url: string;
  /** Spawn to the first 200 from /api/health, and the CPU its processes used until then. */
  firstAnswerMs: number;
  firstAnswerCpuMs: number | null;
  probe(): Promise<MemoryProbe>;
  stop(): Promise<void>;
}

/**
 * Spawns a command that starts the server (PORT=0) and times it to the first answer:
 * the URL comes from its "Rally platform on" line, then /api/health is asked every 10 ms.
 * Its own process group, so `npm start` and whatever it spawned stop together.
 */
function launch(command: string, args: string[], env: Record<string, string>, serverPid?: 'self'): Promise<Launched> {
  const t0 = performance.now();
  const child = spawn(command, args, {
    cwd: repoRoot,
    env: { ...process.env, ...SERVER_ENV, ...env, LOG_LEVEL: 'info', PORT: '0', HOST: '127.0.0.1' },
    stdio: ['ignore', 'pipe', 'pipe'],
    detached: true,
  });
  let out = '';
  const probes: Array<(p: MemoryProbe) => void> = [];
  let pending = '';
  const onData = (d: Buffer) => {
    out += d;
    pending += d;
    const lines = pending.split('\n');
    pending = lines.pop() ?? '';
    for (const line of lines) {
      if (line.startsWith('MEMORY_PROBE ')) probes.shift()?.(JSON.parse(line.slice('MEMORY_PROBE '.length)));
    }
  };
  child.stdout?.on('data', onData);
  child.stderr?.on('data', onData);
  const exited = new Promise<void>((r) => child.once('exit', () => r()));
  const stop = async () => {
    if (child.exitCode === null && child.pid) {
      try {
        process.kill(-child.pid, 'SIGTERM');
      } catch {
        // already gone
      }
    }
    await exited;
  };
  return new Promise((resolve, reject) => {
    const deadline = Date.now() + 180_000;
    const poll = async () => {
      if (child.exitCode !== null) return reject(new Error(`server exited (${child.exitCode}): ${out.slice(-2000)}`));
      const url = /Rally platform on (http:\/\/[0-9.:]+)/.exec(out)?.[1];
      if (url) {
        try {
          const res = await fetch(`${url}/api/health`);
          if (res.ok) {
            const firstAnswerMs = performance.now() - t0;
            return resolve({
              child,
              url,
              firstAnswerMs,
              firstAnswerCpuMs: child.pid ? groupCpuMs(child.pid) : null,
              stop,
              probe: () =>
                new Promise<MemoryProbe>((r, j) => {
                  probes.push(r);
                  const pid = serverPid === 'self' ? child.pid : undefined;
                  if (!pid) return j(new Error('no process to probe'));
                  process.kill(pid, 'SIGUSR2');
                }),
            });
          }
        } catch {
          // not answering yet
        }
      }
      if (Date.now() > deadline) {
        await stop();
        return reject(new Error(`server did not answer: ${out.slice(-2000)}`));
      }
      setTimeout(poll, 10);
    };
    poll();
  });
}

/**
 * Node's flags of the server's start script (apps/server/package.json, e.g. the young
 * generation's size), so the server is measured as `npm start` runs it; BENCH_NODE_FLAGS
 * replaces them to try others.
 */
export function serverNodeFlags(): string[] {
  if (process.env.BENCH_NODE_FLAGS !== undefined) return process.env.BENCH_NODE_FLAGS.split(/\s+/).filter(Boolean);
  const pkg = JSON.parse(readFileSync(path.join(repoRoot, 'apps/server/package.json'), 'utf8')) as {
    scripts: Record<string, string>;
  };
  const words = (pkg.scripts.start ?? '').split(/\s+/);
  return words
    .slice(
      1,
      words.findIndex((w) => w.endsWith('.mjs')),
    )
    .filter((w) => w.startsWith('--'));
}

/** The server as production runs it (or through tsx), with the probe preloaded. */
function launchServer(mode: 'dist' | 'tsx', env: Record<string, string>): Promise<Launched> {
  // dist: as `npm start` runs it (run.mjs: packages first, then source maps on, then dist/server.js).
  const entry = mode === 'dist' ? [runner, 'server'] : ['--import', 'tsx', serverSrc];
  const flags = mode === 'dist' ? serverNodeFlags() : [];
  return launch(process.execPath, [...flags, '--import', pathToFileURL(probe).href, ...entry], env, 'self');
}

const sleep = (ms: number) => new Promise((r) => setTimeout(r, ms));

/** The server at rest: a few seconds after its first answer, nothing asked of it. */
async function idleProbe(server: Launched): Promise<MemoryProbe> {
  await sleep(3000);
  return server.probe();
}

async function rush(
  server: Launched,
  riders: number,
  concurrency: number,
): Promise<{ result: MemoryRun['rush']; sample: MemoryProbe; peakRss: number; after: MemoryProbe }> {
  const files = await phoneFiles();
  const numbers = Array.from({ length: riders }, (_, i) => i + 1);
  let completed = 0;
  let errors = 0;
  let sample: MemoryProbe | null = null;
  let running = true;
  // One probe a second during the rush; the sample with the highest RSS shows the split at the peak.
  const sampler = (async () => {
    while (running) {
      await sleep(1000);
      if (!running) break;
      const p = await server.probe();
      if (!sample || p.rss > sample.rss) sample = p;
    }
  })();
  const t0 = performance.now();
  // The last rider answered: once their receipt is served, the queue has processed every file.
  let last: { token: string; userId: string } | null = null;
  const worker = async () => {
    for (let n = numbers.shift(); n !== undefined; n = numbers.shift()) {
      const body = multipart(registrationFields({ riderNumber: String(n), paymentMethod: 'gcash' }), [
        { field: 'profileImage', filename: 'profile.jpg', contentType: 'image/jpeg', data: files.profile },
        { field: 'paymentReceipt', filename: 'receipt.jpg', contentType: 'image/jpeg', data: files.receipt },
      ]);
      try {
        const res = await fetch(`${server.url}/api/auth/register-with-uploads`, {
          method: 'POST',
          headers: body.headers,
          body: body.payload,
        });
        const answer = (await res.json().catch(() => null)) as {
          token?: string;
          data?: { user?: { id?: string } };
        } | null;
        if (res.status === 201) {
          completed++;
          const token = answer?.token;
          const userId = answer?.data?.user?.id;
          if (token && userId) last = { token, userId };
        } else errors++;
      } catch {
        errors++;
      }
    }
  };
  await Promise.all(Array.from({ length: concurrency }, worker));
  const seconds = (performance.now() - t0) / 1000;
  // The peak is measured while the file queue drains too (decoding the originals, then the
  // OCR worker reading the receipts), not only under the requests: the sampler keeps going
  // until the last rider's receipt is served, then through READING_SECONDS of reading.
  const drainStart = performance.now();
  const deadline = drainStart + 10 * 60_000;
  while (last && performance.now() < deadline && !(await receiptServed(server.url, last))) await sleep(500);
  const drainSeconds = (performance.now() - drainStart) / 1000;
  await sleep(READING_SECONDS * 1000);
  running = false;
  await sampler;
  const end = await server.probe();
  const after = await idleProbe(server);
  const best: MemoryProbe = sample && (sample as MemoryProbe).rss > end.rss ? sample : end;
  return {
    result: { riders, completed, errors, seconds, perMinute: completed / (seconds / 60), drainSeconds },
    sample: best,
    peakRss: after.peakRss ?? best.rss,
    after,
  };
}

/** Seconds of receipt reading sampled after the queue has processed the files. */
const READING_SECONDS = 20;

/** Whether a rider's receipt is served: files are served only once the queue has processed them. */
async function receiptServed(url: string, rider: { token: string; userId: string }): Promise<boolean> {
  try {
    const res = await fetch(`${url}/api/upload/payment-receipt/${rider.userId}`, {
      headers: { authorization: `Bearer ${rider.token}` },
    });
    await res.arrayBuffer();
    return res.status === 200;
  } catch {
    return false;
  }
}

/**
 * glibc's malloc arena cap, as the production unit of docs/operations.md "Memory" and docs/deploy.md
 * sets it (glibc reads it only at process start). BENCH_MALLOC_ARENA_MAX= (empty) measures
 * glibc's default (8 arenas per core) instead.
 */
export const ARENA_MAX = process.env.BENCH_MALLOC_ARENA_MAX ?? '2';

export async function runMemoryFor(kind: DbKind, mode = serverMode()): Promise<MemoryRun> {
  const riders = Number(process.env.BENCH_MEMORY_RIDERS ?? 990);
  const concurrency = Number(process.env.BENCH_CONCURRENCY ?? 16);
  const dir = tempDir('rally-bench-memory-');
  const pg = kind === 'postgres' ? await freshPgDatabase() : null;
  const env: Record<string, string> = {
    DATA_DIR: dir.path,
    ...(pg ? { DATABASE_URL: pg.url } : {}),
    ...(ARENA_MAX ? { MALLOC_ARENA_MAX: ARENA_MAX } : {}),
  };
  try {
    // The order of an event: a first start on an empty store, registration opens (the
    // rush runs on that same process), then a restart with the riders in the store.
    const first = await launchServer(mode, env);
    let idleFirst: MemoryProbe;
    let r: Awaited<ReturnType<typeof rush>>;
    try {
      idleFirst = await idleProbe(first);
      r = await rush(first, riders, concurrency);
    } finally {
      await first.stop();
    }
    const server = await launchServer(mode, env);
    try {
      return {
        db: kind,
        server: mode,
        firstStartMs: first.firstAnswerMs,
        idleFirst,
        restartMs: server.firstAnswerMs,
        restartCpuMs: server.firstAnswerCpuMs,
        idle: await idleProbe(server),
        rushSample: r.sample,
        peakRss: r.peakRss,
        afterRush: r.after,
        rush: r.result,
      };
    } finally {
      await server.stop();
    }
  } finally {
    await pg?.drop();
    dir.remove();
  }
}

/**
 * `npm start` from the repository root on a checkout whose builds are current, as an
 * organiser restarts the server: the command to the first answer, npm included. The store
 * is an empty embedded one made by a first (untimed) start, so no initdb is timed.
 */
export async function timeNpmStart(): Promise<{ ms: number; cpuMs: number | null }> {
  const dir = tempDir('rally-bench-npmstart-');
  try {
    const warm = await launch('npm', ['start'], { DATA_DIR: dir.path });
    await warm.stop();
    const timed = await launch('npm', ['start'], { DATA_DIR: dir.path });
    await timed.stop();
    return { ms: timed.firstAnswerMs, cpuMs: timed.firstAnswerCpuMs };
  } finally {
    dir.remove();
  }
}

export async function runMemory(kinds: DbKind[]): Promise<MemoryReport> {
  const runs: MemoryRun[] = [];
  const only = process.env.BENCH_MEMORY_DB;
  for (const kind of kinds) if (!only || only === kind) runs.push(await runMemoryFor(kind));
  let npmStartMs: number | null = null;
  let npmStartCpuMs: number | null = null;
  let npmStartNote = 'not measured (BENCH_MEMORY_NPM_START=0)';
  if (process.env.BENCH_MEMORY_NPM_START !== '0') {
    try {
      ({ ms: npmStartMs, cpuMs: npmStartCpuMs } = await timeNpmStart());
      npmStartNote = '';
    } catch (err) {
      npmStartNote = `npm start failed: ${(err as Error).message.slice(0, 300)}`;
    }
  }
  return { runs, npmStartMs, npmStartCpuMs, npmStartNote };
}

/**
 * The figures before this work (issue #19, a fresh clone on 2 cores: the server through tsx,
 * PGlite at its defaults, `npm start` rebuilding the web client every time), and the same
 * benchmark run on that code on this machine before any change (commit 318cef6).
 */
export const PREVIOUS = {
  issue: {
    pglite: { idle: 922, peak: 984 },
    postgres: { idle: 214, peak: 371 },
    npmStartMs: 8800,
    serverStartMs: 2100,
  },
  baseline: JSON.parse(
    existsSync(path.join(repoRoot, 'apps/server/bench/memory-baseline.json'))
      ? readFileSync(path.join(repoRoot, 'apps/server/bench/memory-baseline.json'), 'utf8')
      : 'null',
  ) as MemoryReport | null,
};

const mb = (x: number | null | undefined) => (x === null || x === undefined ? '' : `${Math.round(x)}`);

export function memoryRows(report: MemoryReport) {
  const rows: Record<string, string | number>[] = [];
  for (const r of report.runs) {
    const before = PREVIOUS.baseline?.runs.find((b) => b.db === r.db);
    const issue = PREVIOUS.issue[r.db];
    const label = DB_LABEL[r.db];
    const row = (measure: string, now: string, base: string, iss: string) =>
      rows.push({ database: label, measure, now, 'before (this machine)': base, 'before (issue)': iss });
    row('idle RSS MB, first start on an empty store', mb(r.idleFirst.rss), mb(before?.idleFirst.rss), mb(issue.idle));
    row(
      `peak RSS MB, rush of ${r.rush.riders} riders and the file queue's drain (${r.rush.drainSeconds?.toFixed(0) ?? '—'} s, then ${READING_SECONDS} s of receipt reading)`,
      mb(r.peakRss),
      mb(before?.peakRss),
      mb(issue.peak),
    );
    row('idle RSS MB, after the rush', mb(r.afterRush.rss), mb(before?.afterRush.rss), '');
    row(`idle RSS MB, restarted with ${r.rush.completed} riders`, mb(r.idle.rss), mb(before?.idle.rss), '');
    row(
      'first start to first answer s',
      (r.firstStartMs / 1000).toFixed(2),
      before ? (before.firstStartMs / 1000).toFixed(2) : '',
      '',
    );
    const cpu = (x: number | null | undefined) => (x == null ? '' : ` (CPU ${(x / 1000).toFixed(2)})`);
    row(
      'restart to first answer s (CPU s of the process)',
      `${(r.restartMs / 1000).toFixed(2)}${cpu(r.restartCpuMs)}`,
      before ? (before.restartMs / 1000).toFixed(2) : '',
      r.db === 'pglite' ? (PREVIOUS.issue.serverStartMs / 1000).toFixed(1) : '',
    );
    row(
      'rush registrations per minute (errors)',
      `${Math.round(r.rush.perMinute)} (${r.rush.errors})`,
      before ? `${Math.round(before.rush.perMinute)} (${before.rush.errors})` : '',
      '',
    );
  }
  rows.push({
    database: 'embedded (PGlite)',
    measure: '`npm start` to first answer s (CPU s of npm and the server), unchanged checkout',
    now:
      report.npmStartMs === null
        ? report.npmStartNote
        : `${(report.npmStartMs / 1000).toFixed(2)}${report.npmStartCpuMs == null ? '' : ` (CPU ${(report.npmStartCpuMs / 1000).toFixed(2)})`}`,
    'before (this machine)':
      PREVIOUS.baseline?.npmStartMs != null ? (PREVIOUS.baseline.npmStartMs / 1000).toFixed(2) : '',
    'before (issue)': (PREVIOUS.issue.npmStartMs / 1000).toFixed(1),
  });
  return rows;
}

/** Where the memory is: the probe's split at rest and at the rush's peak. */
export function memorySplitRows(report: MemoryReport) {
  const rows: Record<string, string | number>[] = [];
  const add = (label: string, when: string, p: MemoryProbe, peak?: number) =>
    rows.push({
      database: label,
      when,
      'RSS MB': mb(peak ?? p.rss),
      'anonymous MB': mb(p.rssAnon),
      'file-backed MB': mb(p.rssFile),
      'V8 heap used / total MB': `${mb(p.heapUsed)} / ${mb(p.heapTotal)}`,
      'external MB': mb(p.external),
      'array buffers MB': mb(p.arrayBuffers),
      'WebAssembly memory MB': p.wasmMemories ? `${mb(p.wasmMemory)} (${p.wasmMemories})` : '0',
    });
  for (const r of report.runs) {
    const label = DB_LABEL[r.db];
    add(label, 'idle, first start', r.idleFirst);
    add(label, 'rush, highest sample', r.rushSample);
    add(label, 'idle, after the rush', r.afterRush);
    add(label, 'idle, restarted with the riders', r.idle);
  }
  return rows;
}

async function main() {
  cleanUpOnInterrupt();
  const kinds: DbKind[] = ['pglite'];
  if (await pgReachable()) kinds.push('postgres');
  const report = await runMemory(kinds);
  console.table(memoryRows(report));
  console.table(memorySplitRows(report));
  if (process.env.BENCH_MEMORY_JSON) console.log(`MEMORY_RESULT ${JSON.stringify(report)}`);
}

if (import.meta.url === pathToFileURL(process.argv[1] ?? '').href) {
  main().catch((err) => {
    console.error(err);
    process.exit(1);
  });
}
