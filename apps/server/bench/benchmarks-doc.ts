// docs/benchmarks.md from one run: machine, tables, goals and, for each miss, this run's
// figures with the cause measured in the "Investigation" section. That section is written
// by hand (profiles and A/B runs, not this run's figures) and carried over on every rewrite.

import { existsSync, readFileSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import { type BoardFanoutResult, boardFanoutRows } from './board-fanout';
import { DB_LABEL, type DbKind, repoRoot } from './common';
import { contentionRows } from './contention';
import { type EditionsReport, editionsPastShares, editionsReadRows, editionsUpgradeRows } from './editions';
import type { LandingReport } from './landing';
import { memoryRows, memorySplitRows } from './memory';
import { type OneAddressResult, oneAddressRows } from './one-address-rush';
import { readRows } from './reads';
import {
  type BenchRun,
  GOALS,
  goals,
  int,
  landingRows,
  pageRows,
  pct,
  type Results,
  type RushResult,
  rushFilesKept,
  rushRows,
  summaryRows,
} from './report';
import { type ScanSyncResult, scanSyncRows } from './scan-sync';
import { type SosLatencyResult, sosLatencyRows } from './sos-latency';
import { BOARD_GOAL_MS, TRACKING_GOAL_PER_S, type TrackingIngestResult, trackingIngestRows } from './tracking-ingest';

/**
 * The rush's misses, database by database, from this run's figures: the rate (against the
 * server's CPU per registration), then errors, duplicates and files lost, each only when missed.
 */
function rushMissNote(results: RushResult[]): string | null {
  const slow = results.filter(
    (r) => r.perMinute < GOALS.rushPerMinute || r.perMinute / r.hashesPerMinute < GOALS.rushShareOfArgon,
  );
  const wrong = results.filter((r) => r.errors > 0 || r.duplicates > 0);
  const lost = results.filter((r) => !rushFilesKept(r));
  if (!slow.length && !wrong.length && !lost.length) return null;
  const parts: string[] = [];
  if (slow.length) {
    parts.push(
      `**Rush** (${slow.map((r) => `${DB_LABEL[r.database]} ${int(r.perMinute)}/min, ${pct(r.perMinute / r.hashesPerMinute)} of argon2id's ${int(r.hashesPerMinute)}/min`).join('; ')}; on this machine in this run).`,
    );
    const cpu = slow.filter((r) => r.serverCpuMsPerRegistration && r.argon2CpuMsPerHash);
    if (cpu.length) {
      const { cores } = cpu[0] as RushResult;
      const argon = Math.min(...cpu.map((r) => r.argon2CpuMsPerHash as number));
      parts.push(
        `Server CPU per registration: ${cpu
          .map(
            (r) =>
              `${(r.serverCpuMsPerRegistration as number).toFixed(0)} ms on ${DB_LABEL[r.database]} ` +
              `(${r.eventLoopCpuMsPerRegistration?.toFixed(0)} ms on its event loop${r.database === 'pglite' ? ', where the embedded database runs too' : "; PostgreSQL's own processes not counted"})`,
          )
          .join(', ')}: ${cores} cores cap such a rush at ${cpu
          .map((r) => `${int((cores * 60_000) / (r.serverCpuMsPerRegistration as number))}/min`)
          .join(' and ')} even with nothing else on the machine (the load generator shares it here). ` +
          `A bare argon2id hash took ${argon.toFixed(0)} ms; ${int(GOALS.rushPerMinute)}/min would need at most ${((cores * 60_000) / GOALS.rushPerMinute).toFixed(0)} ms ` +
          `per registration in all, and ${pct(GOALS.rushShareOfArgon)} of the hash rate at most ${(argon / GOALS.rushShareOfArgon).toFixed(0)} ms, ` +
          `i.e. ${(argon / GOALS.rushShareOfArgon - argon).toFixed(0)} ms beside the hash.`,
      );
    }
    parts.push(
      `A registration stores its originals (${(slow[0] as RushResult).upload || 'the upload'}) and answers; the images are decoded and ` +
        're-encoded afterwards by the file queue. What is left in the request is parsing the multipart body and storing ' +
        'those bytes (a spool file on the embedded database, the row in the transaction on PostgreSQL), the rows and ' +
        'the session, beside the hash (Investigation, ' +
        '"Registration rush with phone-sized uploads and the file queue").',
    );
  }
  if (wrong.length)
    parts.push(
      `${slow.length ? '' : '**Rush**: '}Errors / duplicate numbers: ${wrong.map((r) => `${r.errors} / ${r.duplicates} on ${DB_LABEL[r.database]} (statuses \`${JSON.stringify(r.statuses)}\`)`).join('; ')}.`,
    );
  if (lost.length)
    parts.push(
      `${slow.length || wrong.length ? '' : '**Rush**: '}Files lost across the \`kill -9\` in the drain: ${lost
        .map(
          (r) =>
            `${r.filesChecked ? `${r.filesLost} of ${r.filesChecked}` : 'not measured'} on ${DB_LABEL[r.database]}`,
        )
        .join('; ')}.`,
    );
  return parts.join(' ');
}

