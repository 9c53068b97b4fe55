import { buildApp } from './app';
import { type Config, loadConfig } from './config';
import { openDatabase } from './db/client';
import { runMigrations } from './db/migrate';
import { startControlServer } from './lib/control-channel';
import { acquireDataDirLock, controlSocketPath, DataDirBusyError } from './lib/data-dir-lock';
import { openFileStore } from './lib/file-store';
import { runTestClockCommand, TEST_CLOCK_COMMAND, testClockEnabled } from './lib/test-clock';
import { FIRST_START_HINT, hasStaffAdmin, runOperatorCommand } from './modules/operator/operator.service';

async function main(config: Config) {
  const embedded = !config.databaseUrl;
  // On PostgreSQL the CLI needs no server, except for the e2e suite's test clock, which
  // moves this process's clock: a test server opens its control socket for that hook too.
  const socket = embedded || testClockEnabled() ? controlSocketPath(config.dataDir) : null;
  let releaseLock = () => {};
  if (embedded) {
    try {
      releaseLock = acquireDataDirLock(config.dataDir, 'server', socket);
    } catch (err) {
      if (err instanceof DataDirBusyError) {
        console.error(err.message);
        process.exit(1);
      }
      throw err;
    }
  }
  const database = await openDatabase({
    databaseUrl: config.databaseUrl,
    dataDir: config.dataDir,
    timeouts: config.databaseTimeouts,
  });
  await runMigrations(database);
  const app = await buildApp({ config, database });
  // A backup reads the files kept in an object store into the backup file.
  const fileStore = openFileStore(
    config.fileStore,
    (message, err) => app.log.warn({ err }, message),
    config.uploadSpoolDir,
  );
  const stopControl = socket
    ? await startControlServer(socket, async (command, args) => {
        if (command === TEST_CLOCK_COMMAND) return runTestClockCommand(app, database.db, args);
        try {
          return await runOperatorCommand(database.db, config.publicUrl, command, args, fileStore);
        } finally {
          // An operator command writes beside the HTTP routes (seed-demo adds riders).
          app.answerCache.invalidate();
        }
      })
    : async () => {};

  if (!(await hasStaffAdmin(database.db))) app.log.warn(FIRST_START_HINT);

  let stopping = false;
  const shutdown = async (signal: string) => {
    if (stopping) return;
    stopping = true;
    app.log.info({ signal }, 'shutting down');
    // Stop taking requests, let in-flight ones finish, then close the store cleanly.
    const force = setTimeout(() => process.exit(1), 15_000);
    force.unref();
    try {
      await app.close();
      await stopControl();
      await database.close();
    } finally {
      releaseLock();
    }
    process.exit(0);
  };
  process.on('SIGTERM', () => void shutdown('SIGTERM'));
  process.on('SIGINT', () => void shutdown('SIGINT'));

  const address = await app.listen({ port: config.port, host: config.host });
  app.log.info(
    `Rally platform on ${address} (${database.kind === 'pglite' ? `embedded database in ${config.dataDir}` : 'PostgreSQL'}); API docs at /api/docs`,
  );
}

main(loadConfig()).catch((err) => {
  console.error(err);
  process.exit(1);
});
