// Runs the real server and CLI as child processes, for the tests of the run contract.
// They run as `npm start` and `npm run cli` run them: the built JavaScript
// (apps/server/scripts/run.mjs), which the global setup brings up to date once per run.
// Through tsx every process transpiled the whole server again (~3 s of CPU each, in a
// suite that starts some forty).
import { type ChildProcess, spawn } from 'node:child_process';
import { randomBytes } from 'node:crypto';
import { cpSync, mkdtempSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import pg from 'pg';
import { inject } from 'vitest';

const runner = fileURLToPath(new URL('../../scripts/run.mjs', import.meta.url));

/**
 * A new DATA_DIR holding a migrated embedded database with nothing in it: a copy of the one
 * the global setup made (initdb and the migrations cost ~6 s of CPU per directory). A store
 * made this way is the one a first start makes; `startServer` on an empty directory still
 * covers the real first start.
 */
export function freshDataDir(prefix: string): string {
  const dir = mkdtempSync(path.join(os.tmpdir(), prefix));
  cpSync(inject('dataDirTemplate'), dir, { recursive: true });
  return dir;
}

/**
 * A new empty PostgreSQL database beside TEST_DATABASE_URL's, for a server or a test that must
 * migrate it itself as a first start does: a started server's DATABASE_URL, or the migrations
 * under test. (In-process apps take a copy of the migrated template instead: build-app.ts.)
 * Time plus randomness in the name: parallel files never pick the same one.
 */
export async function freshPgDatabase(
  prefix: string,
  admin = process.env.TEST_DATABASE_URL,
): Promise<{ url: string; drop(): Promise<void> }> {
  if (!admin) throw new Error('freshPgDatabase needs TEST_DATABASE_URL');
  const name = `${prefix}_${Date.now().toString(36)}_${randomBytes(3).toString('hex')}`;
  const c = new pg.Client({ connectionString: admin });
  await c.connect();
  await c.query(`create database ${name}`);
  await c.end();
  const url = new URL(admin);
  url.pathname = `/${name}`;
  return {
    url: url.toString(),
    drop: async () => {
      const d = new pg.Client({ connectionString: admin });
      await d.connect();
      await d.query(`drop database if exists ${name} with (force)`);
      await d.end();
    },
  };
}

export interface RunningServer {
  url: string;
  child: ChildProcess;
  output: () => string;
  stop(signal?: NodeJS.Signals): Promise<number | null>;
}

/** Starts the server on a free port (PORT=0) and resolves once it answers its health check. */
export function startServer(env: Record<string, string>, port = 0): Promise<RunningServer> {
  const child = spawn(process.execPath, [runner, 'server'], {
    // info level: the listening line tells which port PORT=0 picked (requests are not logged at info).
    env: { ...process.env, ...env, LOG_LEVEL: 'info', PORT: String(port), HOST: '127.0.0.1' },
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  let out = '';
  child.stdout?.on('data', (d) => {
    out += d;
  });
  child.stderr?.on('data', (d) => {
    out += d;
  });
  let url = port ? `http://127.0.0.1:${port}` : '';
  // A test that times out before its `stop` leaves the server running after the test file
  // (holding its port, its data directory and CPU the next files need): it dies with this process.
  const orphanGuard = () => {
    if (child.exitCode === null) child.kill('SIGKILL');
  };
  process.once('exit', orphanGuard);
  const exited = new Promise<number | null>((resolve) =>
    child.once('exit', (code) => {
      process.off('exit', orphanGuard);
      resolve(code);
    }),
  );
  return new Promise((resolve, reject) => {
    // A first start on a loaded 2-core CI machine has taken 35 s; the hooks wait 240 s.
    const deadline = Date.now() + 150_000;
    const poll = async () => {
      if (child.exitCode !== null) return reject(new Error(`server exited: ${out}`));
      if (!url) url = /Rally platform on (http:\/\/[0-9.:]+)/.exec(out)?.[1] ?? '';
      try {
        if (!url) throw new Error('not listening yet');
        const res = await fetch(`${url}/api/health`);
        if (res.ok) {
          return resolve({
            url,
            child,
            output: () => out,
            stop: async (signal = 'SIGTERM') => {
              if (child.exitCode === null) child.kill(signal);
              return exited;
            },
          });
        }
      } catch {
        // not listening yet
      }
      if (Date.now() > deadline) {
        child.kill('SIGKILL');
        return reject(new Error(`server did not start: ${out}`));
      }
      setTimeout(poll, 200);
    };
    poll();
  });
}

export function runNode(
  entry: 'server' | 'cli',
  args: string[],
  env: Record<string, string>,
): Promise<{ code: number | null; stdout: string; stderr: string }> {
  return new Promise((resolve) => {
    const child = spawn(process.execPath, [runner, entry, ...args], {
      env: { ...process.env, ...env },
      stdio: ['ignore', 'pipe', 'pipe'],
    });
    let stdout = '';
    let stderr = '';
    child.stdout.on('data', (d) => {
      stdout += d;
    });
    child.stderr.on('data', (d) => {
      stderr += d;
    });
    child.on('exit', (code) => resolve({ code, stdout, stderr }));
  });
}
