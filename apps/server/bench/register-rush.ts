// Benchmark (not a test): a registration rush with the uploads a phone sends (a 12-MP
// photo and a 1080x1920 screenshot) against the real server process, beside the raw
// argon2id hash rate at the same parameters, in one run on the same machine. Rider numbers
// run 1..1000, so the rush runs in rounds of up to 1000 registrations, each on a fresh data
// directory; only the time under load counts toward the rate.
//
// After each round's load, the file queue drains (DESIGN.md §13): the time from the end of
// the load until every acknowledged rider's images are served (a file is served only once
// processed), and the time from each registration to its files' processing (p95, from the
// queue's rows). In the first round the server is killed (SIGKILL) halfway through the
// drain and started again on the same data: files lost are those never served after it.
//
//   npm run bench:register                      embedded database (PGlite)
//   BENCH_DATABASE_URL=postgres://... npm run bench:register   PostgreSQL (one fresh database per round)
//   BENCH_SECONDS=60 BENCH_CONCURRENCY=16 tune the load; BENCH_UPLOADS=small sends the earlier, smaller uploads.
import { existsSync, mkdtempSync, readFileSync, rmSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { hash } from '@node-rs/argon2';
import { sql } from 'drizzle-orm';
import { ARGON2_PARAMS } from '../src/config';
import { openDatabase } from '../src/db/client';
import { multipart, registrationFields } from '../src/test/factories';
import { startServer } from '../src/test/processes';
import { freshPgDatabase, phoneFiles, phoneSizedFiles } from './common';

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

async function main() {
  console.log(
    `Machine: ${os.cpus().length} cores (${os.cpus()[0]?.model.trim()}), ${Math.round(os.totalmem() / 2 ** 30)} GiB, Node ${process.version}`,
  );
  console.log(
    `argon2id m=${ARGON2_PARAMS.memoryCost} KiB t=${ARGON2_PARAMS.timeCost} p=${ARGON2_PARAMS.parallelism}; concurrency ${CONCURRENCY}; ${SECONDS} s of load on ${PG_URL ? 'PostgreSQL' : 'the embedded database (PGlite)'}`,
  );
  // BENCH_UPLOADS=small: the earlier benchmark's uploads (193 KB + 521 KB), for comparison.
  const files = process.env.BENCH_UPLOADS === 'small' ? await phoneFiles() : await phoneSizedFiles();
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
  const drains: Array<{ round: number; riders: number; seconds: number; killed: boolean }> = [];
  const processedMs: number[] = [];
  let filesLost = 0;
  let filesChecked = 0;
  while (loadMs < SECONDS * 1000) {
    round++;
    const dataDir = mkdtempSync(path.join(os.tmpdir(), 'rally-bench-'));
    const pgdb = PG_URL ? await freshPgDatabase(PG_URL) : null;
    const env = {
      DATA_DIR: dataDir,
      RATE_LIMITS: 'off',
      LOG_LEVEL: 'warn',
      ...(pgdb ? { DATABASE_URL: pgdb.url } : {}),
    };
    let server = await startServer(env);
    const acked: Array<{ userId: string; token: string }> = [];
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
          const json = (await res.json()) as {
            token?: string;
            data?: { user?: { id?: string; riderNumber?: number } };
          };
          statusCounts.set(res.status, (statusCounts.get(res.status) ?? 0) + 1);
          if (res.status === 201) {
            ok++;
            latencies.push(performance.now() - t0);
            acked.push({ userId: json.data?.user?.id as string, token: json.token as string });
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
    const roundMs = performance.now() - roundStart;
    loadMs += roundMs;
    console.log(`Round ${round}: ${acked.length} registrations acknowledged in ${(roundMs / 1000).toFixed(1)} s`);
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

    // The drain: every acknowledged rider's two images, served once processed. In the first
    // round the server is killed halfway through and started again on the same data.
    const drainStart = performance.now();
    const killAt = round === 1 ? Math.floor(acked.length / 2) : -1;
    const drainDeadline = Date.now() + 15 * 60_000;
    for (const [i, rider] of acked.entries()) {
      if (i === killAt) {
        await server.stop('SIGKILL');
        server = await startServer(env);
      }
      for (const kind of ['profile-image', 'payment-receipt']) {
        filesChecked++;
        while (!(await served(server.url, rider, kind))) {
          if (Date.now() > drainDeadline) {
            filesLost++;
            break;
          }
          await new Promise((r) => setTimeout(r, 100));
        }
      }
    }
    drains.push({
      round,
      riders: acked.length,
      seconds: (performance.now() - drainStart) / 1000,
      killed: killAt >= 0,
    });
    await server.stop('SIGTERM');
    // From each registration (its transaction's start, when the job row was written) to its
    // file processed, from the queue's own rows.
    const database = await openDatabase(pgdb ? { databaseUrl: pgdb.url } : { dataDir });
    const rows = (await database.db.execute(
      sql`select extract(epoch from (finished_at - created_at)) * 1000 as ms from file_jobs where kind = 'process' and status = 'done'`,
    )) as unknown as { rows: Array<{ ms: string | number }> };
    processedMs.push(...rows.rows.map((r) => Number(r.ms)));
    await database.close();
    await pgdb?.drop();
    rmSync(dataDir, { recursive: true, force: true });
    // Each round is a fresh database whose numbers start at 1 again: count this round's
    // duplicates now, then start the next round from an empty map.
    duplicates += [...numbersSeen.values()].filter((c) => c > 1).length;
    numbersSeen.clear();
  }
  const perMinute = ok / (loadMs / 60_000);
  processedMs.sort((a, b) => a - b);
  const processedP95 = processedMs[Math.min(processedMs.length - 1, Math.ceil(0.95 * processedMs.length) - 1)] ?? null;
  const clean = drains.filter((d) => !d.killed);
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
  for (const d of drains) {
    console.log(
      `Round ${d.round}: queue drained ${d.riders} riders' files in ${d.seconds.toFixed(1)} s after the load${d.killed ? ' (server killed with SIGKILL halfway and restarted)' : ''}`,
    );
  }
  console.log(
    `Registration to processed file: p95 ${processedP95?.toFixed(0)} ms over ${processedMs.length} files; files lost: ${filesLost} of ${filesChecked}`,
  );
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
    `BENCH_RESULT ${JSON.stringify({ perMinute, hashesPerMinute, completed: ok, errors, duplicates, p50: Number(p(0.5)), p99: Number(p(0.99)), loadSeconds: loadMs / 1000, rounds: round, concurrency: CONCURRENCY, argon2CpuMsPerHash: argon.cpuMsPerHash, serverCpuMsPerRegistration: cpuPerRegistration, eventLoopCpuMsPerRegistration: eventLoopPerRegistration, statuses: Object.fromEntries(statusCounts), database: PG_URL ? 'postgres' : 'pglite', upload: { profileBytes: files.profile.length, receiptBytes: files.receipt.length }, drains, drainSecondsClean: clean.length ? clean.reduce((a, d) => a + d.seconds, 0) / clean.length : null, processedP95Ms: processedP95, filesProcessed: processedMs.length, filesChecked, filesLost })}`,
  );
}

/** Whether a rider's image is served (a file is served only once the queue has processed it). */
function served(base: string, rider: { userId: string; token: string }, kind: string): Promise<boolean> {
  return fetch(`${base}/api/upload/${kind}/${rider.userId}`, { headers: { authorization: `Bearer ${rider.token}` } })
    .then(async (r) => {
      await r.arrayBuffer();
      return r.status === 200;
    })
    .catch(() => false);
}

main().catch((err) => {
  console.error(err);
  process.exit(1);
});
