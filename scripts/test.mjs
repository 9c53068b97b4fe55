#!/usr/bin/env node
// `npm test`: lint and types, the API and unit suites (Vitest, on PGlite and on PostgreSQL
// when TEST_DATABASE_URL is set), the web build with its size budget, and the end-to-end
// suite in the system Chromium (every spec on the embedded database, the event-day specs on
// PostgreSQL as well). Ends with one 'N passed, N failed, N skipped' line and a table of each
// phase's time, so a phase that grows slow is seen the day it does.
//
//   npm test                      everything
//   npm test -- --unit            lint, types and Vitest (no build, no browser)
//   npm test -- --only vitest     one phase (or several, comma-separated): lint, types, vitest, build, e2e
import { spawnSync } from 'node:child_process';
import { existsSync, mkdirSync, readFileSync, rmSync } from 'node:fs';
import path from 'node:path';

const root = path.resolve(import.meta.dirname, '..');
const tmp = path.join(root, '.tmp');
mkdirSync(tmp, { recursive: true });
const chromium = process.env.CHROMIUM_PATH || '/usr/bin/chromium';

const PHASES = ['lint', 'types', 'vitest', 'build', 'e2e'];
const onlyArg = process.argv.indexOf('--only');
const selected = new Set(
  onlyArg >= 0
    ? (process.argv[onlyArg + 1] ?? '').split(',').filter(Boolean)
    : process.argv.includes('--unit')
      ? ['lint', 'types', 'vitest']
      : PHASES,
);
for (const name of selected) {
  if (!PHASES.includes(name)) {
    console.error(`Unknown phase "${name}". Phases: ${PHASES.join(', ')}`);
    process.exit(2);
  }
}

