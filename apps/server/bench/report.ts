// The goals of the issue judged against one run's figures, and the tables that show them
// (benchmarks-doc.ts writes docs/benchmarks.md from these).

import type { BoardFanoutResult } from './board-fanout';
import { DB_LABEL, type DbKind, type Machine } from './common';
import type { ContentionResult } from './contention';
import type { LandingReport } from './landing';
import type { MemoryReport } from './memory';
import type { ReadOptions, ReadsReport } from './reads';
import type { ScanSyncResult } from './scan-sync';
import type { ScannerVerdictReport } from './scanner-verdict';

export interface RushResult {
  perMinute: number;
  hashesPerMinute: number;
  completed: number;
  errors: number;
  duplicates: number;
  p50: number;
  p99: number;
  loadSeconds: number;
  rounds: number;
  concurrency: number;
  statuses: Record<string, number>;
  database: DbKind;
  /** CPU per raw argon2id hash, and the server's CPU per registration (all threads, and its event loop); null off Linux. */
  argon2CpuMsPerHash?: number;
  serverCpuMsPerRegistration?: number | null;
  eventLoopCpuMsPerRegistration?: number | null;
  /** Cores of the machine the rush ran on. */
  cores: number;
  upload: string;
  machineLine: string;
  /** The file queue after the load (DESIGN.md §13): each round's drain, one round killed with SIGKILL halfway. */
  drains?: { round: number; riders: number; seconds: number; killed: boolean }[];
  drainSecondsClean?: number | null;
  /** From a registration's answer to its files served, p95, over `filesProcessed` files. */
  processedP95Ms?: number | null;
  filesProcessed?: number;
  filesChecked?: number;
  filesLost?: number;
}

export interface BenchRun {
  started: Date;
  machine: Machine;
  loadAtStart: number;
  loadAtEnd: number;
  commit: string;
  pgUrl: string;
  kinds: DbKind[];
  options: { rushSeconds: number; lighthouseRuns: number; reads: ReadOptions };
  errors: string[];
  stepSeconds: Record<string, number>;
  totalSeconds: number;
}

export interface Results {
  /** One per database, embedded first (a run saved before both were measured holds one object). */
  rush?: RushResult[];
  contention: ContentionResult[];
  reads?: ReadsReport;
  landing?: LandingReport;
  scanSync?: ScanSyncResult[];
  board?: BoardFanoutResult[];
  memory?: MemoryReport;
  verdict?: ScannerVerdictReport;
}

export const GOALS = {
  rushPerMinute: 3000,
  rushShareOfArgon: 0.7,
  readShareOfHello: 0.4,
  readP99Ms: 25,
  lighthouseScore: 95,
  lcpMs: 1800,
  cls: 0.05,
  scanFlushSeconds: 60,
  /** Resident memory (MB) of the server process, idle on a fresh store and at the peak of a 990-rider rush. */
  memory: { postgres: { idle: 120, peak: 250 }, pglite: { idle: 350, peak: 450 } },
  npmStartMs: 1500,
  /** From a typed or decoded rider code to the verdict painted on /scan, p95. */
  verdictP95Ms: 300,
} as const;

interface Goal {
  benchmark: string;
  measure: string;
  figure: string;
  goal: string;
  /** null: shown for context, no goal set. */
  pass: boolean | null;
}

export const pct = (x: number) => `${(100 * x).toFixed(1)}%`;
export const int = (x: number) => Math.round(x).toLocaleString('en-US');

const seconds = (x: number) => `${x.toFixed(1)} s`;

/** The round whose drain had the server killed with SIGKILL halfway (the first), and the mean of the others. */
export function rushDrains(r: RushResult) {
  const killed = r.drains?.find((d) => d.killed);
  const clean = (r.drains ?? []).filter((d) => !d.killed);
  return { killed, clean, cleanMean: clean.length ? clean.reduce((a, d) => a + d.seconds, 0) / clean.length : null };
}

/** Files lost across the kill: 0 is the goal, and nothing checked is not a pass. */
export const rushFilesKept = (r: RushResult) => (r.filesChecked ?? 0) > 0 && r.filesLost === 0;

/**
 * Section 1's table: one row per measure, one column per database, each database's rush
 * against the raw argon2id rate measured in its own run (same process, same minutes).
 */
