// End-to-end tests: the built web app served by the real server on a fresh embedded
// database, driven in the system Chromium (never a downloaded browser).
import { execSync } from 'node:child_process';
import { existsSync, mkdirSync } from 'node:fs';
import { dirname, join, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';
import { defineConfig, devices } from '@playwright/test';
import { CHROMIUM_ARGS, CHROMIUM_PATH } from './e2e/support/chromium';

const webDir = dirname(fileURLToPath(import.meta.url));
const root = resolve(webDir, '../..');
const port = Number(process.env.E2E_PORT ?? 3199);
const baseURL = `http://127.0.0.1:${port}`;

// The config is evaluated again in every worker; the env var keeps one data dir for the
// whole run (workers inherit it), so the tests' CLI calls reach the same server.
process.env.E2E_DATA_DIR ??= join(root, '.tmp', `e2e-data-${Date.now()}`);
const dataDir = process.env.E2E_DATA_DIR;
mkdirSync(dataDir, { recursive: true });
process.env.E2E_BASE_URL = baseURL;

// With E2E_DATABASE_URL (scripts/test.mjs makes a fresh database on the PostgreSQL
// server of TEST_DATABASE_URL), the server and the tests' CLI calls use PostgreSQL, and
// the run covers the event-day specs, which promise both databases; the
// sign-up and console specs run on the embedded database only, to keep CI short.
const pgUrl = process.env.E2E_DATABASE_URL;
if (pgUrl) process.env.DATABASE_URL = pgUrl;
/** The specs that run on both databases. */
export const EVENT_DAY_SPECS = /\/(scanner|event-day|rider-pass|board|incidents|sos|live)[^/]*\.spec\.ts$/;

// The server serves apps/web/dist (or E2E_WEB_DIST, e.g. a private build while others
// rebuild dist); build it once if it is missing so a bare `npm run test:e2e` works.
const webDist = process.env.E2E_WEB_DIST ? resolve(root, process.env.E2E_WEB_DIST) : undefined;
if (!webDist && !existsSync(join(webDir, 'dist', 'index.html'))) {
  execSync('npm run build -w @rally/web', { cwd: root, stdio: 'inherit' });
}

export default defineConfig({
  testDir: join(webDir, 'e2e'),
  ...(pgUrl ? { testMatch: EVENT_DAY_SPECS } : {}),
  outputDir: resolve(root, process.env.E2E_OUTPUT_DIR ?? 'test-results/e2e'),
  workers: 1,
  fullyParallel: false,
  forbidOnly: !!process.env.CI,
  retries: 0,
  timeout: 60_000,
  expect: { timeout: 10_000 },
  reporter: process.env.CI
    ? [['list'], ['html', { open: 'never', outputFolder: join(root, 'playwright-report') }]]
    : 'list',
  use: {
    baseURL,
    // Recording a trace for every test costs ~12% of the suite's time (screencast frames and
    // DOM snapshots; measured on two spec files: 135 s with, 118 s without). CI keeps the
    // failure's message, screenshot and error context; a local run keeps the trace as well.
    trace: process.env.CI ? 'off' : 'retain-on-failure',
    screenshot: 'only-on-failure',
    serviceWorkers: 'block',
    launchOptions: { executablePath: CHROMIUM_PATH, args: CHROMIUM_ARGS },
  },
  projects: [{ name: 'chromium', use: { ...devices['Desktop Chrome'], channel: undefined } }],
  webServer: {
    command: 'npm run start -w @rally/server',
    cwd: root,
    url: `${baseURL}/api/health`,
    reuseExistingServer: false,
    timeout: 120_000,
    stdout: 'ignore',
    stderr: 'pipe',
    env: {
      PORT: String(port),
      HOST: '127.0.0.1',
      DATA_DIR: dataDir,
      RATE_LIMITS: 'off',
      PUBLIC_URL: baseURL,
      LOG_LEVEL: 'warn',
      ...(pgUrl ? { DATABASE_URL: pgUrl } : {}),
      // Lets a test move the server's clock (npm run cli -- test-clock): overdue riders without sleeping.
      RALLY_TEST_CLOCK: '1',
      ...(webDist ? { WEB_DIST: webDist } : {}),
    },
  },
});
