// Benchmark (not a test): a registration rush with uploads against the real server
// process, beside the raw argon2id hash rate at the same parameters, in one run on the
// same machine. Rider numbers run 1..1000, so the rush runs in rounds of up to 1000
// registrations, each on a fresh data directory; only the time under load counts.
//
//   npm run bench:register                      embedded database (PGlite)
//   BENCH_DATABASE_URL=postgres://... npm run bench:register   PostgreSQL (one fresh database per round)
//   BENCH_SECONDS=60 BENCH_CONCURRENCY=16 tune the load.
import { existsSync, mkdtempSync, readFileSync, rmSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { hash } from '@node-rs/argon2';
import pg from 'pg';
import { ARGON2_PARAMS } from '../src/config';
import { multipart, registrationFields } from '../src/test/factories';
import { startServer } from '../src/test/processes';
import { phoneFiles } from './common';

const SECONDS = Number(process.env.BENCH_SECONDS ?? 60);
const CONCURRENCY = Number(process.env.BENCH_CONCURRENCY ?? 16);
const PG_URL = process.env.BENCH_DATABASE_URL;

/**
 * CPU time (ms) a process has used: all its threads, and its main thread alone (the event
 * loop, which runs JavaScript and the embedded database). Linux only (/proc); null elsewhere.
 * On a shared machine, CPU per registration moves far less with the neighbours' load than
 * registrations per minute do.
 */
function processCpuMs(pid: number | undefined): { total: number; main: number } | null {
  if (!pid || !existsSync(`/proc/${pid}/stat`)) return null;
  const ticks = (file: string) => {
    const stat = readFileSync(file, 'utf8');
    const f = stat.slice(stat.lastIndexOf(')') + 2).split(' ');
    return Number(f[11]) + Number(f[12]); // utime + stime, in clock ticks (USER_HZ, 100 on Linux)
  };
  try {
    return { total: ticks(`/proc/${pid}/stat`) * 10, main: ticks(`/proc/${pid}/task/${pid}/stat`) * 10 };
  } catch {
    return null;
  }
}

async function argon2Rate(seconds: number, concurrency: number): Promise<{ perSecond: number; cpuMsPerHash: number }> {
  const end = Date.now() + seconds * 1000;
  let done = 0;
  const worker = async () => {
    let i = 0;
    while (Date.now() < end) {
      await hash(`Warrior-${i++}-password`, { algorithm: 2, ...ARGON2_PARAMS });
      done++;
    }
  };
  const start = performance.now();
  const cpu0 = process.cpuUsage();
  await Promise.all(Array.from({ length: concurrency }, worker));
  const cpu = process.cpuUsage(cpu0);
  return {
    perSecond: done / ((performance.now() - start) / 1000),
    cpuMsPerHash: (cpu.user + cpu.system) / 1000 / done,
  };
}

async function freshPgDatabase(): Promise<{ url: string; drop(): Promise<void> }> {
  const name = `rally_bench_${Date.now().toString(36)}`;
  const c = new pg.Client({ connectionString: PG_URL });
  await c.connect();
  await c.query(`create database ${name}`);
  await c.end();
  const url = new URL(PG_URL as string);
  url.pathname = `/${name}`;
  return {
    url: url.toString(),
    drop: async () => {
      const d = new pg.Client({ connectionString: PG_URL });
      await d.connect();
      await d.query(`drop database if exists ${name} with (force)`);
      await d.end();
    },
  };
}

async function main() {
  console.log(
    `Machine: ${os.cpus().length} cores (${os.cpus()[0]?.model.trim()}), ${Math.round(os.totalmem() / 2 ** 30)} GiB, Node ${process.version}`,
  );
  console.log(
    `argon2id m=${ARGON2_PARAMS.memoryCost} KiB t=${ARGON2_PARAMS.timeCost} p=${ARGON2_PARAMS.parallelism}; concurrency ${CONCURRENCY}; ${SECONDS} s of load on ${PG_URL ? 'PostgreSQL' : 'the embedded database (PGlite)'}`,
  );
  const files = await phoneFiles();
  console.log(
    `Upload per registration: profile ${(files.profile.length / 1024).toFixed(0)} KB + receipt ${(files.receipt.length / 1024).toFixed(0)} KB`,
  );

  const argon = await argon2Rate(15, CONCURRENCY);
  const hashRate = argon.perSecond;
  console.log(`Raw argon2id: ${hashRate.toFixed(1)} hashes/s (${argon.cpuMsPerHash.toFixed(1)} ms CPU per hash)`);

  let ok = 0;
  let errors = 0;
  const statusCounts = new Map<number, number>();
  let loadMs = 0;
  const numbersSeen = new Map<number, number>();
  let duplicates = 0;
  const latencies: number[] = [];
  let serverCpuMs: number | null = 0;
  let eventLoopCpuMs: number | null = 0;
  let round = 0;
  while (loadMs < SECONDS * 1000) {
    round++;
    const dataDir = mkdtempSync(path.join(os.tmpdir(), 'rally-bench-'));
    const pgdb = PG_URL ? await freshPgDatabase() : null;
    const server = await startServer({
      DATA_DIR: dataDir,
      RATE_LIMITS: 'off',
      LOG_LEVEL: 'warn',
      ...(pgdb ? { DATABASE_URL: pgdb.url } : {}),
    });
    const numbers = Array.from({ length: 1000 }, (_, i) => i + 1);
    const remainingMs = SECONDS * 1000 - loadMs;
    const cpuBefore = processCpuMs(server.child.pid);
    const roundStart = performance.now();
    const roundNumbers = new Set<number>();
    const worker = async () => {
      while (numbers.length > 0 && performance.now() - roundStart < remainingMs) {
        const n = numbers.shift() as number;
        const body = multipart(registrationFields({ riderNumber: String(n), paymentMethod: 'gcash' }), [
          { field: 'profileImage', filename: 'profile.jpg', contentType: 'image/jpeg', data: files.profile },
          { field: 'paymentReceipt', filename: 'receipt.jpg', contentType: 'image/jpeg', data: files.receipt },
        ]);
        const t0 = performance.now();
        try {
          const res = await fetch(`${server.url}/api/auth/register-with-uploads`, {
            method: 'POST',
            headers: body.headers,
            body: body.payload,
          });
          const json = (await res.json()) as { data?: { user?: { riderNumber?: number } } };
          statusCounts.set(res.status, (statusCounts.get(res.status) ?? 0) + 1);
          if (res.status === 201) {
            ok++;
            latencies.push(performance.now() - t0);
            const got = json.data?.user?.riderNumber as number;
            roundNumbers.add(got);
            numbersSeen.set(got, (numbersSeen.get(got) ?? 0) + 1);
          } else errors++;
        } catch {
          errors++;
        }
      }
    };
    await Promise.all(Array.from({ length: CONCURRENCY }, worker));
    loadMs += performance.now() - roundStart;
    const cpuAfter = processCpuMs(server.child.pid);
    if (cpuBefore && cpuAfter && serverCpuMs !== null && eventLoopCpuMs !== null) {
      serverCpuMs += cpuAfter.total - cpuBefore.total;
      eventLoopCpuMs += cpuAfter.main - cpuBefore.main;
    } else {
      serverCpuMs = null;
      eventLoopCpuMs = null;
    }
    // Duplicates within a round would be two riders on one number.
    const taken = (await (await fetch(`${server.url}/api/rider-numbers/taken`)).json()) as {
      data: { takenNumbers: number[] };
    };
    if (taken.data.takenNumbers.length !== roundNumbers.size) errors++;
    await server.stop('SIGTERM');
    await pgdb?.drop();
    rmSync(dataDir, { recursive: true, force: true });
    // Each round is a fresh database whose numbers start at 1 again: count this round's
    // duplicates now, then start the next round from an empty map.
    duplicates += [...numbersSeen.values()].filter((c) => c > 1).length;
    numbersSeen.clear();
  }
  const perMinute = ok / (loadMs / 60_000);
  const hashesPerMinute = hashRate * 60;
  latencies.sort((a, b) => a - b);
  const p = (q: number) => latencies[Math.min(latencies.length - 1, Math.floor(q * latencies.length))]?.toFixed(0);
  console.log('');
  console.table({
    'registration rush': {
      'per minute': Math.round(perMinute),
      completed: ok,
      errors,
      'duplicate numbers': duplicates,
      'p50 ms': p(0.5),
      'p99 ms': p(0.99),
      'load seconds': (loadMs / 1000).toFixed(1),
      rounds: round,
    },
    'raw argon2id': { 'per minute': Math.round(hashesPerMinute) },
  });
  console.log(`Statuses: ${JSON.stringify(Object.fromEntries(statusCounts))}`);
  const cpuPerRegistration = serverCpuMs !== null && ok > 0 ? serverCpuMs / ok : null;
  const eventLoopPerRegistration = eventLoopCpuMs !== null && ok > 0 ? eventLoopCpuMs / ok : null;
  if (cpuPerRegistration !== null && eventLoopPerRegistration !== null) {
    console.log(
      `Server CPU per registration: ${cpuPerRegistration.toFixed(1)} ms (event-loop thread ${eventLoopPerRegistration.toFixed(1)} ms, other threads: argon2id, sharp, GC ${(cpuPerRegistration - eventLoopPerRegistration).toFixed(1)} ms); ${os.cpus().length} cores at that cost: at most ${Math.round((os.cpus().length * 60_000) / cpuPerRegistration)}/min`,
    );
  }
  console.log(
    `Registrations per minute: ${perMinute.toFixed(0)}; argon2id hashes per minute: ${hashesPerMinute.toFixed(0)}; ratio ${((100 * perMinute) / hashesPerMinute).toFixed(1)}%`,
  );
  // For run-all.ts, which runs this file as a child process and reads its figures from here.
  console.log(
    `BENCH_RESULT ${JSON.stringify({ perMinute, hashesPerMinute, completed: ok, errors, duplicates, p50: Number(p(0.5)), p99: Number(p(0.99)), loadSeconds: loadMs / 1000, rounds: round, concurrency: CONCURRENCY, argon2CpuMsPerHash: argon.cpuMsPerHash, serverCpuMsPerRegistration: cpuPerRegistration, eventLoopCpuMsPerRegistration: eventLoopPerRegistration, statuses: Object.fromEntries(statusCounts), database: PG_URL ? 'postgres' : 'pglite' })}`,
  );
}

main().catch((err) => {
  console.error(err);
  process.exit(1);
});