export function rushRows(results: RushResult[]) {
  const row = (measure: string, cell: (r: RushResult) => string | number) =>
    Object.fromEntries([['measure', measure], ...results.map((r) => [DB_LABEL[r.database], cell(r)])]);
  const ms = (x: number | null | undefined) => (x == null ? '—' : `${x.toFixed(0)} ms`);
  return [
    row('registrations acknowledged per minute', (r) => int(r.perMinute)),
    row('raw argon2id at the same parameters, per minute (same run)', (r) => int(r.hashesPerMinute)),
    row('rush / argon2id', (r) => pct(r.perMinute / r.hashesPerMinute)),
    row(
      'completed (clients; load s; rounds)',
      (r) => `${r.completed} (${r.concurrency}; ${r.loadSeconds.toFixed(1)} s; ${r.rounds})`,
    ),
    row('errors / duplicate numbers', (r) => `${r.errors} / ${r.duplicates}`),
    row('answer p50 / p99', (r) => `${r.p50} / ${r.p99} ms`),
    row('queue drained after the load, round killed with SIGKILL halfway (restarted on the same data)', (r) => {
      const k = rushDrains(r).killed;
      return k ? `${seconds(k.seconds)} (${k.riders} riders, round ${k.round})` : '—';
    }),
    row('queue drained after the load, other rounds (mean)', (r) => {
      const d = rushDrains(r);
      return d.cleanMean == null
        ? '— (one round only)'
        : `${seconds(d.cleanMean)} (${d.clean.map((c) => `${c.riders} riders`).join(', ')})`;
    }),
    row('registration answered → its files processed, p95', (r) =>
      r.processedP95Ms == null ? '—' : `${seconds(r.processedP95Ms / 1000)} (${r.filesProcessed} files)`,
    ),
    row('files lost across the kill', (r) => (r.filesChecked ? `${r.filesLost} of ${r.filesChecked}` : '—')),
    row('server CPU per registration (event loop)', (r) =>
      r.serverCpuMsPerRegistration == null
        ? '—'
        : `${ms(r.serverCpuMsPerRegistration)} (${ms(r.eventLoopCpuMsPerRegistration)})`,
    ),
    row('CPU ceiling: cores × 60 s / server CPU per registration, per minute', (r) =>
      r.serverCpuMsPerRegistration ? int((r.cores * 60_000) / r.serverCpuMsPerRegistration) : '—',
    ),
    row('argon2id CPU per hash', (r) => ms(r.argon2CpuMsPerHash)),
  ];
}

export function landingRows(l: LandingReport) {
  return l.lighthouse.runs.map((r, i) => ({
    run: i + 1,
    score: r.score,
    'LCP s': (r.lcpMs / 1000).toFixed(2),
    'TBT ms': Math.round(r.tbtMs),
    CLS: r.cls.toFixed(3),
    'FCP s': (r.fcpMs / 1000).toFixed(2),
    'speed index s': (r.speedIndexMs / 1000).toFixed(2),
    'JS+CSS on the wire KB': Math.round(r.jsCssTransferKB),
    'JS+CSS decoded KB': Math.round(r.jsCssResourceKB),
    'benchmark index': Math.round(r.benchmarkIndex),
  }));
}

const PAGE_LABEL = { landing: 'landing', register: '/register', me: '/me', user: '/user/{id}' } as const;

/** One row per page audited: its median run (by score) beside the landing page's. */
export function pageRows(l: LandingReport) {
  // Reports saved before the other pages were audited hold the landing page only.
  const pages = l.pages ?? [{ page: 'landing' as const, path: '/', signedIn: false, lighthouse: l.lighthouse }];
  return pages.map((p) => {
    const m = p.lighthouse.median;
    return {
      page: `${PAGE_LABEL[p.page]}${p.signedIn ? ' (signed in)' : ''}`,
      score: m.score,
      'LCP s': (m.lcpMs / 1000).toFixed(2),
      CLS: m.cls.toFixed(3),
      'TBT ms': Math.round(m.tbtMs),
      'FCP s': (m.fcpMs / 1000).toFixed(2),
      'JS on the wire KB': m.jsTransferKB === undefined ? '' : Math.round(m.jsTransferKB),
      requests: m.requests ?? '',
      'scores of the runs': p.lighthouse.runs.map((r) => r.score).join(', '),
      'benchmark index': Math.round(m.benchmarkIndex),
    };
  });
}

