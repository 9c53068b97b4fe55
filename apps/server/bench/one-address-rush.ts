// Benchmark (issue 26, "a crowd on one address is not an attack"): the product's defaults,
// rate limits on, and every request from one address (127.0.0.1), as riders behind a
// carrier's NAT or on a club's Wi-Fi arrive. Measured before the change on those defaults: a
// registration rush stopped at 200 riders, then answered 429 216 times within the minute;
// after 1,500 requests for a static script, GET /user/{id} answered 429 application/json.
//
// Here: RIDERS registrations (500) through POST /api/auth/register-with-uploads with the
// rush's phone-like uploads, CONCURRENCY at a time. A registration the server asks for a
// challenge (403 CHALLENGE_REQUIRED) is sent again, files and all, with a solved one, as the
// form does. In the field each phone solves its own challenge (in a Web Worker) while the
// server serves the others; here one process would solve all of them on the server's two
// cores, so they are fetched and solved before the rush (altcha-lib, the phone's algorithm),
// timed per challenge, and handed out as the server asks. Then, from the same address, 1,500
// requests for the web build's entry script and the rider pages. Reports completed, 429s,
// challenges, and times.
//
//   npx tsx apps/server/bench/one-address-rush.ts     (PGlite, and PostgreSQL when reachable)
//   BENCH_ONE_ADDRESS_RIDERS (500), BENCH_ONE_ADDRESS_CONCURRENCY (16)
import { existsSync, readFileSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { CHALLENGE_HEADER, type Challenge } from '@rally/shared/contracts/challenge';
import { solveChallenge } from 'altcha-lib';
import { deriveKey } from 'altcha-lib/algorithms/pbkdf2';
import { loadConfig } from '../src/config';
import { multipart, registrationFields } from '../src/test/factories';
import {
  DB_LABEL,
  type DbKind,
  freshServer,
  type PgliteTemplate,
  percentile,
  pgReachable,
  phoneFiles,
  repoRoot,
  runAsScript,
} from './common';

const RIDERS = Number(process.env.BENCH_ONE_ADDRESS_RIDERS ?? 500);
const CONCURRENCY = Number(process.env.BENCH_ONE_ADDRESS_CONCURRENCY ?? 16);
const STATIC_REQUESTS = 1500;

export interface OneAddressResult {
  database: DbKind;
  riders: number;
  concurrency: number;
  /** Riders registered (201), and every answer's status with its count. */
  completed: number;
  tooMany: number;
  statuses: Record<string, number>;
  /** Registrations asked for a challenge (403 CHALLENGE_REQUIRED), and answers refused (400 CHALLENGE_*). */
  challenged: number;
  challengeRefused: number;
  /** Time in this process solving challenges: sum, and per challenge p50/p95. */
  solveSeconds: number;
  solveP50Ms: number;
  solveP95Ms: number;
  /** One rider's first send to its 201, challenge included when asked. */
  p50Ms: number;
  p99Ms: number;
  seconds: number;
  /** After 1,500 requests for the entry script from the same address: what the pages answered. */
  pages: { path: string; status: number; contentType: string }[] | null;
  staticStatuses: Record<string, number> | null;
}

const log = (line: string) => console.error(`  one address | ${line}`);

/** The entry script the web build's shell loads, or null without a build. */
function entryScript(): string | null {
  const shell = path.join(repoRoot, 'apps/web/dist/index.html');
  if (!existsSync(shell)) return null;
  return /<script[^>]+src="(\/assets\/[^"]+\.js)"/.exec(readFileSync(shell, 'utf8'))?.[1] ?? null;
}