/** Why a goal missed: this run's figures plus the cause measured in the Investigation section. */
function missNotes(run: BenchRun, res: Results): string[] {
  const notes: string[] = [];
  const failed = (benchmark: string) => goals(res).some((g) => g.benchmark === benchmark && g.pass === false);
  const rush = res.rush ? rushMissNote(res.rush) : null;
  if (rush) notes.push(rush);
  const contentionSlow = res.contention.filter((c) => c.allAnsweredMs > 1000);
  const [firstSlow] = contentionSlow;
  if (firstSlow) {
    const lost = res.contention.filter((c) => c.lostAtIndex !== null);
    notes.push(
      `**Contention** (no goal on time, shown for context): the one winner is always right, and answering all ` +
        `${firstSlow.claims} took ${contentionSlow.map((c) => `${(c.allAnsweredMs / 1000).toFixed(1)} s on ${DB_LABEL[c.db]}`).join(', ')}. ` +
        'Claims of one number queue inside the process and re-check the number when their turn comes, so the losers ' +
        'answer 409 before any image or hash work' +
        (lost.length
          ? ` (${lost.map((c) => `${c.lostAtIndex} reached the unique index on ${DB_LABEL[c.db]}`).join(', ')})`
          : '') +
        '; what remains is receiving and parsing 200 uploads of ~0.7 MB each (Investigation, "Contention").',
    );
  }
  if (res.reads && failed('reads')) {
    const reads = res.reads;
    const misses = goals(res).filter((g) => g.benchmark === 'reads' && g.pass === false);
    const hello = reads.runs.filter((r) => !r.db);
    const walkMissPg = misses.some((g) => g.measure.startsWith('profiles, all riders in turn, PostgreSQL'));
    notes.push(
      `**Reads** (${misses.map((g) => `${g.measure.replace(': of hello-world, p99', '')} ${g.figure}`).join('; ')}). ` +
        'Both reads are answered from the in-process answer cache (dropped by every write), so a read costs no ' +
        'query once its answer is made; the profile query and the taken list are prepared statements, the list one ' +
        'JSON row. ' +
        (walkMissPg
          ? 'On PostgreSQL another server instance (or psql) may write too; its changes arrive as notifications ' +
            "(triggers on the answers' tables, LISTEN in every server), each dropping all answers, and while that " +
            'feed is down an answer lives 1 s: both cost re-reads when walking all riders. '
          : '') +
        'What is left per request is Fastify and Node HTTP, as for hello-world, and the figures follow the ' +
        `machine: hello-world itself went from ${hello.map((r) => `${int(r.reqPerSec)} req/s`).join(' to ')}, its own p99 ${hello.map((r) => `${r.p99} ms`).join(' and ')} ` +
        `(first and last), with a load average of ${run.loadAtStart.toFixed(1)} at the start and ${run.loadAtEnd.toFixed(1)} at the end of the run (Investigation, "Reads").`,
    );
  }
  if (res.landing && failed('landing')) {
    const m = res.landing.lighthouse.median;
    notes.push(
      `**Landing** (score ${m.score}, LCP ${(m.lcpMs / 1000).toFixed(2)} s, TBT ${Math.round(m.tbtMs)} ms). The page arrives ` +
        'prerendered and is hydrated in place, so its largest paint comes from the HTML; the score follows the time ' +
        "React's hydration blocks Lighthouse's 4x-slowed CPU. Lighthouse rated this host's CPU at a benchmark index of " +
        `${Math.round(m.benchmarkIndex)} in the median run: its simulated phone is slowed 4x from a host already slowed ` +
        'by its neighbours. A landing-only run on this machine when quiet scored 98–100 at an index of 870–1,120 ' +
        '(Investigation, "Landing").',
    );
  }
  const pageMisses = goals(res).filter((g) => g.benchmark.startsWith('page ') && g.pass === false);
  if (pageMisses.length) {
    notes.push(
      `**Riders' screens** (${pageMisses.map((g) => `${g.benchmark.slice(5)} ${g.measure} ${g.figure}`).join('; ')}). ` +
        'Unlike the landing page they are not prerendered: nothing paints until the entry, React and the ' +
        "screen's code have run on Lighthouse's 4x-slowed CPU (and, for /me and /user/{id}, until their data " +
        'has come back), so their largest paint is render delay, not download (Investigation, "Riders\' screens").',
    );
  }
  if (res.memory && (failed('memory') || failed('start-up'))) {
    const misses = goals(res).filter(
      (g) => (g.benchmark === 'memory' || g.benchmark === 'start-up') && g.pass === false,
    );
    notes.push(
      `**Memory and start-up** (${misses.map((g) => `${g.measure} ${g.figure}`).join('; ')}). ` +
        "PGlite's heap cannot go below the 128 MB its WebAssembly module declares; a rush's peak above idle is native " +
        "memory (argon2id's 19 MB per hash, libvips' pixels, glibc's per-thread arenas, which MALLOC_ARENA_MAX=2 caps " +
        "from the environment); wall-clock start-up follows the machine's load, its CPU time is in section 5 " +
        '(Investigation, "Memory and start-up").',
    );
  }
  return notes;
}