let passed = 0;
let failed = 0;
let skipped = 0;
const problems = [];
const timings = [];
/** Each failed test with the first lines of its error: printed at the end, where CI's tail shows it. */
const failures = [];
const firstLines = (text, n = 4) =>
  String(text ?? '')
    // biome-ignore lint/suspicious/noControlCharactersInRegex: colour codes in reporter messages
    .replace(/\x1b\[[0-9;]*m/g, '')
    .split('\n')
    .filter((line) => line.trim())
    .slice(0, n)
    .map((line) => `      ${line.trim().slice(0, 200)}`)
    .join('\n');

function run(title, cmd, args, env = {}) {
  console.log(`\n=== ${title}: ${cmd} ${args.join(' ')}`);
  const started = performance.now();
  const res = spawnSync(cmd, args, { cwd: root, stdio: 'inherit', env: { ...process.env, ...env } });
  timings.push({ title, ms: performance.now() - started, ok: res.status === 0 });
  if (res.status !== 0) problems.push(`${title} failed (exit ${res.status ?? res.signal})`);
  return res.status === 0;
}

function readJson(file) {
  try {
    return JSON.parse(readFileSync(file, 'utf8'));
  } catch {
    return null;
  }
}

const npx = 'npx';
if (selected.has('lint')) {
  run('lint', npx, ['biome', 'ci', '.']);
  // The server's import graph (no cycle, layers one-way) and the README's length.
  run('lint: structure', process.execPath, ['scripts/check-structure.mjs']);
}
if (selected.has('types')) {
  run('types: shared', npx, ['tsc', '-p', 'packages/shared']) &&
    run('types: server', npx, ['tsc', '-p', 'apps/server']) &&
    run('types: web', npx, ['tsc', '-p', 'apps/web']);
}

if (selected.has('vitest')) {
  // VITEST_RESULTS: CI runs a second Vitest beside this one (.ci/run) and names its own file.
  const vitestOut = path.resolve(root, process.env.VITEST_RESULTS ?? path.join(tmp, 'vitest-results.json'));
  rmSync(vitestOut, { force: true });
  const databases = process.env.TEST_DATABASE_URL ? 'PGlite and PostgreSQL' : 'PGlite';
  run(`unit and API tests (${databases}, Node ${process.versions.node})`, npx, [
    'vitest',
    'run',
    '--reporter=default',
    '--reporter=json',
    `--outputFile.json=${vitestOut}`,
  ]);
  const v = readJson(vitestOut);
  if (v) {
    passed += v.numPassedTests;
    failed += v.numFailedTests;
    skipped += v.numPendingTests + (v.numTodoTests ?? 0);
    for (const file of v.testResults ?? []) {
      const where = path.relative(root, file.name);
      for (const t of file.assertionResults ?? [])
        if (t.status === 'failed')
          failures.push(`vitest ${where} › ${t.fullName}\n${firstLines(t.failureMessages?.[0])}`);
      // A file that failed before any test ran (an import or a hook) has no failed test of its own.
      if (file.status === 'failed' && !(file.assertionResults ?? []).some((t) => t.status === 'failed'))
        failures.push(`vitest ${where}\n${firstLines(file.message)}`);
    }
  } else problems.push('unit and API tests wrote no results');
}

let built = !selected.has('build');
if (selected.has('build')) built = run('web build and JavaScript budget', 'npm', ['run', 'build', '-w', '@rally/web']);

if (selected.has('e2e')) {
  if (!existsSync(chromium)) {
    const why = `no Chromium at ${chromium} (install Debian's chromium package: apt-get install -y chromium)`;
    if (process.env.CI === 'true') problems.push(`e2e could not run: ${why}`);
    else console.log(`\n=== e2e SKIPPED: ${why}`);
  } else if (built) {
    const pwOut = path.join(tmp, 'playwright-results.json');
    rmSync(pwOut, { force: true });
    // With TEST_DATABASE_URL the run has a second project: the event-day specs on PostgreSQL
    // (playwright.config.ts; E2E_POSTGRES=skip leaves it out).
    const projects =
      process.env.TEST_DATABASE_URL && process.env.E2E_POSTGRES !== 'skip'
        ? 'every spec on PGlite, event-day specs on PostgreSQL'
        : 'every spec on PGlite';
    run(
      `e2e in Chromium (${projects}, server on Node ${process.versions.node})`,
      npx,
      ['playwright', 'test', '-c', 'apps/web/playwright.config.ts', '--reporter=list,json'],
      {
        PLAYWRIGHT_JSON_OUTPUT_NAME: pwOut,
      },
    );
    const p = readJson(pwOut);
    if (p?.stats) {
      passed += p.stats.expected;
      failed += p.stats.unexpected + (p.stats.flaky ?? 0);
      skipped += p.stats.skipped;
      // retries are 0: a test that needed a second try would be a defect, counted as a failure.
      if (p.stats.flaky) problems.push(`${p.stats.flaky} e2e test(s) passed only on retry`);
      const walk = (suite, titles) => {
        for (const spec of suite.specs ?? [])
          for (const t of spec.tests ?? []) {
            if (t.status === 'expected' || t.status === 'skipped') continue;
            const last = t.results?.at(-1);
            const name = [...titles, spec.title].filter(Boolean).join(' › ');
            failures.push(
              `e2e [${t.projectName}] ${spec.file}:${spec.line} › ${name} (${t.status}, ${Math.round((last?.duration ?? 0) / 1000)} s)\n${firstLines(last?.error?.message)}`,
            );
          }
        for (const child of suite.suites ?? []) walk(child, [...titles, child.title]);
      };
      for (const suite of p.suites ?? []) walk(suite, []);
    } else problems.push('e2e wrote no results');
  }
}

console.log('');
if (failures.length) {
  console.log(`Failed tests (${failures.length}):`);
  for (const f of failures) console.log(`  ${f}`);
  console.log('');
}
for (const p of problems) console.log(`PROBLEM: ${p}`);
console.log(`${passed} passed, ${failed} failed, ${skipped} skipped`);

const seconds = (ms) => `${(ms / 1000).toFixed(1)} s`;
const width = Math.max(5, ...timings.map((t) => t.title.length));
const total = timings.reduce((sum, t) => sum + t.ms, 0);
console.log(`\n${'phase'.padEnd(width)}  ${'time'.padStart(9)}  result`);
for (const t of timings)
  console.log(`${t.title.padEnd(width)}  ${seconds(t.ms).padStart(9)}  ${t.ok ? 'ok' : 'FAILED'}`);
console.log(`${'total'.padEnd(width)}  ${seconds(total).padStart(9)}`);
process.exit(problems.length > 0 || failed > 0 ? 1 : 0);
