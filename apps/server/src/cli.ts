// Operator commands: `npm run cli -- <command> [--flag value ...]`. With the embedded
// database, a running server carries the command out itself (the store belongs to one
// process); otherwise the CLI opens the database directly.
import { loadConfig } from './config';
import { openDatabase } from './db/client';
import { runMigrations } from './db/migrate';
import { sendControlCommand } from './lib/control-channel';
import { acquireDataDirLock, DataDirBusyError, readLiveLock } from './lib/data-dir-lock';
import { runOperatorCommand } from './modules/operator/operator.service';

const HELP = `Operator commands:
  create-user --email E --password P --role R [--first-name F --last-name L]
      Creates an active, verified account of role R (admin, marshall, officer, developer, guest, participant).
  reset-link --email E
      Prints a one-time password reset link (valid for one hour).
  seed-demo
      Fills an empty database with realistic demo riders, staff, comments, announcements and activity.`;

function parseArgs(argv: string[]): Record<string, string> {
  const args: Record<string, string> = {};
  for (let i = 0; i < argv.length; i++) {
    const a = argv[i];
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
    args = parseArgs(rest);
  } catch (err) {
    console.error(`${(err as Error).message}\n\n${HELP}`);
    return 1;
  }
  const config = loadConfig();
  if (!config.databaseUrl) {
    const holder = readLiveLock(config.dataDir);
    if (holder?.socket) {
      const result = await sendControlCommand(holder.socket, command, args);
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
  const database = await openDatabase({ databaseUrl: config.databaseUrl, dataDir: config.dataDir, poolSize: 2 });
  try {
    await runMigrations(database);
    const result = await runOperatorCommand(database.db, config.publicUrl, command, args);
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