export function markdownTable(rows: Record<string, unknown>[]): string {
  if (rows.length === 0) return '_no figures_\n';
  const keys = [...new Set(rows.flatMap((r) => Object.keys(r)))];
  const cell = (v: unknown) => (v === undefined || v === null ? '' : String(v).replace(/\|/g, '\\|'));
  return [
    `| ${keys.join(' | ')} |`,
    `| ${keys.map(() => '---').join(' | ')} |`,
    ...rows.map((r) => `| ${keys.map((k) => cell(r[k])).join(' | ')} |`),
  ].join('\n');
}

const LANDING_START = '<!-- landing:start -->';
const LANDING_END = '<!-- landing:end -->';

/** Section 4: the landing page and the riders' screens under Lighthouse; BENCH_ONLY=landing rewrites only it. */
export function landingSection(l: LandingReport, lighthouseRuns: number, measured?: string): string {
  return [
    LANDING_START,
    "## 4. Landing page and the riders' screens",
    '',
    '`apps/server/bench/landing.ts`: a private `vite build` of apps/web, measured by `apps/web/scripts/check-budget.mjs`,',
    `then Lighthouse ${lighthouseRuns > 1 ? `(${lighthouseRuns} runs per page, the median by score counts)` : ''} with its default mobile preset (simulated slow 4G, 4x CPU slowdown) in /usr/bin/chromium`,
    'against the real server serving that build (WEB_DIST), a new browser per run. Beside the landing page: `/register`',
    'signed out, `/me` signed in as a verified rider with a profile photo (registered and approved through the real',
    "routes; the session is written to the browser's localStorage before the run and Lighthouse's storage reset is",
    "off), and that rider's public profile `/user/{id}` signed out. The network is closed, so map tiles never load.",
    'Goals for every page: score ≥ 95, LCP ≤ 1.8 s, CLS ≤ 0.05. Alone: `BENCH_ONLY=landing npm run bench`',
    '(or `npm run bench -- --only landing`), which rewrites this section only.',
    ...(measured ? ['', measured] : []),
    '',
    `JavaScript before interaction on the landing page: **${l.js.gzippedKB} KB** gzipped (budget ${l.js.budgetKB} KB): ${l.js.files
      .map((f) => `${f.file} ${f.kb} KB`)
      .join(', ')}.`,
    `Entry script as served to a browser accepting br and gzip: content-encoding \`${l.entryEncoding}\`.`,
    '',
    'Each page\'s median run ("JS on the wire": scripts as transferred; "requests": every request Lighthouse recorded):',
    '',
    markdownTable(pageRows(l)),
    '',
    'Largest contentful paint element of each median run:',
    '',
    ...(l.pages ?? []).map(
      (p) => `- ${p.page === 'user' ? '/user/{id}' : p.path}: "${p.lighthouse.median.lcpElement}"`,
    ),
    '',
    'The landing page, run by run:',
    '',
    markdownTable(landingRows(l)),
    LANDING_END,
  ].join('\n');
}

/** BENCH_ONLY=landing: this section only, in place. */
export function writeLandingSection(
  l: LandingReport,
  lighthouseRuns: number,
  when: Date,
  commit: string,
  load?: [number, number],
): string {
  const measured = `Measured ${when.toISOString().replace('T', ' ').slice(0, 16)} UTC, commit ${commit}${
    load ? `; load average (1 min) ${load[0].toFixed(1)} at start, ${load[1].toFixed(1)} at end` : ''
  }.`;
  const file = path.join(repoRoot, 'docs/benchmarks.md');
  const previous = existsSync(file) ? readFileSync(file, 'utf8') : '';
  // A file written before this section had markers: its unmarked section 4 is replaced.
  const a = previous.indexOf('## 4. Landing page');
  const b = previous.indexOf(SCANS_START);
  if (!previous.includes(LANDING_START) && a >= 0 && b > a)
    writeFileSync(file, `${previous.slice(0, a)}${LANDING_START}\n${LANDING_END}\n\n${previous.slice(b)}`);
  return writeSectionInPlace(LANDING_START, LANDING_END, landingSection(l, lighthouseRuns, measured));
}

const SCANS_START = '<!-- scan-sync:start -->';
const SCANS_END = '<!-- scan-sync:end -->';

/** The scan-sync section; measured on its own (BENCH_ONLY=scans) it replaces only itself in the file. */
export function scanSyncSection(
  results: ScanSyncResult[],
  when: Date,
  commit: string,
  load?: [number, number],
): string {
  const first = results[0];
  return [
    SCANS_START,
    '## 5. Scan sync under event-day conditions',
    '',
    '`apps/server/bench/scan-sync.ts`: the real server on a fresh database with 1,000 verified riders and 6 stations',
    '(written straight into the database, as registration is measured above). 20 simulated marshal devices, 3-4 per',
    'station, scan every rider into a local queue and sync batches of up to 100 like the scanner page: each device',
    'drops into dead zones for 20-220 scans at random (requests fail before leaving), 15% of answers are lost on the',
    'way back (the server stored the batch, the device resends it), and 10% of batches are sent twice at once. Then',
    'the database is compared with what the devices made. "items/s" counts every scan the server processed,',
    'resends included. The 3G figure: one device flushes 500 queued scans through a throttling TCP proxy in the',
    'bench process (each direction metered at its bandwidth, 750 kbit/s up and 1.5 Mbit/s down, every chunk delayed',
    'by half of a 300 ms round trip), in one batch of 500 and in batches of 100.',
    '',
    `Measured ${when.toISOString().replace('T', ' ').slice(0, 16)} UTC, commit ${commit}${first ? `, ${first.devices} devices` : ''}${
      load ? `; load average (1 min) ${load[0].toFixed(1)} at start, ${load[1].toFixed(1)} at end` : ''
    }.`,
    '',
    markdownTable(scanSyncRows(results)),
    SCANS_END,
  ].join('\n');
}