export function goals(res: Results): Goal[] {
  const out: Goal[] = [];
  for (const r of res.rush ?? []) {
    const db = DB_LABEL[r.database];
    const d = rushDrains(r);
    out.push(
      {
        benchmark: 'rush',
        measure: `${db}: registrations acknowledged per minute`,
        figure: int(r.perMinute),
        goal: `≥ ${int(GOALS.rushPerMinute)}`,
        pass: r.perMinute >= GOALS.rushPerMinute,
      },
      {
        benchmark: 'rush',
        measure: `${db}: share of the raw argon2id rate (same run)`,
        figure: pct(r.perMinute / r.hashesPerMinute),
        goal: `≥ ${pct(GOALS.rushShareOfArgon)}`,
        pass: r.perMinute / r.hashesPerMinute >= GOALS.rushShareOfArgon,
      },
      {
        benchmark: 'rush',
        measure: `${db}: errors / duplicate numbers`,
        figure: `${r.errors} / ${r.duplicates}`,
        goal: '0 / 0',
        pass: r.errors === 0 && r.duplicates === 0,
      },
      {
        benchmark: 'rush',
        measure: `${db}: files lost across a \`kill -9\` in the middle of the drain`,
        figure: r.filesChecked ? `${r.filesLost} of ${r.filesChecked}` : 'not measured',
        goal: '0',
        pass: rushFilesKept(r),
      },
      {
        benchmark: 'rush',
        measure: `${db}: queue drain, killed round (other rounds); registration → files processed p95`,
        figure: `${d.killed ? seconds(d.killed.seconds) : '—'} (${d.cleanMean == null ? '—' : seconds(d.cleanMean)}); ${
          r.processedP95Ms == null ? '—' : seconds(r.processedP95Ms / 1000)
        }`,
        goal: '—',
        pass: null,
      },
    );
  }
  for (const c of res.contention) {
    out.push({
      benchmark: 'contention',
      measure: `${DB_LABEL[c.db]}: winners of ${c.claims} claims (409s, others)`,
      figure: `${c.winners} (${c.conflicts}, ${c.others})`,
      goal: `1 (${c.claims - 1}, 0)`,
      pass: c.winners === 1 && c.conflicts === c.claims - 1 && c.others === 0,
    });
    out.push({
      benchmark: 'contention',
      measure: `${DB_LABEL[c.db]}: time to answer all`,
      figure: `${(c.allAnsweredMs / 1000).toFixed(2)} s`,
      goal: '—',
      pass: null,
    });
  }
  if (res.reads) {
    const hello = res.reads.helloReqPerSec;
    for (const r of res.reads.runs) {
      if (!r.db) continue;
      const share = r.reqPerSec / hello;
      out.push({
        benchmark: 'reads',
        measure: `${r.target}, ${DB_LABEL[r.db]}: of hello-world, p99`,
        figure: `${pct(share)}, ${r.p99} ms`,
        goal: `≥ ${pct(GOALS.readShareOfHello)}, ≤ ${GOALS.readP99Ms} ms`,
        pass: share >= GOALS.readShareOfHello && r.p99 <= GOALS.readP99Ms && r.failures === 0,
      });
    }
  }
  if (res.landing) {
    const { js, lighthouse } = res.landing;
    const m = lighthouse.median;
    out.push(
      {
        benchmark: 'landing',
        measure: 'gzipped JS before interaction',
        figure: `${js.gzippedKB} KB`,
        goal: `≤ ${js.budgetKB} KB`,
        pass: js.gzippedKB <= js.budgetKB,
      },
      {
        benchmark: 'landing',
        measure: 'Lighthouse mobile performance',
        figure: String(m.score),
        goal: `≥ ${GOALS.lighthouseScore}`,
        pass: m.score >= GOALS.lighthouseScore,
      },
      {
        benchmark: 'landing',
        measure: 'LCP',
        figure: `${(m.lcpMs / 1000).toFixed(2)} s`,
        goal: `≤ ${(GOALS.lcpMs / 1000).toFixed(1)} s`,
        pass: m.lcpMs <= GOALS.lcpMs,
      },
      { benchmark: 'landing', measure: 'TBT', figure: `${Math.round(m.tbtMs)} ms`, goal: '—', pass: null },
      {
        benchmark: 'landing',
        measure: 'CLS',
        figure: m.cls.toFixed(3),
        goal: `≤ ${GOALS.cls}`,
        pass: m.cls <= GOALS.cls,
      },
    );
    for (const p of res.landing.pages ?? []) {
      if (p.page === 'landing') continue;
      const pm = p.lighthouse.median;
      const benchmark = `page ${PAGE_LABEL[p.page]}`;
      out.push(
        {
          benchmark,
          measure: 'Lighthouse mobile performance',
          figure: String(pm.score),
          goal: `≥ ${GOALS.lighthouseScore}`,
          pass: pm.score >= GOALS.lighthouseScore,
        },
        {
          benchmark,
          measure: 'LCP',
          figure: `${(pm.lcpMs / 1000).toFixed(2)} s`,
          goal: `≤ ${(GOALS.lcpMs / 1000).toFixed(1)} s`,
          pass: pm.lcpMs <= GOALS.lcpMs,
        },
        { benchmark, measure: 'CLS', figure: pm.cls.toFixed(3), goal: `≤ ${GOALS.cls}`, pass: pm.cls <= GOALS.cls },
      );
    }
  }
  for (const r of res.board ?? []) {
    out.push({
      benchmark: 'board fan-out',
      measure: `${DB_LABEL[r.database]}: ${r.boards} boards, ${r.scans} scans: sync → every board p95 (p50)`,
      figure: `${r.p95Ms} ms (${r.p50Ms} ms), ${r.delivered}/${r.expected} delivered`,
      goal: '≤ 5000 ms, all delivered',
      pass: r.p95Ms <= 5000 && r.delivered === r.expected,
    });
  }
  for (const r of res.scanSync ?? []) {
    out.push(
      {
        benchmark: 'scan sync',
        measure: `${DB_LABEL[r.database]}: ${r.sent} scans: lost / duplicates stored / counted twice`,
        figure: `${r.lost} / ${r.duplicatesStored} / ${r.doubleCounted}`,
        goal: '0 / 0 / 0',
        pass: r.lost === 0 && r.duplicatesStored === 0 && r.doubleCounted === 0 && r.stored === r.sent,
      },
      {
        benchmark: 'scan sync',
        measure: `${DB_LABEL[r.database]}: ingest, unique scans/s (items/s with resends)`,
        figure: `${Math.round(r.uniquePerSecond)} (${Math.round(r.itemsPerSecond)})`,
        goal: '—',
        pass: null,
      },
    );
    const slowest = Math.max(...r.flush3g.map((f) => f.seconds));
    out.push({
      benchmark: 'scan sync',
      measure: `${DB_LABEL[r.database]}: one device flushes 500 scans over 3G`,
      figure: `${slowest.toFixed(1)} s`,
      goal: `≤ ${GOALS.scanFlushSeconds} s`,
      pass: slowest <= GOALS.scanFlushSeconds,
    });
  }
  if (res.memory) {
    for (const r of res.memory.runs) {
      const g = GOALS.memory[r.db];
      out.push(
        {
          benchmark: 'memory',
          measure: `${DB_LABEL[r.db]}: idle RSS, first start on an empty store`,
          figure: `${Math.round(r.idleFirst.rss)} MB`,
          goal: `≤ ${g.idle} MB`,
          pass: r.idleFirst.rss <= g.idle,
        },
        {
          benchmark: 'memory',
          measure: `${DB_LABEL[r.db]}: peak RSS, rush of ${r.rush.riders} riders (${Math.round(r.rush.perMinute)}/min, ${r.rush.errors} errors)`,
          figure: `${Math.round(r.peakRss)} MB`,
          goal: `≤ ${g.peak} MB`,
          pass: r.peakRss <= g.peak && r.rush.errors === 0,
        },
        {
          benchmark: 'start-up',
          measure: `${DB_LABEL[r.db]}: restart to first answer (server alone)`,
          figure: `${(r.restartMs / 1000).toFixed(2)} s`,
          goal: '—',
          pass: null,
        },
      );
    }
    const ms = res.memory.npmStartMs;
    out.push({
      benchmark: 'start-up',
      measure: '`npm start` to first answer, unchanged checkout',
      figure: ms === null ? res.memory.npmStartNote : `${(ms / 1000).toFixed(2)} s`,
      goal: `≤ ${(GOALS.npmStartMs / 1000).toFixed(1)} s`,
      pass: ms !== null && ms <= GOALS.npmStartMs,
    });
  }
  for (const r of res.verdict?.runs ?? []) {
    out.push({
      benchmark: 'scanner verdict',
      measure: `/scan, ${res.verdict?.riders} riders cached, CPU ${r.cpuSlowdown}x: input to verdict painted, p95`,
      figure: `${r.p95.toFixed(0)} ms`,
      goal: `≤ ${GOALS.verdictP95Ms} ms`,
      pass: r.p95 <= GOALS.verdictP95Ms,
    });
  }
  return out;
}

const mark = (pass: boolean | null) => (pass === null ? '—' : pass ? 'pass' : 'MISS');

export function summaryRows(res: Results) {
  return goals(res).map((g) => ({
    benchmark: g.benchmark,
    measure: g.measure,
    figure: g.figure,
    goal: g.goal,
    '': mark(g.pass),
  }));
}

export function printSummary(run: BenchRun, res: Results) {
  console.log(
    `\n== Summary (load average ${run.loadAtStart.toFixed(1)} at start, ${run.loadAtEnd.toFixed(1)} at end; ${run.totalSeconds.toFixed(0)} s)`,
  );
  console.table(summaryRows(res));
  for (const e of run.errors) console.log(`  note: ${e}`);
}
