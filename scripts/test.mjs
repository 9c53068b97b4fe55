#!/usr/bin/env node
// `npm test`: lint and types, the API and unit suites (Vitest, on PGlite and on
// PostgreSQL when TEST_DATABASE_URL is set), the web build with its size budget, and the
// end-to-end suite in the system Chromium. Ends with one 'N passed, N failed' line.
import { spawnSync } from 'node:child_process';
import { existsSync, mkdirSync, readFileSync, rmSync } from 'node:fs';
import path from 'node:path';

const root = path.resolve(import.meta.dirname, '..');
const tmp = path.join(root, '.tmp');
mkdirSync(tmp, { recursive: true });
const chromium = process.env.CHROMIUM_PATH || '/usr/bin/chromium';
const onlyUnit = process.argv.includes('--unit');

let passed = 0;
let failed = 0;
let skipped = 0;
const problems = [];

function run(title, cmd, args, env = {}) {
  console.log(`\n=== ${title}: ${cmd} ${args.join(' ')}`);
  const res = spawnSync(cmd, args, { cwd: root, stdio: 'inherit', env: { ...process.env, ...env } });
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
run('lint', npx, ['biome', 'ci', '.']);
run('types', npx, ['tsc', '-p', 'packages/shared']) &&
  run('types', npx, ['tsc', '-p', 'apps/server']) &&
  run('types', npx, ['tsc', '-p', 'apps/web']);

const vitestOut = path.join(tmp, 'vitest-results.json');
rmSync(vitestOut, { force: true });
run('unit and API tests', npx, [
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
} else problems.push('unit and API tests wrote no results');

if (!onlyUnit) {
  const built = run('web build and JavaScript budget', 'npm', ['run', 'build', '-w', '@rally/web']);
  if (!existsSync(chromium)) {
    const why = `no Chromium at ${chromium} (install Debian's chromium package: apt-get install -y chromium)`;
    if (process.env.CI === 'true') problems.push(`e2e could not run: ${why}`);
    else console.log(`\n=== e2e SKIPPED: ${why}`);
  } else if (built) {
    const pwOut = path.join(tmp, 'playwright-results.json');
    rmSync(pwOut, { force: true });
    run('e2e in Chromium', npx, ['playwright', 'test', '-c', 'apps/web/playwright.config.ts', '--reporter=list,json'], {
      PLAYWRIGHT_JSON_OUTPUT_NAME: pwOut,
    });
    const p = readJson(pwOut);
    if (p?.stats) {
      passed += p.stats.expected;
      failed += p.stats.unexpected;
      skipped += p.stats.skipped;
      if (p.stats.flaky) {
        passed += p.stats.flaky;
        console.log(`(${p.stats.flaky} e2e test(s) passed only on retry)`);
      }
    } else problems.push('e2e wrote no results');
    // E2E_POSTGRES=skip: .ci/run's second Node leg, whose Vitest run covers PostgreSQL already.
    if (process.env.TEST_DATABASE_URL && process.env.E2E_POSTGRES === 'skip')
      console.log('\n=== event-day e2e on PostgreSQL: skipped (E2E_POSTGRES=skip)');
    else if (process.env.TEST_DATABASE_URL) await e2eOnPostgres(process.env.TEST_DATABASE_URL);
  }
}

/**
 * The event-day specs again, with the server and the tests' CLI on a fresh database of
 * the PostgreSQL server the API tests use (dropped afterwards), since marshals' phones
 * must work the same against either database.
 */
async function e2eOnPostgres(adminUrl) {
  const { default: pg } = await import('pg');
  const name = `rally_e2e_${process.pid}_${Date.now()}`;
  const admin = new pg.Client({ connectionString: adminUrl });
  await admin.connect();
  await admin.query(`create database ${name}`);
  const url = new URL(adminUrl);
  url.pathname = `/${name}`;
  const pwOut = path.join(tmp, 'playwright-results-postgres.json');
  rmSync(pwOut, { force: true });
  try {
    run(
      'event-day e2e on PostgreSQL',
      npx,
      ['playwright', 'test', '-c', 'apps/web/playwright.config.ts', '--reporter=list,json'],
      {
        PLAYWRIGHT_JSON_OUTPUT_NAME: pwOut,
        E2E_DATABASE_URL: url.toString(),
        E2E_DATA_DIR: path.join(tmp, `e2e-data-pg-${Date.now()}`),
        E2E_OUTPUT_DIR: 'test-results/e2e-postgres',
      },
    );
  } finally {
    await admin.query(`drop database if exists ${name} with (force)`).catch(() => {});
    await admin.end();
  }
  const p = readJson(pwOut);
  if (p?.stats) {
    passed += p.stats.expected + (p.stats.flaky ?? 0);
    failed += p.stats.unexpected;
    skipped += p.stats.skipped;
  } else problems.push('e2e on PostgreSQL wrote no results');
}

console.log('');
for (const p of problems) console.log(`PROBLEM: ${p}`);
console.log(`${passed} passed, ${failed} failed, ${skipped} skipped`);
process.exit(problems.length > 0 || failed > 0 ? 1 : 0);