function keptBlock(previous: string, start: string, end: string): string | null {
  const a = previous.indexOf(start);
  const b = previous.indexOf(end);
  return a >= 0 && b > a ? previous.slice(a, b + end.length) : null;
}

/**
 * A section measured on its own (BENCH_ONLY=scans, board, live or sos) replaces only itself
 * in docs/benchmarks.md, between its markers; a new one goes before the Investigation.
 */
export function writeSectionInPlace(start: string, end: string, section: string): string {
  const file = path.join(repoRoot, 'docs/benchmarks.md');
  const previous = existsSync(file) ? readFileSync(file, 'utf8') : '# Benchmarks\n';
  const old = keptBlock(previous, start, end);
  let next: string;
  if (old) next = previous.replace(old, section);
  else if (previous.includes(INVESTIGATION_START))
    next = previous.replace(INVESTIGATION_START, `${section}\n\n${INVESTIGATION_START}`);
  else next = `${previous.trimEnd()}\n\n${section}\n`;
  writeFileSync(file, next);
  return file;
}

/** BENCH_ONLY=scans: this section only, in place. */
export function writeScanSyncSection(
  results: ScanSyncResult[],
  when: Date,
  commit: string,
  load?: [number, number],
): string {
  return writeSectionInPlace(SCANS_START, SCANS_END, scanSyncSection(results, when, commit, load));
}

const BOARD_START = '<!-- board-fanout:start -->';
const BOARD_END = '<!-- board-fanout:end -->';

/** The board fan-out section; measured on its own (BENCH_ONLY=board) it replaces only itself in the file. */
export function boardFanoutSection(
  results: BoardFanoutResult[],
  when: Date,
  commit: string,
  load?: [number, number],
): string {
  return [
    BOARD_START,
    '## 8. Board fan-out (event stream)',
    '',
    '`apps/server/bench/board-fanout.ts`: the real server on a fresh database with 1,000 verified riders and 6',
    'stations; 200 control boards (fetch-based SSE clients in the bench process) hold `GET /api/admin/event/stream`',
    'open; then a burst of 1,000 scans is synced through `POST /api/admin/scans` by 10 devices at once in batches of',
    "100. Latency: from the moment a scan's batch is sent to the moment each board has parsed its `scan` event",
    "(published with `pg_notify` in the ingest transaction, heard by the server's one LISTEN, written to every",
    'stream). Every (scan, board) pair is one sample. Goal: p95 ≤ 5 s.',
    '',
    `Measured ${when.toISOString().replace('T', ' ').slice(0, 16)} UTC, commit ${commit}${
      load ? `; load average (1 min) ${load[0].toFixed(1)} at start, ${load[1].toFixed(1)} at end` : ''
    }.`,
    '',
    markdownTable(boardFanoutRows(results)),
    '',
    'Reading it: "sync → board" holds the burst\'s own queue. The 1,000 scans arrive at once and are ingested',
    "batch after batch (the embedded database runs one transaction at a time), so the last batch's scans wait for",
    'the nine before it; "burst synced s" is that ingest time and "all on every board s" comes within a fraction of',
    'a second after it. "answer → board" isolates the push (from a sync\'s answer, i.e. its commit, to each board;',
    'negative when the event beat the HTTP answer): it is what a single synced scan costs to reach every open',
    'board. The 200 boards are parsed by one Node process beside the server on the same cores, which adds to',
    'both figures; the load average above was that of the whole shared machine. "GET board": 20 reads of',
    '`GET /api/admin/event/board` after the burst (1,000 riders on course), what a board fetches on (re)connecting.',
    BOARD_END,
  ].join('\n');
}

/** BENCH_ONLY=board: this section only, in place. */
export function writeBoardSection(
  results: BoardFanoutResult[],
  when: Date,
  commit: string,
  load?: [number, number],
): string {
  return writeSectionInPlace(BOARD_START, BOARD_END, boardFanoutSection(results, when, commit, load));
}

export const SOS_START = '<!-- sos-latency:start -->';
export const SOS_END = '<!-- sos-latency:end -->';

/** SOS sent to every open board; written in place after a full run or BENCH_ONLY=sos. */
export function sosLatencySection(
  results: SosLatencyResult[],
  when: Date,
  commit: string,
  load?: [number, number],
): string {
  return [
    SOS_START,
    '## 10. SOS to every open board',
    '',
    '`apps/server/bench/sos-latency.ts`: the real server on a fresh database; control boards hold',
    '`GET /api/admin/event/stream` open while riders send SOS calls (`POST /api/my/sos`) one after another.',
    'Latency: from sending a call to each board having parsed its `incident` event. Goal: p95 ≤ 5 s.',
    '',
    `Measured ${when.toISOString().replace('T', ' ').slice(0, 16)} UTC, commit ${commit}${
      load ? `; load average (1 min) ${load[0].toFixed(1)} at start, ${load[1].toFixed(1)} at end` : ''
    }.`,
    '',
    markdownTable(sosLatencyRows(results)),
    SOS_END,
  ].join('\n');
}

