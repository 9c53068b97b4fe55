// End-to-end tests: the built web app served by the real server, driven in the system
// Chromium (never a downloaded browser). Each worker runs its own server on its own copy of a
// migrated database (e2e/support/servers.ts), so the workers run side by side and no spec
// sees another's riders, incidents or clock.
import { dirname, join, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';
import { defineConfig, devices } from '@playwright/test';
import { CHROMIUM_ARGS, E2E_CHROMIUM_PATH } from './e2e/support/chromium';
import type { WorkerOptions } from './e2e/support/fixtures';
import { SETUP_ENV } from './e2e/support/servers';

const webDir = dirname(fileURLToPath(import.meta.url));
const root = resolve(webDir, '../..');

/**
 * The event-day specs run twice, on the embedded database and on PostgreSQL (marshals'
 * phones must work the same against either), and the receipt desk's (its file queue claims
 * jobs with SKIP LOCKED on PostgreSQL); the others on the embedded database. The
 * PostgreSQL project runs when TEST_DATABASE_URL names a server the setup may create
 * databases on, unless E2E_POSTGRES=skip.
 */
export const EVENT_DAY_SPECS =
  /\/(scanner|event-day|rider-pass|board|incidents|sos|live|tracking|receipt-desk)[^/]*\.spec\.ts$/;
const postgresAdmin = process.env.E2E_POSTGRES === 'skip' ? undefined : process.env.TEST_DATABASE_URL;
if (postgresAdmin) process.env[SETUP_ENV.postgresAdminUrl] = postgresAdmin;
else delete process.env[SETUP_ENV.postgresAdminUrl];

const browser = { ...devices['Desktop Chrome'], channel: undefined };

export default defineConfig<unknown, WorkerOptions>({
  testDir: join(webDir, 'e2e'),
  globalSetup: join(webDir, 'e2e/support/global-setup.ts'),
  outputDir: resolve(root, process.env.E2E_OUTPUT_DIR ?? 'test-results/e2e'),
  // Two cores: two workers keep both busy (a test waits on its server and on Chromium in
  // turn); more only queue behind them. E2E_WORKERS overrides.
  workers: Number(process.env.E2E_WORKERS ?? 2),
  fullyParallel: false,
  forbidOnly: !!process.env.CI,
  retries: 0,
  timeout: 60_000,
  expect: { timeout: 10_000 },
  reporter: process.env.CI
    ? [['list'], ['html', { open: 'never', outputFolder: join(root, 'playwright-report') }]]
    : 'list',
  use: {
    // Recording a trace for every test costs ~12% of the suite's time (screencast frames and
    // DOM snapshots; measured on two spec files: 135 s with, 118 s without). CI keeps the
    // failure's message, screenshot and error context; a local run keeps the trace as well.
    trace: process.env.CI ? 'off' : 'retain-on-failure',
    screenshot: 'only-on-failure',
    serviceWorkers: 'block',
    launchOptions: { executablePath: E2E_CHROMIUM_PATH, args: CHROMIUM_ARGS },
  },
  projects: [
    { name: 'pglite', use: { ...browser, database: 'pglite' } },
    ...(postgresAdmin
      ? [{ name: 'postgres', testMatch: EVENT_DAY_SPECS, use: { ...browser, database: 'postgres' as const } }]
      : []),
  ],
});