export async function runOneAddressRush(kind: DbKind, template: PgliteTemplate): Promise<OneAddressResult> {
  // The product's defaults: limits on (the other benchmarks turn them off to measure the work).
  const fresh = await freshServer(kind, template, { RATE_LIMITS: 'on' });
  const base = fresh.url;
  try {
    const files = await phoneFiles();
    const statuses = new Map<number, number>();
    const count = (status: number) => statuses.set(status, (statuses.get(status) ?? 0) + 1);
    const solveMs: number[] = [];
    const latencies: number[] = [];
    let challenged = 0;
    let challengeRefused = 0;
    let completed = 0;
    let firstRider: string | null = null;

    const solveOne = async (): Promise<string> => {
      const res = await fetch(`${base}/api/auth/registration-challenge`);
      if (res.status !== 200) throw new Error(`challenge answered ${res.status}`);
      const challenge = ((await res.json()) as { data: Challenge }).data;
      const t0 = performance.now();
      const solution = await solveChallenge({ challenge, deriveKey });
      solveMs.push(performance.now() - t0);
      if (!solution) throw new Error('challenge not solved');
      return Buffer.from(JSON.stringify({ challenge, solution })).toString('base64');
    };
    // One per registration the server will ask (all past the default threshold), solved one
    // per core at a time so each time is one solver's alone, as on a phone.
    const pool: string[] = [];
    let solving = 0;
    const poolStart = performance.now();
    const asked = Math.max(0, RIDERS - loadConfig({}).rateLimits.registrationsPerAddressPerHour);
    await Promise.all(
      Array.from({ length: os.cpus().length }, async () => {
        while (pool.length + solving < asked) {
          solving++;
          pool.push(await solveOne());
          solving--;
        }
      }),
    );
    log(`${pool.length} challenges solved beforehand in ${((performance.now() - poolStart) / 1000).toFixed(1)} s`);
    const solved = async (): Promise<string> => pool.pop() ?? solveOne();

    let next = 0;
    const rider = async (n: number) => {
      const t0 = performance.now();
      let answer: string | undefined;
      for (let attempt = 0; attempt < 3; attempt++) {
        const body = multipart(registrationFields({ riderNumber: String(n), paymentMethod: 'gcash' }), [
          { field: 'profileImage', filename: 'profile.jpg', contentType: 'image/jpeg', data: files.profile },
          { field: 'paymentReceipt', filename: 'receipt.jpg', contentType: 'image/jpeg', data: files.receipt },
        ]);
        const res = await fetch(`${base}/api/auth/register-with-uploads`, {
          method: 'POST',
          headers: answer ? { ...body.headers, [CHALLENGE_HEADER]: answer } : body.headers,
          body: body.payload,
        });
        const json = (await res.json()) as { code?: string; data?: { user?: { id: string } } };
        count(res.status);
        if (res.status === 201) {
          completed++;
          latencies.push(performance.now() - t0);
          firstRider ??= json.data?.user?.id ?? null;
          return;
        }
        if (res.status === 403 && json.code === 'CHALLENGE_REQUIRED') challenged++;
        else if (res.status === 400 && json.code?.startsWith('CHALLENGE_')) challengeRefused++;
        else return; // 429 or anything else: counted, not retried (a rider would see it)
        answer = await solved();
      }
    };
    const started = performance.now();
    await Promise.all(
      Array.from({ length: CONCURRENCY }, async () => {
        while (next < RIDERS) await rider(++next);
      }),
    );
    const seconds = (performance.now() - started) / 1000;
    latencies.sort((a, b) => a - b);
    solveMs.sort((a, b) => a - b);
    log(
      `${DB_LABEL[kind]}: ${completed}/${RIDERS} registered in ${seconds.toFixed(1)} s; statuses ${JSON.stringify(Object.fromEntries(statuses))}`,
    );

    // The second measurement, from the same address after the rush.
    const script = entryScript();
    let pages: OneAddressResult['pages'] = null;
    let staticStatuses: OneAddressResult['staticStatuses'] = null;
    if (script && firstRider) {
      const got = new Map<number, number>();
      for (let i = 0; i < STATIC_REQUESTS; i++) {
        const res = await fetch(`${base}${script}`);
        await res.arrayBuffer();
        got.set(res.status, (got.get(res.status) ?? 0) + 1);
      }
      staticStatuses = Object.fromEntries(got);
      pages = [];
      for (const pagePath of [`/user/${firstRider}`, '/me', '/register']) {
        const res = await fetch(`${base}${pagePath}`);
        await res.arrayBuffer();
        pages.push({
          path: pagePath.startsWith('/user/') ? '/user/{id}' : pagePath,
          status: res.status,
          contentType: res.headers.get('content-type') ?? '',
        });
      }
      log(`after ${STATIC_REQUESTS} × ${script}: ${JSON.stringify(staticStatuses)}; pages ${JSON.stringify(pages)}`);
    } else log('no web build (apps/web/dist): the static and page requests were not measured');

    return {
      database: kind,
      riders: RIDERS,
      concurrency: CONCURRENCY,
      completed,
      tooMany: statuses.get(429) ?? 0,
      statuses: Object.fromEntries(statuses),
      challenged,
      challengeRefused,
      solveSeconds: solveMs.reduce((a, b) => a + b, 0) / 1000,
      solveP50Ms: percentile(solveMs, 0.5),
      solveP95Ms: percentile(solveMs, 0.95),
      p50Ms: percentile(latencies, 0.5),
      p99Ms: percentile(latencies, 0.99),
      seconds,
      pages,
      staticStatuses,
    };
  } finally {
    await fresh.close();
  }
}

export function oneAddressRows(results: OneAddressResult[]): Record<string, string | number>[] {
  return results.map((r) => ({
    database: DB_LABEL[r.database],
    riders: r.riders,
    completed: r.completed,
    '429s': r.tooMany,
    'challenges asked': r.challenged,
    'answers refused': r.challengeRefused,
    'time s': r.seconds.toFixed(1),
    'per minute': Math.round(r.completed / (r.seconds / 60)),
    'rider p50 ms': Number.isFinite(r.p50Ms) ? Math.round(r.p50Ms) : '-',
    'rider p99 ms': Number.isFinite(r.p99Ms) ? Math.round(r.p99Ms) : '-',
    'solve p50 / p95 ms': Number.isFinite(r.solveP50Ms)
      ? `${Math.round(r.solveP50Ms)} / ${Math.round(r.solveP95Ms)}`
      : '-',
    'pages after 1,500 script requests': r.pages
      ? r.pages.map((p) => `${p.path} ${p.status} ${p.contentType.split(';')[0]}`).join(', ')
      : 'no web build',
  }));
}

runAsScript(import.meta.url, async (template) => {
  const kinds: DbKind[] = (await pgReachable()) ? ['pglite', 'postgres'] : ['pglite'];
  const results: OneAddressResult[] = [];
  for (const kind of kinds) results.push(await runOneAddressRush(kind, template));
  console.table(oneAddressRows(results));
});