export const ONE_ADDRESS_START = '<!-- one-address:start -->';
export const ONE_ADDRESS_END = '<!-- one-address:end -->';

/** What the figures say, from the figures: a changed outcome must not keep an old sentence. */
function oneAddressReading(results: OneAddressResult[], rush?: RushResult[]): string {
  const clean = results.every((r) => r.tooMany === 0 && r.completed === r.riders);
  const pagesOk = results.every(
    (r) => !r.pages || r.pages.every((p) => p.status === 200 && p.contentType.startsWith('text/html')),
  );
  const embedded = results.find((r) => r.database === 'pglite');
  const embeddedRush = rush?.find((r) => r.database === 'pglite');
  return [
    `Reading it: ${clean ? 'no 429, every rider registered' : 'NOT every rider registered, or some got 429 (see the statuses)'}.`,
    'Past the threshold each registration is sent twice, the first refused before its files are read: the upload goes',
    'twice over the wire and the server reads and drops the first one.',
    embedded && embeddedRush
      ? `On the embedded database that rush registered ${Math.round(embedded.completed / (embedded.seconds / 60))} riders a minute, against ${Math.round(embeddedRush.perMinute)} for section 1's rush in this run (limits off, one upload each).`
      : '',
    pagesOk
      ? 'After the script requests the pages still answered 200 with HTML: files no longer spend a budget, and pages have their own.'
      : 'After the script requests some page did NOT answer 200 with HTML (see the table).',
  ]
    .filter(Boolean)
    .join(' ');
}

/** The 500-rider rush from one address (issue 26); written in place whenever it is measured. */
export function oneAddressSection(
  results: OneAddressResult[],
  when: Date,
  commit: string,
  load: [number, number],
  rush?: RushResult[],
): string {
  return [
    ONE_ADDRESS_START,
    '## 11. Registration rush from one address',
    '',
    "`apps/server/bench/one-address-rush.ts`: the product's defaults with the rate limits on, every request from one",
    "address (127.0.0.1), as riders behind a carrier's NAT or on a club's Wi-Fi arrive. Before issue 26, on those",
    'defaults, a rush from one address stopped at 200 riders and then answered 429 216 times within the minute, and',
    'after 1,500 requests for a static script `GET /user/{id}` answered `429 application/json`.',
    '',
    "Here 500 riders register through `POST /api/auth/register-with-uploads` with the rush's uploads (section 1), 16 at",
    'a time. Past `RATE_LIMIT_REGISTRATIONS` (30 an hour) the server asks each one for a proof-of-work (403',
    '`CHALLENGE_REQUIRED`), and the rider sends the same form again, files and all, with a solved challenge, as the',
    'registration form does. In the field every phone solves its own while the server serves the others; one',
    "process solving all of them would take the server's two cores, so they are solved before the rush (altcha-lib,",
    'the same algorithm the form runs in a Web Worker), one per core at a time, and handed out as the server asks:',
    '"solve" is one challenge\'s time on this machine, what a phone adds to its own registration (a mid-range phone is',
    'slower). "rider" runs from the first send to the 201, the refused first upload included. Then, from the same',
    'address, 1,500 requests for the entry script of the web build and the rider pages.',
    '',
    `Measured ${when.toISOString().replace('T', ' ').slice(0, 16)} UTC, commit ${commit}; load average (1 min) ${load[0].toFixed(1)} at start, ${load[1].toFixed(1)} at end.`,
    rush?.length
      ? `The same run's rush without limits (section 1): ${rush.map((r) => `${Math.round(r.perMinute)} registrations per minute, p50 ${r.p50} ms on ${DB_LABEL[r.database]}`).join('; ')}.`
      : '',
    '',
    markdownTable(oneAddressRows(results)),
    '',
    ...results.map(
      (r) =>
        `- ${DB_LABEL[r.database]}: statuses \`${JSON.stringify(r.statuses)}\`; the entry script answered \`${JSON.stringify(r.staticStatuses)}\`; challenges solved in ${r.solveSeconds.toFixed(1)} s of one solver in all.`,
    ),
    '',
    oneAddressReading(results, rush),
    ONE_ADDRESS_END,
  ].join('\n');
}

const INVESTIGATION_START = '<!-- investigation:start -->';
const INVESTIGATION_END = '<!-- investigation:end -->';

export const RUSH_START = '<!-- rush:start -->';
export const RUSH_END = '<!-- rush:end -->';

