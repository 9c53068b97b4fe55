// Operator commands: `npm run cli -- <command> [--flag value ...]`. With the embedded
// database, a running server carries the command out itself (the store belongs to one
// process); otherwise the CLI opens the database directly.

import path from 'node:path';
import { loadConfig, publicUrlWarning } from './config';
import { openDatabase } from './db/client';
import { runMigrations } from './db/migrate';
import { sendControlCommand } from './lib/control-channel';
import { acquireDataDirLock, controlSocketPath, DataDirBusyError, readLiveLock } from './lib/data-dir-lock';
import { openFileStore } from './lib/file-store';
import { TEST_CLOCK_COMMAND } from './lib/test-clock';
import { runOperatorCommand } from './modules/operator/operator.service';

const HELP = `Operator commands:
  create-user --email E --password P --role R [--first-name F --last-name L]
      Creates an active, verified account of role R (admin, marshall, officer, developer, guest, participant).
  reset-link --email E
      Prints a one-time password reset link (valid for one hour).
  seed-demo
      Fills an empty database with realistic demo riders, staff, comments, announcements and activity.
  backup FILE
      Writes a consistent backup of the whole database, uploaded files included, to FILE (gzip), while the server runs.
  restore FILE [--force]
      Restores FILE into an empty database; --force replaces whatever the database holds.
  migrate
      Creates the database (embedded) or brings its schema up to date, then exits: for a
      deployment that migrates before it starts its server instances.`;

function parseArgs(argv: string[]): Record<string, string> {
  const args: Record<string, string> = {};
  for (let i = 0; i < argv.length; i++) {
    const a = argv[i] ?? '';
    if (!a.startsWith('--')) throw new Error(`Unexpected argument "${a}"`);
    const eq = a.indexOf('=');
    if (eq > 0) args[a.slice(2, eq)] = a.slice(eq + 1);
    else {
      const value = argv[i + 1];
      if (value === undefined || value.startsWith('--')) throw new Error(`Missing value for ${a}`);
      args[a.slice(2)] = value;
      i++;
    }
  }
  return args;
}

async function run(): Promise<number> {
  const [command, ...rest] = process.argv.slice(2);
  if (!command || command === 'help' || command === '--help') {
    console.log(HELP);
    return command ? 0 : 1;
  }
  let args: Record<string, string>;
  try {
    // backup/restore take the file as their first word; npm runs the CLI inside
    // apps/server, so a relative path means relative to where the operator ran npm.
    if (command === 'backup' || command === 'restore') {
      const [file, ...flags] = rest;
      if (!file || file.startsWith('--')) throw new Error(`Missing FILE: npm run cli -- ${command} FILE`);
      const force = flags.includes('--force');
      const unknown = flags.filter((f) => f !== '--force');
      if (unknown.length > 0 || (command === 'backup' && force))
        throw new Error(`Unexpected argument "${unknown[0] ?? '--force'}"`);
      args = { file: path.resolve(process.env.INIT_CWD || process.cwd(), file), ...(force ? { force: 'true' } : {}) };
    } else args = parseArgs(rest);
  } catch (err) {
    console.error(`${(err as Error).message}\n\n${HELP}`);
    return 1;
  }
  const config = loadConfig();
  if (command === TEST_CLOCK_COMMAND && config.databaseUrl) {
    // A test server on PostgreSQL takes no data-dir lock; its control socket is in DATA_DIR.
    const result = await sendControlCommand(controlSocketPath(config.dataDir), command, args, 120_000);
    (result.exitCode === 0 ? console.log : console.error)(result.output);
    return result.exitCode;
  }
  if (!config.databaseUrl) {
    const holder = readLiveLock(config.dataDir);
    if (holder?.socket) {
      // A backup or restore of many uploaded files takes a while; the answer comes when it is done.
      const timeout = command === 'backup' || command === 'restore' ? 60 * 60_000 : 120_000;
      const result = await sendControlCommand(holder.socket, command, args, timeout);
      (result.exitCode === 0 ? console.log : console.error)(result.output);
      return result.exitCode;
    }
  }
  let release = () => {};
  if (!config.databaseUrl) {
    try {
      release = acquireDataDirLock(config.dataDir, 'cli', null);
    } catch (err) {
      if (err instanceof DataDirBusyError) {
        console.error(err.message);
        return 1;
      }
      throw err;
    }
  }
  // An operator at a terminal runs restores and imports of any size: no statement bound
  // (Ctrl-C stops one); connecting is still bounded.
  const database = await openDatabase({
    databaseUrl: config.databaseUrl,
    dataDir: config.dataDir,
    poolSize: 2,
    timeouts: { ...config.databaseTimeouts, statementMs: 0 },
  });
  try {
    await runMigrations(database);
    const fileStore = openFileStore(
      config.fileStore,
      (message, err) => console.warn(message, err),
      config.uploadSpoolDir,
    );
    // A link printed here is built on this process's PUBLIC_URL, not the server's.
    const unsetPublicUrl = command === 'reset-link' ? publicUrlWarning(process.env, config.publicUrl) : null;
    if (unsetPublicUrl) console.error(unsetPublicUrl);
    const result = await runOperatorCommand(database.db, config.publicUrl, command, args, fileStore);
    (result.exitCode === 0 ? console.log : console.error)(result.output);
    return result.exitCode;
  } finally {
    await database.close();
    release();
  }
}

run().then(
  (code) => process.exit(code),
  (err) => {
    console.error(`Error: ${(err as Error).message}`);
    process.exit(1);
  },
);
