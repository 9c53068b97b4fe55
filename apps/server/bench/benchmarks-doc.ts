// docs/benchmarks.md from one run: machine, tables, goals and, for each miss, this run's
// figures with the cause measured in the "Investigation" section. That section is written
// by hand (profiles and A/B runs, not this run's figures) and carried over on every rewrite.
import { existsSync, readFileSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import { DB_LABEL, type DbKind, repoRoot } from './common';
import { contentionRows } from './contention';
import { type ReadsReport, readRows } from './reads';
import { type BenchRun, goals, int, landingRows, pct, type Results, rushRows, summaryRows } from './report';

/** Why a goal missed: this run's figures plus the cause measured in the Investigation section. */
function missNotes(res: Results): string[] {
  const notes: string[] = [];
  const failed = (benchmark: string) => goals(res).some((g) => g.benchmark === benchmark && g.pass === false);
  if (res.rush && failed('rush')) {
    const r = res.rush;
    notes.push(
      `**Rush** (${int(r.perMinute)}/min, ${pct(r.perMinute / r.hashesPerMinute)} of argon2id's ${int(r.hashesPerMinute)}/min on this machine in this run). ` +
        'The password hash is the smallest part of a registration with uploads. Measured per registration ' +
        '(Investigation, "Rush"): argon2id ~14 ms of CPU, sharp re-encoding the two images ~33 ms of CPU, and on the ' +
        "embedded database 40–50 ms on the event loop (PGlite runs on the server's JavaScript thread), 31–41 ms of " +
        'which is storing the ~710 KB of image bytes; a CPU profile of the server during a rush shows its event loop ' +
        '97% busy, 63% of it inside PGlite. The embedded database therefore caps the rush near 1,000–1,400/min ' +
        'whatever the cores (PostgreSQL reached 1,368/min in a side run), and while every image is re-encoded ' +
        '(DESIGN §5) no server can approach 70% of a bare hash rate.',
    );
  }
  const contentionSlow = res.contention.filter((c) => c.allAnsweredMs > 1000);
  if (contentionSlow.length) {
    const pgLost = res.contention.find((c) => c.lostAtIndex !== null);
    notes.push(
      `**Contention** (no goal on time, shown for context): the one winner is always right, but answering all ` +
        `${contentionSlow[0].claims} took ${contentionSlow.map((c) => `${(c.allAnsweredMs / 1000).toFixed(1)} s on ${DB_LABEL[c.db]}`).join(', ')}. ` +
        (pgLost
          ? `On PostgreSQL ${pgLost.lostAtIndex} losers passed the "number free?" look-up (it runs before any winner commits) and paid for both images and a hash before the unique index refused them. `
          : '') +
        'Queueing registrations of the same number inside the process cut that to a third (PGlite) and a half (PostgreSQL) in an A/B run (Investigation, "Contention").',
    );
  }
  if (res.reads && failed('reads')) {
    const rows = res.reads.runs
      .filter((r) => r.db)
      .map(
        (r) =>
          `${r.target} on ${DB_LABEL[r.db as DbKind]} ${pct(r.reqPerSec / (res.reads as ReadsReport).helloReqPerSec)}, p99 ${r.p99} ms`,
      );
    notes.push(
      `**Reads** (${rows.join('; ')}). On the embedded database every query runs on the server's only JavaScript ` +
        'thread: in-process a profile read costs 1.37 ms of it (0.13 ms Drizzle building the SQL, ~0.4 ms planning ' +
        'and ~0.15 ms executing inside PGlite, the rest its protocol; even `select 1` costs 0.16 ms) and the taken list ' +
        '1.86 ms (500 rows parsed one by one), so 50 connections queue behind one thread and p99 is queueing. On ' +
        'PostgreSQL the query is parsed and planned again for every request and Drizzle rebuilds and maps it in Node ' +
        "(34% of the server's CPU in a profile; @fastify/helmet rebuilding its headers per request another ~4%): a " +
        'prepared statement takes the profile query from 0.97 to 0.21 ms and doubled req/s end to end. zod ' +
        're-validating the 500-number taken array costs 0.19 ms per answer against 0.006 ms for JSON.stringify. ' +
        'Only answers cached in the process reached the goal in A/B runs: 43–60% of hello-world, p99 7–31 ms ' +
        '(Investigation, "Reads").',
    );
  }
  if (res.landing && failed('landing')) {
    const m = res.landing.lighthouse.median;
    notes.push(
      `**Landing** (score ${m.score}, LCP ${(m.lcpMs / 1000).toFixed(2)} s). The server sends the built assets ` +
        `uncompressed: the entry script came back with content-encoding "${res.landing.entryEncoding}" to a browser ` +
        `accepting br and gzip, and Lighthouse counted ${Math.round(m.jsCssTransferKB)} KB on the wire for ` +
        `${Math.round(m.jsCssResourceKB)} KB of JS and CSS, which the simulated slow-4G phone needs ~2 s to fetch. ` +
        'Serving precompressed files moved the score to 97–98 and LCP to ~2.0 s in an A/B run; what remains is ' +
        'render delay (the landing text exists only after React has run) (Investigation, "Landing").',
    );
  }
  return notes;
}

function markdownTable(rows: Record<string, unknown>[]): string {
  if (rows.length === 0) return '_no figures_\n';
  const keys = [...new Set(rows.flatMap((r) => Object.keys(r)))];
  const cell = (v: unknown) => (v === undefined || v === null ? '' : String(v).replace(/\|/g, '\\|'));
  return [
    `| ${keys.join(' | ')} |`,
    `| ${keys.map(() => '---').join(' | ')} |`,
    ...rows.map((r) => `| ${keys.map((k) => cell(r[k])).join(' | ')} |`),
  ].join('\n');
}

const INVESTIGATION_START = '<!-- investigation:start -->';
const INVESTIGATION_END = '<!-- investigation:end -->';

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
  const notes = missNotes(res);
  if (notes.length) lines.push('### Why the misses', '', ...notes.map((n) => `- ${n}`), '');
  lines.push(
    '## 1. Registration rush with uploads',
    '',
    `\`apps/server/bench/register-rush.ts\`, ${o.rushSeconds} s of load (\`BENCH_FULL=1\` for 60 s): clients register riders through`,
    'POST /api/auth/register-with-uploads on a fresh server, each with a phone-like profile photo and receipt, beside',
    "the raw argon2id hash rate at the server's parameters (m=19456 KiB, t=2, p=1) measured in the same process run.",
    res.rush ? `Upload per registration: ${res.rush.upload}. Statuses: \`${JSON.stringify(res.rush.statuses)}\`.` : '',
    '',
    res.rush ? markdownTable(rushRows(res.rush)) : '_not run_',
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
    'process like the server, measured first and last; ratios use the mean of the two.',
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
    '## 4. Landing page',
    '',
    '`apps/server/bench/landing.ts`: a private `vite build` of apps/web, measured by `apps/web/scripts/check-budget.mjs`,',
    `then Lighthouse ${o.lighthouseRuns > 1 ? `(${o.lighthouseRuns} runs, the median by score counts)` : ''} with its default mobile preset (simulated slow 4G, 4x CPU slowdown) in /usr/bin/chromium`,
    'against the real server serving that build (WEB_DIST). The network is closed, so map tiles never load.',
    '',
    res.landing
      ? [
          `JavaScript before interaction: **${res.landing.js.gzippedKB} KB** gzipped (budget ${res.landing.js.budgetKB} KB): ${res.landing.js.files
            .map((f) => `${f.file} ${f.kb} KB`)
            .join(', ')}.`,
          `Entry script as served to a browser accepting br and gzip: content-encoding \`${res.landing.entryEncoding}\`.`,
          `Largest contentful paint element: "${res.landing.lighthouse.median.lcpElement}".`,
          '',
          markdownTable(landingRows(res.landing)),
        ].join('\n')
      : '_not run_',
    '',
    investigation,
    '',
  );
  writeFileSync(file, `${lines.join('\n').replace(/\n{3,}/g, '\n\n')}`);
  return file;
}
