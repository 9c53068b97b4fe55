// A spec whose work changes the whole server (making another edition current turns every
// entry into history) runs on a server of its own: made by its first test, stopped after
// its last, with the page, the requests and the operator commands (support/cli.ts) all
// pointed at it while a test runs.
import { test as base } from './fixtures';
import { startWorkerServer, type WorkerServer } from './servers';

/** `offset` keeps the servers of different specs of one worker apart (ports, data dirs). */
export function testOnOwnServer(offset: number) {
  let own: WorkerServer | undefined;
  const test = base.extend<{ own: WorkerServer }>({
    own: async ({ database }, use, info) => {
      own ??= await startWorkerServer(database, offset + info.workerIndex);
      const dataDir = process.env.E2E_DATA_DIR;
      const databaseUrl = process.env.E2E_WORKER_DATABASE_URL;
      process.env.E2E_DATA_DIR = own.dataDir;
      if (own.databaseUrl) process.env.E2E_WORKER_DATABASE_URL = own.databaseUrl;
      else delete process.env.E2E_WORKER_DATABASE_URL;
      try {
        await use(own);
      } finally {
        process.env.E2E_DATA_DIR = dataDir;
        if (databaseUrl) process.env.E2E_WORKER_DATABASE_URL = databaseUrl;
        else delete process.env.E2E_WORKER_DATABASE_URL;
      }
    },
    baseURL: async ({ own }, use) => use(own.url),
  });
  test.afterAll(async () => {
    await own?.stop();
    own = undefined;
  });
  return test;
}
