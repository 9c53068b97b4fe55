// One real server per Playwright worker, each on a database of its own, so specs run side by
// side and none sees what another left behind. The global setup makes one migrated database of
// each kind; every worker starts from a copy of it (a copied data directory, a PostgreSQL
// database created from a template), which costs a fraction of a second instead of initdb
// and the migrations.
import { type ChildProcess, execFileSync, spawn } from 'node:child_process';
import { cpSync, mkdirSync } from 'node:fs';
import { createServer } from 'node:net';
import { join } from 'node:path';
import pg from 'pg';
import { ROOT } from './env';

export type DatabaseKind = 'pglite' | 'postgres';

const RUNNER = join(ROOT, 'apps/server/scripts/run.mjs');

/** What the global setup hands the workers (through the environment, which they inherit). */
export const SETUP_ENV = {
  runDir: 'E2E_RUN_DIR',
  dataDirTemplate: 'E2E_DATA_DIR_TEMPLATE',
  postgresAdminUrl: 'E2E_POSTGRES_ADMIN_URL',
  postgresTemplate: 'E2E_POSTGRES_TEMPLATE',
} as const;

function setupValue(name: keyof typeof SETUP_ENV): string {
  const value = process.env[SETUP_ENV[name]];
  if (!value) throw new Error(`${SETUP_ENV[name]} is not set: run the e2e suite through playwright.config.ts`);
  return value;
}

/** A database URL on the admin URL's server. */
export function databaseUrl(adminUrl: string, name: string): string {
  const url = new URL(adminUrl);
  url.pathname = `/${name}`;
  return url.toString();
}

export async function adminQuery(adminUrl: string, sql: string): Promise<void> {
  const client = new pg.Client({ connectionString: adminUrl });
  await client.connect();
  try {
    await client.query(sql);
  } finally {
    await client.end();
  }
}

/** Runs an operator command on the given store; answers what it printed. */
export function runCli(args: string[], env: { dataDir: string; databaseUrl?: string }): string {
  const childEnv: NodeJS.ProcessEnv = { ...process.env, DATA_DIR: env.dataDir };
  delete childEnv.DATABASE_URL;
  if (env.databaseUrl) childEnv.DATABASE_URL = env.databaseUrl;
  return execFileSync(process.execPath, [RUNNER, 'cli', ...args], {
    cwd: ROOT,
    env: childEnv,
    encoding: 'utf8',
    stdio: ['ignore', 'pipe', 'pipe'],
  });
}

function freePort(): Promise<number> {
  return new Promise((resolve, reject) => {
    const probe = createServer();
    probe.once('error', reject);
    probe.listen(0, '127.0.0.1', () => {
      const address = probe.address();
      probe.close(() =>
        typeof address === 'object' && address ? resolve(address.port) : reject(new Error('no port')),
      );
    });
  });
}

export interface WorkerServer {
  url: string;
  dataDir: string;
  databaseUrl?: string;
  stop(): Promise<void>;
}

/**
 * Starts worker `index`'s server on a fresh copy of the migrated database of `kind`;
 * `extraEnv` for a spec's own server (e.g. with the rate limits on).
 */
export async function startWorkerServer(
  kind: DatabaseKind,
  index: number,
  extraEnv: Record<string, string> = {},
): Promise<WorkerServer> {
  const dataDir = join(setupValue('runDir'), `${kind}-worker-${index}`);
  mkdirSync(dataDir, { recursive: true });
  let database: string | undefined;
  let url: string | undefined;
  if (kind === 'postgres') {
    const admin = setupValue('postgresAdminUrl');
    const template = setupValue('postgresTemplate');
    database = `${template}_w${index}`;
    await adminQuery(admin, `drop database if exists ${database} with (force)`);
    await adminQuery(admin, `create database ${database} template ${template}`);
    url = databaseUrl(admin, database);
  } else {
    cpSync(setupValue('dataDirTemplate'), dataDir, { recursive: true });
  }
  const port = await freePort();
  const base = `http://127.0.0.1:${port}`;
  const env: NodeJS.ProcessEnv = {
    ...process.env,
    PORT: String(port),
    HOST: '127.0.0.1',
    DATA_DIR: dataDir,
    RATE_LIMITS: 'off',
    PUBLIC_URL: base,
    LOG_LEVEL: 'warn',
    // Lets a test move the server's clock (npm run cli -- test-clock): overdue riders without sleeping.
    RALLY_TEST_CLOCK: '1',
    ...extraEnv,
  };
  delete env.DATABASE_URL;
  if (url) env.DATABASE_URL = url;
  if (process.env.E2E_WEB_DIST) env.WEB_DIST = join(ROOT, process.env.E2E_WEB_DIST);
  const child = spawn(process.execPath, [RUNNER, 'server'], { cwd: ROOT, env, stdio: ['ignore', 'ignore', 'pipe'] });
  let errors = '';
  child.stderr?.on('data', (d) => {
    errors = (errors + d).slice(-4000);
  });
  await waitForHealth(base, child, () => errors);
  return {
    url: base,
    dataDir,
    databaseUrl: url,
    stop: async () => {
      await stopProcess(child);
      if (database)
        await adminQuery(setupValue('postgresAdminUrl'), `drop database if exists ${database} with (force)`);
    },
  };
}

async function waitForHealth(base: string, child: ChildProcess, errors: () => string): Promise<void> {
  const deadline = Date.now() + 120_000;
  for (;;) {
    if (child.exitCode !== null) throw new Error(`the e2e server exited (${child.exitCode}):\n${errors()}`);
    try {
      if ((await fetch(`${base}/api/health`)).ok) return;
    } catch {
      // not listening yet
    }
    if (Date.now() > deadline) {
      child.kill('SIGKILL');
      throw new Error(`the e2e server did not answer within 120 s:\n${errors()}`);
    }
    await new Promise((r) => setTimeout(r, 100));
  }
}

function stopProcess(child: ChildProcess): Promise<void> {
  if (child.exitCode !== null) return Promise.resolve();
  return new Promise((resolve) => {
    const killer = setTimeout(() => child.kill('SIGKILL'), 10_000);
    child.once('exit', () => {
      clearTimeout(killer);
      resolve();
    });
    child.kill('SIGTERM');
  });
}