/** Section 1: the registration rush on each database, and its file queue; BENCH_ONLY=rush rewrites only it. */
export function rushSection(run: BenchRun, results: RushResult[], measured?: string): string {
  const [first] = results;
  return [
    RUSH_START,
    '## 1. Registration rush with uploads',
    '',
    `\`apps/server/bench/register-rush.ts\`, ${run.options.rushSeconds} s of load (\`BENCH_FULL=1\` for 60 s) on each database, one after the`,
    `other: the embedded one, then PostgreSQL (a fresh database per round on ${run.pgUrl}). Clients register riders`,
    'through POST /api/auth/register-with-uploads on a fresh server, each with a phone-sized profile photo and',
    "receipt, beside the raw argon2id hash rate at the server's parameters (m=19456 KiB, t=2, p=1) measured in the",
    "same process just before each database's rush, so each share compares figures taken minutes apart. Rider numbers run",
    "1..1000, so the load runs in rounds of up to 1,000 registrations, each on a fresh store. After each round's load",
    "the file queue drains: the time until every acknowledged rider's two images are served (a file is served only",
    'once processed). In the first round the server is killed with SIGKILL halfway through the drain and started',
    'again on the same data; a file never served after that is lost. "Registration answered → processed" comes from',
    "the queue's own rows. Server CPU is the server process's, all its threads (its event loop's thread in brackets),",
    "not PostgreSQL's. Alone: `npm run bench -- --only rush`, which rewrites this section and the rush's rows of the summary.",
    ...(measured ? ['', measured] : []),
    '',
    first ? `Upload per registration: ${first.upload}.` : '',
    ...results.map((r) => `- ${DB_LABEL[r.database]}: statuses \`${JSON.stringify(r.statuses)}\`.`),
    ...(results.some((r) => r.database === 'postgres') ? [] : ['- PostgreSQL: _not run_ (see the notes above).']),
    '',
    results.length ? markdownTable(rushRows(results)) : '_not run_',
    RUSH_END,
  ].join('\n');
}

/**
 * BENCH_ONLY=rush: section 1 in place, and the rush's rows of the summary and its note under
 * "Why the misses" (the other rows keep the figures of the run that wrote them).
 */
export function writeRushSection(run: BenchRun, results: RushResult[], load?: [number, number]): string {
  const when = run.started;
  const measured = `Measured ${when.toISOString().replace('T', ' ').slice(0, 16)} UTC, commit ${run.commit}${
    load ? `; load average (1 min) ${load[0].toFixed(1)} at start, ${load[1].toFixed(1)} at end` : ''
  }.`;
  const file = path.join(repoRoot, 'docs/benchmarks.md');
  const previous = existsSync(file) ? readFileSync(file, 'utf8') : '';
  // A file written before this section had markers: its unmarked section 1 is replaced.
  const a = previous.indexOf('## 1. Registration rush with uploads');
  const b = previous.indexOf('## 2. Rider-number contention');
  if (!previous.includes(RUSH_START) && a >= 0 && b > a)
    writeFileSync(file, `${previous.slice(0, a)}${RUSH_START}\n${RUSH_END}\n\n${previous.slice(b)}`);
  writeSectionInPlace(RUSH_START, RUSH_END, rushSection(run, results, measured));

  const lines = readFileSync(file, 'utf8').split('\n');
  const summary = lines.indexOf('## Summary against the goals');
  if (summary >= 0) {
    // The summary's table: from its header to the first line that is not a table row.
    const head = lines.findIndex((l, i) => i > summary && l.startsWith('| '));
    let end = head;
    while (end >= 0 && end < lines.length && lines[end]?.startsWith('|')) end++;
    if (head >= 0) {
      const rows = markdownTable(summaryRows({ rush: results, contention: [] }))
        .split('\n')
        .slice(2);
      const old = lines
        .map((l, i) => (i > head + 1 && i < end && l.startsWith('| rush |') ? i : -1))
        .filter((i) => i >= 0);
      const at = old[0] ?? head + 2;
      for (const i of old.reverse()) lines.splice(i, 1);
      lines.splice(at, 0, ...rows);
    }
  }
  const note = rushMissNote(results);
  const oldNote = lines.findIndex((l) => l.startsWith('- **Rush**'));
  if (oldNote >= 0) {
    if (note) lines[oldNote] = `- ${note}`;
    else lines.splice(oldNote, 1);
  } else if (note) {
    const misses = lines.indexOf('### Why the misses');
    if (misses >= 0) lines.splice(misses + 2, 0, `- ${note}`);
    else lines.splice(lines.indexOf(RUSH_START), 0, '### Why the misses', '', `- ${note}`, '');
  }
  // No note left under the heading: the heading goes too.
  const misses = lines.indexOf('### Why the misses');
  if (misses >= 0 && !lines[misses + 2]?.startsWith('- ')) lines.splice(misses, 2);
  writeFileSync(file, lines.join('\n'));
  return file;
}

