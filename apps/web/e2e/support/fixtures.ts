import { test as base, expect, type Page } from '@playwright/test';
import { type DatabaseKind, startWorkerServer, type WorkerServer } from './servers';

export interface WorkerOptions {
  /** The database the worker's server runs on (the project decides: playwright.config.ts). */
  database: DatabaseKind;
}

interface WorkerFixtures {
  /** This worker's own server (support/servers.ts); every test in the worker talks to it. */
  server: WorkerServer;
}

export const test = base.extend<
  { offlineTiles: undefined; closeOwnContexts: undefined },
  WorkerOptions & WorkerFixtures
>({
  database: ['pglite', { scope: 'worker', option: true }],
  server: [
    async ({ database }, use, workerInfo) => {
      const server = await startWorkerServer(database, workerInfo.workerIndex);
      // The operator CLI (support/cli.ts) reaches the same server and database.
      process.env.E2E_DATA_DIR = server.dataDir;
      if (server.databaseUrl) process.env.E2E_WORKER_DATABASE_URL = server.databaseUrl;
      else delete process.env.E2E_WORKER_DATABASE_URL;
      await use(server);
      await server.stop();
    },
    { scope: 'worker', auto: true, timeout: 180_000 },
  ],
  baseURL: async ({ server }, use) => {
    await use(server.url);
  },
  /**
   * Closes the browser contexts a test opened itself (a second screen, a rider beside the
   * console) when it ends, passed or failed. Playwright closes only the contexts of its own
   * fixtures; a console page left open kept its event stream and, once another test raised an
   * SOS, its alarm running in the worker's browser for the rest of the run.
   */
  closeOwnContexts: [
    // Taken after the test's own context exists, so only contexts the test opened are closed.
    async ({ browser, context }, use) => {
      const before = new Set([...browser.contexts(), context]);
      await use(undefined);
      for (const context of browser.contexts()) if (!before.has(context)) await context.close();
    },
    { auto: true },
  ],
  /**
   * Every test runs offline from the map tile host: tile requests are refused at once so
   * they neither wait on DNS nor depend on the internet (the overlay covers the map anyway).
   */
  offlineTiles: [
    async ({ page }, use) => {
      await page.route(/tile\.openstreetmap\.org/, (route) => route.abort());
      await use(undefined);
    },
    { auto: true },
  ],
});

export { expect };

export function toast(page: Page, text: string | RegExp) {
  return page.getByTestId('toast').filter({ hasText: text });
}
