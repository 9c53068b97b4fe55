// `npm run bench`: every benchmark of the issue, one after another in one run on this
// machine, so each comparison (rush vs raw argon2id, reads vs hello-world, PGlite vs
// PostgreSQL) is measured side by side under the same conditions. Prints one table per
// benchmark and a summary against the goals, and writes docs/benchmarks.md.
//
//   npm run bench                     ~3.5 min on a quiet 2-core machine (rush 30 s of load, reads 10 s
//                                     each, Lighthouse 3 runs); slower when the neighbours load it
//   BENCH_FULL=1 npm run bench        the rush for the full 60 s
//   BENCH_SECONDS, BENCH_CONCURRENCY  passed through to register-rush.ts, which runs once per database: the
//                                     embedded one, then PostgreSQL on BENCH_PG_URL (a fresh database per round)
//   BENCH_READ_SECONDS, BENCH_CONNECTIONS, BENCH_TAKEN, BENCH_LIGHTHOUSE_RUNS, BENCH_PG_URL
//   BENCH_ONLY=rush,contention,reads,landing,scans,memory,verdict,board,live,sos,one-address,messages,editions,tracking,receipts   a subset (docs/benchmarks.md
//                                     is then not written, except BENCH_ONLY=rush, =landing, =scans, =board, =live or =sos, which
//                                     rewrite their own section in place (rush: its summary rows too); one-address rewrites its own whenever it runs);
//                                     `npm run bench -- --only landing` does the same
//   BENCH_ONE_ADDRESS_RIDERS, BENCH_ONE_ADDRESS_CONCURRENCY   options of the one-address rush (one-address-rush.ts)
//   BENCH_PAGES=register,me           the pages Lighthouse audits beside the landing page (landing, register, me, user)
//   BENCH_BOARDS, BENCH_BOARD_SCANS   options of the board fan-out step (board-fanout.ts)
//   BENCH_SOS_BOARDS, BENCH_SOS_CALLS, BENCH_SOS_INTERVAL_MS   options of the SOS step (sos-latency.ts)
//   BENCH_EMAILS, BENCH_FOLLOWERS, BENCH_SOS_RIDERS, BENCH_ON_CALL   options of the messages step (messages.ts)
//   BENCH_TRACKING_RIDERS, BENCH_TRACKING_FLUSH, …   options of the positions-in step (tracking-ingest.ts)
//   BENCH_MEMORY_RIDERS, BENCH_NODE_FLAGS, …   options of the memory and start-up step (memory.ts)
//   BENCH_REWRITE_DOC=1               rewrite docs/benchmarks.md from the last full run's figures (.tmp/)
import { execFileSync, spawn } from 'node:child_process';
import { mkdirSync, readFileSync, writeFileSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import {
  EDITIONS_END,
  EDITIONS_START,
  editionsSection,
  ONE_ADDRESS_END,
  ONE_ADDRESS_START,
  oneAddressSection,
  SOS_END,
  SOS_START,
  sosLatencySection,
  TRACKING_END,
  TRACKING_START,
  trackingSection,
  writeBoardSection,
  writeLandingSection,
  writeReport,
  writeRushSection,
  writeScanSyncSection,
  writeSectionInPlace,
} from './benchmarks-doc';
import { type BoardFanoutResult, boardFanoutRows, runBoardFanout } from './board-fanout';
import {
  cleanUpOnInterrupt,
  DB_LABEL,
  type DbKind,
  loadAverage,
  machine,
  PG_ADMIN_URL,
  PgliteTemplate,
  pgReachable,
  repoRoot,
} from './common';
import { type ContentionResult, contentionRows, runContention } from './contention';
import { type EditionsReport, editionsReadRows, editionsUpgradeRows, runEditions } from './editions';
import { type LandingReport, pagesFromEnv, runLanding } from './landing';
import { type LiveReadsReport, liveRows, liveSection, liveSummary, runLiveReads, writeLiveSection } from './live-reads';
import { type MemoryReport, memoryRows, memorySplitRows, runMemory } from './memory';
import { type MessagesReport, messagesRows, runMessages, writeMessagesSection } from './messages';
import { type OneAddressResult, oneAddressRows, runOneAddressRush } from './one-address-rush';
import { defaultReadOptions, type ReadsReport, readRows, runReads } from './reads';
import {
  RECEIPTS_END,
  RECEIPTS_START,
  type ReceiptReadingResult,
  receiptReadingLookRows,
  receiptReadingRows,
  receiptReadingSection,
  receiptReadingVerdicts,
  runReceiptReading,
} from './receipt-reading';
import { type BenchRun, landingRows, pageRows, printSummary, type Results, type RushResult, rushRows } from './report';
import { runScanSync, type ScanSyncResult, scanSyncRows } from './scan-sync';
import { printScannerVerdict, runScannerVerdict, type ScannerVerdictReport } from './scanner-verdict';
import { runSosLatency, type SosLatencyResult, sosLatencyRows } from './sos-latency';
import { runTrackingIngest, type TrackingIngestResult, trackingIngestRows } from './tracking-ingest';

const FULL = process.env.BENCH_FULL === '1';
const LAST_RUN = path.join(repoRoot, '.tmp', 'bench-last-run.json');
const RUSH_SECONDS = process.env.BENCH_SECONDS ?? (FULL ? '60' : '30');
const LIGHTHOUSE_RUNS = Number(process.env.BENCH_LIGHTHOUSE_RUNS ?? 3);
// `npm run bench -- --only landing` is the same as BENCH_ONLY=landing.
const onlyArg = process.argv.indexOf('--only');
const ONLY = (onlyArg >= 0 ? process.argv[onlyArg + 1] : process.env.BENCH_ONLY)?.split(',').map((s) => s.trim());
const wanted = (name: string) => !ONLY || ONLY.includes(name);

/**
 * register-rush.ts is the rush benchmark; it runs its own main() on import, so it runs
 * here as it does alone, as a child process, and its figures come from its BENCH_RESULT line.
 * Its database follows BENCH_DATABASE_URL: unset for the embedded one, and for PostgreSQL the
 * server the other benchmarks use (it makes a fresh database there per round).
 */
function runRush(seconds: string, kind: DbKind): Promise<RushResult> {
  const entry = fileURLToPath(new URL('./register-rush.ts', import.meta.url));
  const { BENCH_DATABASE_URL: _ignored, ...env } = process.env;
  const child = spawn(process.execPath, ['--import', 'tsx', entry], {
    env: { ...env, BENCH_SECONDS: seconds, ...(kind === 'postgres' ? { BENCH_DATABASE_URL: PG_ADMIN_URL } : {}) },
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  let out = '';
  let pending = '';
  const echo = (d: Buffer) => {
    out += d;
    pending += d;
    const lines = pending.split('\n');
    pending = lines.pop() ?? '';
    for (const line of lines) if (!line.startsWith('BENCH_RESULT')) console.log(`  rush ${kind} | ${line}`);
  };
  child.stdout.on('data', echo);
  child.stderr.on('data', echo);
  return new Promise((resolve, reject) => {
    child.on('exit', (code) => {
      const line = /^BENCH_RESULT (.*)$/m.exec(out)?.[1];
      if (code !== 0 || !line) return reject(new Error(`register-rush.ts on ${DB_LABEL[kind]} exited with ${code}`));
      const machineLine = /^Machine: (.*)$/m.exec(out)?.[1] ?? '';
      const uploadLine = /^Upload per registration: (.*)$/m.exec(out)?.[1] ?? '';
      resolve({
        ...(JSON.parse(line) as Omit<RushResult, 'upload' | 'machineLine' | 'cores'>),
        cores: os.cpus().length,
        upload: uploadLine,
        machineLine,
      });
    });
  });
}

function git(args: string[]): string {
  try {
    return execFileSync('git', args, { cwd: repoRoot, encoding: 'utf8' }).trim();
  } catch {
    return '';
  }
}

/** Share of the machine's CPU time that was idle over `ms`. */
async function idleShare(ms: number): Promise<number> {
  const total = () =>
    os
      .cpus()
      .reduce(
        (a, c) => ({ idle: a.idle + c.times.idle, all: a.all + Object.values(c.times).reduce((x, y) => x + y, 0) }),
        { idle: 0, all: 0 },
      );
  const a = total();
  await new Promise((r) => setTimeout(r, ms));
  const b = total();
  return (b.idle - a.idle) / Math.max(1, b.all - a.all);
}

/**
 * Waits (at most 30 s) until the CPU is at least 90% idle for a second: the previous step's
 * servers, PostgreSQL's clean-up of dropped databases and its autovacuum must not be measured
 * as part of the next step.
 */
async function settle(): Promise<string> {
  const t0 = performance.now();
  let idle = await idleShare(1000);
  while (idle < 0.9 && performance.now() - t0 < 30_000) idle = await idleShare(1000);
  return `CPU ${(100 * idle).toFixed(0)}% idle after ${((performance.now() - t0) / 1000).toFixed(0)} s of settling`;
}

async function step<T>(name: string, run: BenchRun, fn: () => Promise<T>): Promise<T | undefined> {
  const settled = await settle();
  const t0 = performance.now();
  console.log(`\n== ${name} (load average ${loadAverage().toFixed(1)}; ${settled})`);
  try {
    return await fn();
  } catch (err) {
    // One broken benchmark must not hide the others' figures: it shows as an error instead.
    console.error(`  ${name} failed: ${(err as Error).stack ?? err}`);
    run.errors.push(`${name}: ${(err as Error).message}`);
    return undefined;
  } finally {
    run.stepSeconds[name] = (performance.now() - t0) / 1000;
  }
}

async function main() {
  cleanUpOnInterrupt();
  const started = new Date();
  const t0 = performance.now();
  const dirty = git(['status', '--porcelain']).split('\n').filter(Boolean).length;
  const run: BenchRun = {
    started,
    machine: machine(),
    loadAtStart: loadAverage(),
    loadAtEnd: 0,
    commit: `${git(['rev-parse', '--short', 'HEAD'])}${dirty ? ` + ${dirty} uncommitted files` : ''}`,
    pgUrl: PG_ADMIN_URL.replace(/\/\/[^@/]*@/, '//…@'),
    kinds: ['pglite'],
    options: { rushSeconds: Number(RUSH_SECONDS), lighthouseRuns: LIGHTHOUSE_RUNS, reads: defaultReadOptions() },
    errors: [],
    stepSeconds: {},
    totalSeconds: 0,
  };
  const m = run.machine;
  console.log(`Machine: ${m.cores} cores (${m.model}), ${m.memoryGiB} GiB, Node ${m.node}; commit ${run.commit}`);
  if (await pgReachable()) run.kinds.push('postgres');
  else run.errors.push(`PostgreSQL at ${run.pgUrl} is not reachable: measured on the embedded database only`);
  console.log(`Databases: ${run.kinds.map((k) => DB_LABEL[k]).join(', ')}`);

  const rush: RushResult[] = [];
  const contention: ContentionResult[] = [];
  let reads: ReadsReport | undefined;
  let landing: LandingReport | undefined;
  const scanSync: ScanSyncResult[] = [];
  const board: BoardFanoutResult[] = [];
  let memory: MemoryReport | undefined;
  let verdict: ScannerVerdictReport | undefined;
  let live: LiveReadsReport | undefined;
  const sos: SosLatencyResult[] = [];
  const oneAddress: OneAddressResult[] = [];
  let messages: MessagesReport | undefined;
  let editionsReport: EditionsReport | undefined;
  const tracking: TrackingIngestResult[] = [];
  let receipts: ReceiptReadingResult | undefined;

  const template = await PgliteTemplate.create();
  try {
    if (wanted('rush'))
      await step('1. registration rush with uploads', run, async () => {
        for (const [i, kind] of run.kinds.entries()) {
          // The second database's rush must not start while the first one's processes still wind down.
          if (i > 0) console.log(`  rush: ${await settle()}`);
          try {
            rush.push(await runRush(RUSH_SECONDS, kind as DbKind));
          } catch (err) {
            // One database's failure must not hide the other's figures.
            console.error(`  rush on ${DB_LABEL[kind]} failed: ${(err as Error).stack ?? err}`);
            run.errors.push(`1. registration rush with uploads: ${(err as Error).message}`);
          }
        }
      });
    if (rush.length) console.table(rushRows(rush));

    if (wanted('contention'))
      await step('2. rider-number contention', run, async () => {
        for (const kind of run.kinds) contention.push(await runContention(kind as DbKind, template));
      });
    if (contention.length) console.table(contentionRows(contention));

    if (wanted('reads')) reads = await step('3. public reads vs hello-world', run, () => runReads(run.kinds, template));
    if (reads) console.table(readRows(reads));

    if (wanted('landing'))
      landing = await step("4. landing page and riders' screens", run, () =>
        runLanding(template, LIGHTHOUSE_RUNS, pagesFromEnv()),
      );
    if (landing) {
      console.table(landingRows(landing));
      console.table(pageRows(landing));
    }

    if (wanted('scans'))
      await step('5. scan sync', run, async () => {
        for (const kind of run.kinds) scanSync.push(await runScanSync(kind as DbKind, template));
      });
    if (scanSync.length) console.table(scanSyncRows(scanSync));
    if (wanted('memory')) memory = await step('6. memory and start-up', run, () => runMemory(run.kinds));
    if (memory) {
      console.table(memoryRows(memory));
      console.table(memorySplitRows(memory));
    }
    if (wanted('verdict')) verdict = await step('7. scanner verdict time', run, () => runScannerVerdict(template));
    if (verdict) printScannerVerdict(verdict);
    if (wanted('board'))
      await step('8. board fan-out', run, async () => {
        for (const kind of run.kinds) board.push(await runBoardFanout(kind as DbKind, template));
      });
    if (board.length) console.table(boardFanoutRows(board));
    if (wanted('live'))
      live = await step('9. public live tracker vs hello-world', run, () => runLiveReads(run.kinds, template));
    if (live) {
      console.log(`  ${liveSummary(live)}`);
      console.table(liveRows(live));
    }
    if (wanted('sos'))
      await step('10. SOS to every open board', run, async () => {
        for (const kind of run.kinds) sos.push(await runSosLatency(kind as DbKind, template));
      });
    if (sos.length) console.table(sosLatencyRows(sos));
    if (wanted('one-address'))
      await step('11. registration rush from one address', run, async () => {
        for (const kind of run.kinds) oneAddress.push(await runOneAddressRush(kind as DbKind, template));
      });
    if (oneAddress.length) console.table(oneAddressRows(oneAddress));
    if (wanted('messages'))
      messages = await step('12. messages: email, followers, on-call push', run, () =>
        runMessages(run.kinds as DbKind[], template),
      );
    if (messages) console.table(messagesRows(messages));
    if (wanted('editions'))
      editionsReport = await step('13. editions: the upgrade, public reads with past editions', run, () =>
        runEditions(run.kinds as DbKind[], template),
      );
    if (editionsReport) {
      console.table(editionsUpgradeRows(editionsReport));
      console.table(editionsReadRows(editionsReport));
    }
    if (wanted('tracking'))
      await step('14. positions in: Traccar Client singles and buffer flushes', run, async () => {
        for (const kind of run.kinds) tracking.push(await runTrackingIngest(kind as DbKind, template));
      });
    if (tracking.length) console.table(trackingIngestRows(tracking));
    if (wanted('receipts'))
      receipts = await step('15. receipts read: references, amounts, false duplicates', run, () => runReceiptReading());
    if (receipts) {
      console.table(receiptReadingRows(receipts));
      console.table(receiptReadingLookRows(receipts));
      console.table(receiptReadingVerdicts(receipts));
    }
  } finally {
    template.dispose();
  }

  run.loadAtEnd = loadAverage();
  run.totalSeconds = (performance.now() - t0) / 1000;
  const results = {
    rush: rush.length ? rush : undefined,
    contention,
    reads,
    landing,
    scanSync,
    board,
    memory,
    verdict,
  };
  printSummary(run, results);
  if (!ONLY) {
    // The figures are kept so the report's wording can be rewritten without measuring again.
    mkdirSync(path.dirname(LAST_RUN), { recursive: true });
    writeFileSync(LAST_RUN, JSON.stringify({ run, results }));
    const file = writeReport(run, results);
    if (live) writeLiveSection(liveSection(live, started, run.commit, [run.loadAtStart, run.loadAtEnd]));
    if (sos.length)
      writeSectionInPlace(
        SOS_START,
        SOS_END,
        sosLatencySection(sos, started, run.commit, [run.loadAtStart, run.loadAtEnd]),
      );
    console.log(`\nWrote ${file}`);
  } else if (ONLY.length === 1 && ONLY[0] === 'rush' && rush.length) {
    const file = writeRushSection(run, rush, [run.loadAtStart, run.loadAtEnd]);
    console.log(`\nWrote the rush section and its summary rows of ${file}`);
  } else if (ONLY.length === 1 && ONLY[0] === 'landing' && landing) {
    const file = writeLandingSection(landing, LIGHTHOUSE_RUNS, started, run.commit, [run.loadAtStart, run.loadAtEnd]);
    console.log(`\nWrote the landing page section of ${file}`);
  } else if (ONLY.length === 1 && ONLY[0] === 'board' && board.length) {
    console.log(
      `\nWrote the board fan-out section of ${writeBoardSection(board, started, run.commit, [run.loadAtStart, run.loadAtEnd])}`,
    );
  } else if (ONLY.length === 1 && ONLY[0] === 'live' && live) {
    console.log(
      `\nWrote the live tracker section of ${writeLiveSection(liveSection(live, started, run.commit, [run.loadAtStart, run.loadAtEnd]))}`,
    );
  } else if (ONLY.length === 1 && ONLY[0] === 'sos' && sos.length) {
    const section = sosLatencySection(sos, started, run.commit, [run.loadAtStart, run.loadAtEnd]);
    console.log(`\nWrote the SOS section of ${writeSectionInPlace(SOS_START, SOS_END, section)}`);
  } else if (ONLY.length === 1 && ONLY[0] === 'scans' && scanSync.length) {
    console.log(
      `\nWrote the scan-sync section of ${writeScanSyncSection(scanSync, started, run.commit, [run.loadAtStart, run.loadAtEnd])}`,
    );
  }
  if (oneAddress.length) {
    // Its own section, in place, after a full run too (writeReport rewrites the others).
    const section = oneAddressSection(oneAddress, started, run.commit, [run.loadAtStart, run.loadAtEnd], rush);
    console.log(
      `\nWrote the one-address section of ${writeSectionInPlace(ONE_ADDRESS_START, ONE_ADDRESS_END, section)}`,
    );
  }
  if (tracking.length) {
    // Its own section, in place, after a full run or BENCH_ONLY=tracking.
    const section = trackingSection(tracking, started, run.commit, [run.loadAtStart, run.loadAtEnd]);
    console.log(`\nWrote the tracking section of ${writeSectionInPlace(TRACKING_START, TRACKING_END, section)}`);
  }
  if (receipts) {
    // Its own section, in place, after a full run or BENCH_ONLY=receipts.
    const section = receiptReadingSection(receipts, started, run.commit, [run.loadAtStart, run.loadAtEnd]);
    console.log(`\nWrote the receipts section of ${writeSectionInPlace(RECEIPTS_START, RECEIPTS_END, section)}`);
  }
  if (editionsReport) {
    // Its own section, in place, after a full run or BENCH_ONLY=editions.
    const section = editionsSection(editionsReport, started, run.commit, [run.loadAtStart, run.loadAtEnd]);
    console.log(`\nWrote the editions section of ${writeSectionInPlace(EDITIONS_START, EDITIONS_END, section)}`);
  }
  if (messages) {
    // Its own section, in place, after a full run or BENCH_ONLY=messages.
    const file = writeMessagesSection(messages, started, run.commit, [run.loadAtStart, run.loadAtEnd]);
    console.log(`\nWrote the messages section of ${file}`);
  }
  console.log(`Total ${run.totalSeconds.toFixed(0)} s`);
}

/** BENCH_REWRITE_DOC=1: docs/benchmarks.md again from the last full run's figures, nothing measured. */
function rewriteDoc() {
  const saved = JSON.parse(readFileSync(LAST_RUN, 'utf8')) as { run: BenchRun; results: Results };
  saved.run.started = new Date(saved.run.started);
  // Runs saved before the rush ran on both databases hold one rush, not a list.
  const rush = saved.results.rush as RushResult[] | RushResult | undefined;
  if (rush && !Array.isArray(rush)) saved.results.rush = [rush];
  console.log(`Rewrote ${writeReport(saved.run, saved.results)} from ${LAST_RUN}`);
}

(process.env.BENCH_REWRITE_DOC === '1' ? Promise.resolve().then(rewriteDoc) : main()).catch((err) => {
  console.error(err);
  process.exit(1);
});