export function writeReport(run: BenchRun, res: Results): string {
  const file = path.join(repoRoot, 'docs/benchmarks.md');
  const previous = existsSync(file) ? readFileSync(file, 'utf8') : '';
  const a = previous.indexOf(INVESTIGATION_START);
  const b = previous.indexOf(INVESTIGATION_END);
  const investigation =
    a >= 0 && b > a
      ? previous.slice(a, b + INVESTIGATION_END.length)
      : `${INVESTIGATION_START}\n## Investigation\n\n_Not written yet._\n${INVESTIGATION_END}`;
  const m = run.machine;
  const o = run.options;
  const rd = o.reads;
  const lines: string[] = [
    '# Benchmarks',
    '',
    'Written by `npm run bench` (`apps/server/bench/run-all.ts`); every figure below comes from one run on one machine,',
    'compared things measured side by side in that run. Only the Investigation section is written by hand.',
    '',
    `- Date: ${run.started.toISOString().replace('T', ' ').slice(0, 16)} UTC; commit ${run.commit}`,
    `- Machine: ${m.cores} cores, ${m.model}, ${m.memoryGiB} GiB, ${m.platform}, Node ${m.node}`,
    `- Load average (1 min) ${run.loadAtStart.toFixed(1)} at start, ${run.loadAtEnd.toFixed(1)} at end: the machine is shared, absolute figures move with the neighbours' load; ratios measured side by side move less`,
    `- Databases: ${run.kinds.map((k) => DB_LABEL[k]).join(' and ')}${run.kinds.includes('postgres') ? ` (a fresh database per server on ${run.pgUrl}, dropped afterwards)` : ''}`,
    `- Whole run ${run.totalSeconds.toFixed(0)} s (${Object.entries(run.stepSeconds)
      .map(([k, v]) => `${k.replace(/^\d\. /, '')} ${v.toFixed(0)} s`)
      .join(', ')})`,
    ...run.errors.map((e) => `- Note: ${e}`),
    '',
    '## Summary against the goals',
    '',
    markdownTable(summaryRows(res)),
    '',
  ];
  const notes = missNotes(run, res);
  if (notes.length) lines.push('### Why the misses', '', ...notes.map((n) => `- ${n}`), '');
  lines.push(
    rushSection(run, res.rush ?? []),
    '',
    '## 2. Rider-number contention',
    '',
    '`apps/server/bench/contention.ts`: 200 registrations (same uploads as the rush) for one rider number, all sent at',
    'once to a fresh server; time from the first send to the last answer.',
    '',
    res.contention.length ? markdownTable(contentionRows(res.contention)) : '_not run_',
    '',
    '## 3. Public reads beside a bare Fastify hello-world',
    '',
    `\`apps/server/bench/reads.ts\`: autocannon, ${rd.connections} connections, no pipelining, ${rd.seconds} s each after ${rd.warmupSeconds} s of`,
    `warm-up, against servers with ${rd.taken} riders registered over HTTP. Hello-world is a separate \`node --import tsx\``,
    'process like the server, measured first and last; ratios use the mean of the two. "profile" reads one rider (a',
    'shared link opened by a crowd); "profiles, all riders in turn" reads every seeded rider round-robin, so the answer',
    "cache is measured on the riders' real mix too.",
    '',
    res.reads ? markdownTable(readRows(res.reads)) : '_not run_',
    '',
    res.reads
      ? `Seeding ${rd.taken} riders took ${res.reads.seeding.map((s) => `${s.seconds.toFixed(0)} s on ${DB_LABEL[s.db]}`).join(', ')} (concurrently); the taken list answer is ${Object.entries(
          res.reads.takenBytes,
        )
          .map(([k, v]) => `${v} bytes on ${DB_LABEL[k as DbKind]}`)
          .join(', ')}.`
      : '',
    '',
    res.landing
      ? landingSection(res.landing, o.lighthouseRuns)
      : (keptBlock(previous, LANDING_START, LANDING_END) ??
          `${LANDING_START}\n## 4. Landing page\n\n_not run_\n${LANDING_END}`),
    '',
    res.scanSync?.length
      ? scanSyncSection(res.scanSync, run.started, run.commit, [run.loadAtStart, run.loadAtEnd])
      : (keptBlock(previous, SCANS_START, SCANS_END) ?? ''),
    '## 6. Memory and start-up',
    '',
    '`apps/server/bench/memory.ts`: per database, the server as `npm start` runs it (built JavaScript, the start',
    'script\'s Node flags) in the production unit\'s environment (`MALLOC_ARENA_MAX=2`, docs/operations.md "Memory"; ' +
      "`BENCH_MALLOC_ARENA_MAX=` measures glibc's default) on an empty store, idle; a rush of 990 registrations with the rush's uploads against that",
    "process, its peak resident memory being the kernel's high-water mark (VmHWM); then a restart on the filled store,",
    'timed from spawn to the first answer. The split comes from `memory-probe.mjs`, preloaded into the server.',
    'Last, `npm start` itself, from the command to the first answer on an unchanged checkout.',
    '"before (this machine)" is the same step on commit 318cef6, before this work (server through tsx, PGlite at its',
    'defaults, `npm start` rebuilding the web client); "before (issue)" are the figures of issue #19.',
    '',
    res.memory ? markdownTable(memoryRows(res.memory)) : '_not run_',
    '',
    res.memory ? markdownTable(memorySplitRows(res.memory)) : '',
    '',
    '## 7. Scanner verdict time',
    '',
    '`apps/server/bench/scanner-verdict.ts`: 1,000 riders registered and approved through the API, the marshal page',
    '`/scan` in Chromium with the roster on the device, then 200 typed rider numbers; the time from submitting a number',
    'to the first frame painted with its verdict, at full CPU and with the CPU slowed 4× (a mid-range phone).',
    '',
    res.verdict
      ? res.verdict.runs
          .map(
            (r) =>
              `- CPU ${r.cpuSlowdown}×: p50 ${r.p50.toFixed(1)} ms, p95 ${r.p95.toFixed(1)} ms, max ${r.max.toFixed(0)} ms (goal p95 ≤ 300 ms)`,
          )
          .join('\n')
      : '_not run_',
    '',
    res.board?.length
      ? boardFanoutSection(res.board, run.started, run.commit, [run.loadAtStart, run.loadAtEnd])
      : (keptBlock(previous, BOARD_START, BOARD_END) ?? ''),
    '',
    // Measured by run-all and written in place after this (oneAddressSection); kept meanwhile.
    keptBlock(previous, ONE_ADDRESS_START, ONE_ADDRESS_END) ?? '',
    '',
    investigation,
    '',
  );
  writeFileSync(file, `${lines.join('\n').replace(/\n{3,}/g, '\n\n')}`);
  return file;
}

export const EDITIONS_START = '<!-- editions:start -->';
export const EDITIONS_END = '<!-- editions:end -->';

/** The upgrade to editions and the public reads beside past editions; written in place. */
export function editionsSection(report: EditionsReport, when: Date, commit: string, load?: [number, number]): string {
  return [
    EDITIONS_START,
    '## 13. Editions: the upgrade, public reads with past editions',
    '',
    '`apps/server/bench/editions.ts`. The upgrade: a database at the level before editions (migration 0010) holding',
    `${report.upgrades[0]?.riders ?? 0} verified riders, 6 stations, ${report.upgrades[0]?.scans ?? 0} scans and saved event settings is upgraded by the`,
    "server's own migrations; every table's rows are counted before and after (the settings row, which becomes the first",
    'edition, aside). Then the rollover: a next edition is made current on that install (every entry keeps its',
    'result in its `entries` row, nothing archived or copied, one transaction). The reads: the real server with three',
    'past editions beside the current one (each with every rider’s entry, and every edition the same event day: 6 stations, every rider’s',
    'passage at each, an incident for every 20th rider), each read under',
    `autocannon (${report.options.connections} connections, ${report.options.seconds} s after a ${report.options.warmupSeconds} s warm-up) as a share of a bare Fastify hello-world`,
    "measured first and last in the same run (reads.ts's method; goal: a profile read keeps today's ≥ 40%).",
    '',
    `Measured ${when.toISOString().replace('T', ' ').slice(0, 16)} UTC, commit ${commit}${
      load ? `; load average (1 min) ${load[0].toFixed(1)} at start, ${load[1].toFixed(1)} at end` : ''
    }.`,
    '',
    markdownTable(editionsUpgradeRows(report)),
    '',
    markdownTable(editionsReadRows(report)),
    '',
    ...editionsPastShares(report),
    EDITIONS_END,
  ].join('\n');
}

export const TRACKING_START = '<!-- tracking:start -->';
export const TRACKING_END = '<!-- tracking:end -->';

/** Step 14: positions in from Traccar Client, the board's last positions, the stop alert. */
export function trackingSection(
  results: readonly TrackingIngestResult[],
  when: Date,
  commit: string,
  load?: [number, number],
): string {
  const verdicts = results.map((r) => ({
    database: DB_LABEL[r.database],
    [`≥ ${TRACKING_GOAL_PER_S.toLocaleString('en')} positions/s (buffer flushes)`]:
      r.flushes.perSecond >= TRACKING_GOAL_PER_S ? 'met' : 'MISSED',
    [`board within ${BOARD_GOAL_MS / 1000} s (p95)`]:
      r.board.missing === 0 && r.board.p95Ms <= BOARD_GOAL_MS ? 'met' : 'MISSED',
    'stop alert within 60 s of its threshold':
      r.alerts.raised === r.alerts.probes ? 'met (one interval + the time above)' : 'MISSED',
    'every position stored once': r.stored === r.sent && r.failures === 0 ? 'yes' : 'NO',
  }));
  return [
    TRACKING_START,
    '## 14. Tracking: positions in, the board, the stop alert',
    '',
    '`apps/server/bench/tracking-ingest.ts` (`npm run bench -- --only tracking`). The real server on a fresh database,',
    `${results[0]?.riders ?? 0} verified riders with tracking on, a marshal's console holding the event stream; every request`,
    "is what Traccar Client sends (`apps/server/src/test/traccar-client.ts`). Singles: the Android app's POST with the",
    'position in the query string, one position per request, 64 in flight. Flushes: a valley of riders back in',
    "coverage, each buffer one JSON array (app 10.x) of two hours of positions, 16 in flight. Steady: the event day's",
    'pace (every rider once a minute, 17 requests/s), each `position` event timed from its request to the board. Stop',
    'alerts: riders on course stop 5 km from any station and send a position a minute; the alert comes with the first',
    "position past `TRACKING_STOPPED_MIN`, so at the app's 60 s interval it is raised at most a minute after the",
    'threshold plus the time measured here (from that request to the `incident` event on the board). Afterwards the',
    'database is counted: every position stored exactly once. Singles are one HTTP request per position: on these 2',
    'cores, shared with the load generator, they reach about a thousand a second (group commit writes them in',
    'batches; 256 in flight instead of 64 measured the same), so the goal is met by the buffers riders flush.',
    '',
    `Measured ${when.toISOString().replace('T', ' ').slice(0, 16)} UTC, commit ${commit}${
      load ? `; load average (1 min) ${load[0].toFixed(1)} at start, ${load[1].toFixed(1)} at end` : ''
    }.`,
    '',
    markdownTable(trackingIngestRows([...results])),
    '',
    markdownTable(verdicts),
    TRACKING_END,
  ].join('\n');
}
