// Pieces the benchmarks share: the machine they ran on, fresh databases and fresh
// servers. Every compared figure comes from the same run, so these only make that cheap.
import { type ChildProcess, spawn } from 'node:child_process';
import { cpSync, mkdtempSync, rmSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { fileURLToPath, pathToFileURL } from 'node:url';
import { CATEGORIES, type Category } from '@rally/shared/catalog/registration';
import { sql } from 'drizzle-orm';
import pg from 'pg';
import sharp from 'sharp';
import { type Database, type Db, openDatabase } from '../src/db/client';
import { runMigrations } from '../src/db/migrate';
import { newRiderCode, newVerificationCode } from '../src/lib/tokens';
import { multipart, STRONG_PASSWORD } from '../src/test/factories';
import { phoneUploads } from '../src/test/phone-uploads';
import { freshPgDatabase as freshTestDatabase, type RunningServer, runNode, startServer } from '../src/test/processes';

export type DbKind = 'pglite' | 'postgres';
export const DB_LABEL: Record<DbKind, string> = { pglite: 'embedded (PGlite)', postgres: 'PostgreSQL' };

/** Where fresh PostgreSQL databases are made (and dropped); never migrated into itself. */
export const PG_ADMIN_URL = process.env.BENCH_PG_URL ?? 'postgres://postgres@127.0.0.1:5432/test';

/** Every server a benchmark starts: limits off (we measure the work, not the limiter), quiet logs. */
export const SERVER_ENV = { RATE_LIMITS: 'off', LOG_LEVEL: 'warn' } as const;

export const repoRoot = fileURLToPath(new URL('../../../', import.meta.url));

export interface Machine {
  cores: number;
  model: string;
  memoryGiB: number;
  node: string;
  platform: string;
}

export function machine(): Machine {
  return {
    cores: os.cpus().length,
    model: os.cpus()[0]?.model.trim() ?? 'unknown',
    memoryGiB: Math.round(os.totalmem() / 2 ** 30),
    node: process.version,
    platform: `${os.type()} ${os.release()}`,
  };
}

/**
 * What must not outlive an interrupted run (Ctrl-C): temporary data directories and,
 * above all, PostgreSQL databases on a shared server. Everything registers its own undo.
 */
const cleanups = new Set<() => Promise<void> | void>();
let interruptHandlerInstalled = false;

export function cleanUpOnInterrupt() {
  if (interruptHandlerInstalled) return;
  interruptHandlerInstalled = true;
  const handler = async (signal: NodeJS.Signals) => {
    console.error(`\n${signal}: removing temporary databases and directories...`);
    for (const undo of [...cleanups].reverse()) await Promise.resolve(undo()).catch(() => {});
    process.exit(130);
  };
  process.once('SIGINT', handler);
  process.once('SIGTERM', handler);
}

function registerCleanup(undo: () => Promise<void> | void): () => void {
  cleanups.add(undo);
  return () => cleanups.delete(undo);
}

/** The 1-minute load average: on a shared machine it says how much the figures were squeezed. */
export const loadAverage = () => os.loadavg()[0] ?? 0;

export async function pgReachable(url = PG_ADMIN_URL): Promise<boolean> {
  const c = new pg.Client({ connectionString: url, connectionTimeoutMillis: 3000 });
  try {
    await c.connect();
    await c.query('select 1');
    return true;
  } catch {
    return false;
  } finally {
    await c.end().catch(() => {});
  }
}

/** Transactions PostgreSQL committed and rolled back in one database (read after its clients have gone). */
export async function pgTransactionStats(database: string): Promise<{ commits: number; rollbacks: number }> {
  const c = new pg.Client({ connectionString: PG_ADMIN_URL });
  await c.connect();
  try {
    const r = await c.query<{ xact_commit: string; xact_rollback: string }>(
      'select xact_commit, xact_rollback from pg_stat_database where datname = $1',
      [database],
    );
    return { commits: Number(r.rows[0]?.xact_commit ?? 0), rollbacks: Number(r.rows[0]?.xact_rollback ?? 0) };
  } finally {
    await c.end();
  }
}

/** A new empty database beside the admin one (the server migrates it), dropped afterwards. */
export async function freshPgDatabase(adminUrl = PG_ADMIN_URL): Promise<{ url: string; drop(): Promise<void> }> {
  // Named by time plus randomness: two benchmarks (or two engineers) never pick the same one.
  const { url, drop } = await freshTestDatabase('rally_bench', adminUrl);
  const forget = registerCleanup(drop);
  return {
    url,
    drop: async () => {
      forget();
      await drop();
    },
  };
}

/**
 * A migrated, empty embedded data directory made once per run. A fresh PGlite directory
 * costs ~15-20 s of initdb and migrations on 2 shared cores; a copy of this one costs
 * ~0.3 s and is just as empty, so every "fresh server" below starts from a copy.
 */
export class PgliteTemplate {
  private constructor(
    readonly dir: string,
    private readonly forget: () => void,
  ) {}

  static async create(): Promise<PgliteTemplate> {
    const dir = tempDir('rally-bench-template-');
    try {
      const server = await startServer({ DATA_DIR: dir.path, ...SERVER_ENV });
      await server.stop('SIGTERM');
    } catch (err) {
      dir.remove();
      throw err;
    }
    return new PgliteTemplate(dir.path, dir.remove);
  }

  /** A copy for one server; the caller removes it (freshServer does). */
  copy(): { path: string; remove(): void } {
    const dir = tempDir('rally-bench-data-');
    cpSync(this.dir, dir.path, { recursive: true });
    return dir;
  }

  dispose() {
    this.forget();
  }
}

/** A private temporary directory, removed by remove() or when the run is interrupted. */
export function tempDir(prefix: string): { path: string; remove(): void } {
  const dir = mkdtempSync(path.join(os.tmpdir(), prefix));
  const remove = () => rmSync(dir, { recursive: true, force: true });
  const forget = registerCleanup(remove);
  return {
    path: dir,
    remove: () => {
      forget();
      remove();
    },
  };
}

export interface FreshServer {
  kind: DbKind;
  server: RunningServer;
  url: string;
  /** The PostgreSQL database behind it, for reading its statistics after the server stops. */
  pgDatabase?: string;
  /** Stops the server only (its data stays until close()). */
  stop(): Promise<void>;
  /** Stops the server if still running and removes its data (directory or database). */
  close(): Promise<void>;
}

/** The real server process on an empty database of the given kind. */
export async function freshServer(
  kind: DbKind,
  template: PgliteTemplate,
  extraEnv: Record<string, string> = {},
): Promise<FreshServer> {
  if (kind === 'pglite') {
    const dir = template.copy();
    let server: RunningServer;
    try {
      server = await startServer({ DATA_DIR: dir.path, ...SERVER_ENV, ...extraEnv });
    } catch (err) {
      dir.remove();
      throw err;
    }
    const stop = async () => {
      await server.stop('SIGTERM');
    };
    const close = async () => {
      forget();
      await stop();
      dir.remove();
    };
    const forget = registerCleanup(close);
    return { kind, server, url: server.url, stop, close };
  }
  const db = await freshPgDatabase();
  // DATA_DIR still points somewhere private: the server never touches ./data of the repo.
  const dir = tempDir('rally-bench-pgside-');
  try {
    const server = await startServer({ DATABASE_URL: db.url, DATA_DIR: dir.path, ...SERVER_ENV, ...extraEnv });
    const stop = async () => {
      await server.stop('SIGTERM');
    };
    const close = async () => {
      forget();
      await stop();
      await db.drop();
      dir.remove();
    };
    const forget = registerCleanup(close);
    return { kind, server, url: server.url, pgDatabase: new URL(db.url).pathname.slice(1), stop, close };
  } catch (err) {
    await db.drop();
    dir.remove();
    throw err;
  }
}

export interface SeededServer<S> {
  server: RunningServer;
  /** What `seed` answered. */
  seeded: S;
  /** The server's database and data directory, for opening the same data beside it. */
  env: Record<string, string>;
  /** Opening, migrating and seeding the database. */
  seedSeconds: number;
  /** Stops the server and removes its data (directory and database). */
  close(): Promise<void>;
}

/**
 * The real server on a database of the given kind that `seed` filled first, straight into
 * the database: thousands of riders through the API would take longer than the benchmark.
 * PGlite starts from a copy of the template; PostgreSQL from a fresh database, with a
 * private DATA_DIR beside it.
 */
export async function seededServer<S>(
  kind: DbKind,
  template: PgliteTemplate | null,
  opts: {
    dirPrefix: string;
    port?: number;
    /** More settings for the server (channels of the messages benchmark). */
    env?: Record<string, string>;
    seed(database: Database): Promise<S>;
  },
): Promise<SeededServer<S>> {
  const dir = template && kind === 'pglite' ? template.copy() : tempDir(opts.dirPrefix);
  let pgdb: Awaited<ReturnType<typeof freshPgDatabase>> | null = null;
  const remove = async () => {
    dir.remove();
    await pgdb?.drop();
  };
  try {
    pgdb = kind === 'postgres' ? await freshPgDatabase() : null;
    const env: Record<string, string> = pgdb ? { DATABASE_URL: pgdb.url, DATA_DIR: dir.path } : { DATA_DIR: dir.path };
    const t0 = performance.now();
    const database = await openDatabase(pgdb ? { databaseUrl: pgdb.url } : { dataDir: dir.path });
    let seeded: S;
    try {
      await runMigrations(database);
      seeded = await opts.seed(database);
    } finally {
      await database.close();
    }
    const seedSeconds = (performance.now() - t0) / 1000;
    const server = await startServer({ ...env, ...SERVER_ENV, ...opts.env }, opts.port);
    const close = async () => {
      try {
        await server.stop('SIGTERM');
      } finally {
        await remove();
      }
    };
    return { server, seeded, env, seedSeconds, close };
  } catch (err) {
    await remove();
    throw err;
  }
}

/**
 * A benchmark file's own entry, when node was started on it (run-all imports the same
 * module without running it): temporary data goes on Ctrl-C, the PGlite template lives
 * for the run, and a failure is printed and exits 1.
 */
export function runAsScript(moduleUrl: string, main: (template: PgliteTemplate) => Promise<void>): void {
  if (moduleUrl !== pathToFileURL(process.argv[1] ?? '').href) return;
  cleanUpOnInterrupt();
  (async () => {
    const template = await PgliteTemplate.create();
    try {
      await main(template);
    } finally {
      template.dispose();
    }
  })().catch((err) => {
    console.error(err);
    process.exit(1);
  });
}

/** A bare Fastify hello-world in its own process, the same way the real server runs (node --import tsx). */
export function startHelloWorld(): Promise<{ url: string; stop(): Promise<void> }> {
  const entry = fileURLToPath(new URL('./hello-server.ts', import.meta.url));
  const child: ChildProcess = spawn(process.execPath, ['--import', 'tsx', entry], {
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  let out = '';
  return new Promise((resolve, reject) => {
    const timer = setTimeout(() => {
      child.kill('SIGKILL');
      reject(new Error(`hello-world did not start: ${out}`));
    }, 60_000);
    const onData = (d: Buffer) => {
      out += d;
      const url = /hello-world on (http:\/\/[0-9.:]+)/.exec(out)?.[1];
      if (!url) return;
      clearTimeout(timer);
      const exited = new Promise<void>((r) => child.once('exit', () => r()));
      const stop = async () => {
        forget();
        if (child.exitCode === null) child.kill('SIGTERM');
        await exited;
      };
      const forget = registerCleanup(stop);
      resolve({ url, stop });
    };
    child.stdout?.on('data', onData);
    child.stderr?.on('data', onData);
    child.once('exit', (code) => reject(new Error(`hello-world exited (${code}): ${out}`)));
  });
}

/**
 * Phone-like uploads, as in register-rush.ts: a 512 px profile photo and a 720x1280
 * screenshot receipt, both noisy so JPEG cannot shrink them to nothing.
 */
export async function phoneFiles(): Promise<{ profile: Buffer; receipt: Buffer }> {
  const noise = (w: number, h: number) => {
    const raw = Buffer.alloc(w * h * 3);
    for (let i = 0; i < raw.length; i++) raw[i] = (i * 7919 + (i >> 5) * 31) & 0xff;
    return sharp(raw, { raw: { width: w, height: h, channels: 3 } });
  };
  const profile = await noise(512, 512).jpeg({ quality: 90 }).toBuffer();
  const receipt = await noise(720, 1280).jpeg({ quality: 80 }).toBuffer();
  return { profile, receipt };
}

/**
 * The uploads a phone really sends (issue 44): a 12-megapixel camera photo (~3 MB JPEG) as
 * the profile picture and a 1080x1920 screenshot (PNG) as the receipt.
 */
export async function phoneSizedFiles(): Promise<{ profile: Buffer; receipt: Buffer }> {
  const { photo, screenshot } = await phoneUploads();
  return { profile: photo, receipt: screenshot };
}

/** Nearest-rank percentile of an ascending array. */
export function percentile(sorted: number[], q: number): number {
  if (sorted.length === 0) return Number.NaN;
  // The index is clamped to 0..length-1 of a non-empty array.
  return sorted[Math.min(sorted.length - 1, Math.max(0, Math.ceil(q * sorted.length) - 1))]!;
}

/** A rider a benchmark writes straight into the database: the person and their entry. */
export interface BenchRider {
  email: string;
  passwordHash: string;
  firstName: string;
  lastName: string;
  kitName: string;
  role: 'participant';
  phoneNumber: string;
  category: Category;
  riderNumber: number;
  riderCode: string;
}

/**
 * Inserts verified riders: the accounts, then each one's verified entry in the current
 * edition. In SQL, naming its columns: an upgrade benchmark writes them at a level before
 * editions and entries (the entry's columns on `users`, its verification in `verifications`),
 * where Drizzle's insert would name every column of today's schema.
 */
export async function insertVerifiedRiders(db: Db, rows: BenchRider[]): Promise<string[]> {
  const tables = (await db.execute(
    sql`select table_name as t from information_schema.tables where table_schema = 'public' and table_name in ('entries', 'verifications')`,
  )) as unknown as { rows: Array<{ t: string }> };
  const entriesTable = tables.rows.some((r) => r.t === 'entries');
  const ids: string[] = [];
  for (let i = 0; i < rows.length; i += 250) {
    const batch = rows.slice(i, i + 250).map((r) => ({ ...r, code: newVerificationCode() }));
    const json = JSON.stringify(batch);
    const made = (await db.execute(
      entriesTable
        ? sql`insert into users (email, password_hash, first_name, last_name, kit_name, role, phone_number)
            select x."email", x."passwordHash", x."firstName", x."lastName", x."kitName", x."role"::role, x."phoneNumber"
            from json_to_recordset(${json}::json) as x("email" text, "passwordHash" text, "firstName" text,
              "lastName" text, "kitName" text, "role" text, "phoneNumber" text)
            returning id`
        : sql`insert into users (email, password_hash, first_name, last_name, kit_name, role, phone_number, category, rider_number, rider_code)
            select x."email", x."passwordHash", x."firstName", x."lastName", x."kitName", x."role"::role, x."phoneNumber",
              x."category"::category, x."riderNumber", x."riderCode"
            from json_to_recordset(${json}::json) as x("email" text, "passwordHash" text, "firstName" text,
              "lastName" text, "kitName" text, "role" text, "phoneNumber" text, "category" text, "riderNumber" int, "riderCode" text)
            returning id`,
    )) as unknown as { rows: Array<{ id: string }> };
    const withIds = batch.map((r, k) => ({ ...r, userId: made.rows[k]?.id as string }));
    ids.push(...withIds.map((r) => r.userId));
    const entryJson = JSON.stringify(withIds);
    await db.execute(
      entriesTable
        ? sql`insert into entries (user_id, verification_code, status, verified_at, category, rider_number, rider_code)
            select x."userId", x."code", 'verified', now(), x."category"::category, x."riderNumber", x."riderCode"
            from json_to_recordset(${entryJson}::json) as x("userId" uuid, "code" text, "category" text, "riderNumber" int, "riderCode" text)`
        : sql`insert into verifications (user_id, verification_code, status, verified_at)
            select x."userId", x."code", 'verified', now()
            from json_to_recordset(${entryJson}::json) as x("userId" uuid, "code" text)`,
    );
  }
  return ids;
}

/** The password of every account a benchmark writes straight into the database. */
export const BENCH_PASSWORD = 'Warrior2025!';

/** Signs in through the real login call and answers the session token. */
export async function benchLogin(base: string, email: string): Promise<string> {
  const res = await fetch(`${base}/api/auth/login`, {
    method: 'POST',
    headers: { 'content-type': 'application/json' },
    body: JSON.stringify({ email, password: BENCH_PASSWORD }),
  });
  const body = (await res.json()) as { token?: string; message?: string };
  if (!res.ok || !body.token) throw new Error(`login ${email}: ${res.status} ${body.message}`);
  return body.token;
}

/**
 * `count` rider rows numbered from 1 (`${prefix}${n}@bench.test`, kit name, the categories
 * in turn, a rider code), ready for insertVerifiedRiders.
 */
export function benchRiderRows(
  count: number,
  prefix: string,
  passwordHash: string,
  categories: readonly Category[] = CATEGORIES,
): BenchRider[] {
  return Array.from({ length: count }, (_, i) => ({
    email: `${prefix}${i + 1}@bench.test`,
    passwordHash,
    firstName: 'Rider',
    lastName: String(i + 1),
    kitName: `KIT ${i + 1}`,
    role: 'participant' as const,
    category: categories[i % categories.length] as Category,
    riderNumber: i + 1,
    riderCode: newRiderCode(),
    phoneNumber: '09170000000',
  }));
}

/** The JSON body of an API answer; a refusal throws with the server's message. */
export async function benchJson<T>(res: Response): Promise<T> {
  const body = (await res.json()) as T & { message?: string };
  if (!res.ok) throw new Error(`${res.url}: ${res.status} ${body.message ?? ''}`);
  return body;
}

/** Signs in with STRONG_PASSWORD (the accounts a benchmark creates through the product). */
export async function benchSignIn(url: string, email: string) {
  return benchJson<{ token: string; data: { user: { id: string } } }>(
    await fetch(`${url}/api/auth/login`, {
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      body: JSON.stringify({ email, password: STRONG_PASSWORD }),
    }),
  );
}

/**
 * An admin made as an organiser makes the first one (the CLI's create-user on the server's
 * data directory), signed in through the real login call.
 */
export async function createBenchAdmin(url: string, dataDir: string) {
  const email = `bench-admin-${Date.now()}@example.com`;
  const made = await runNode(
    'cli',
    [
      'create-user',
      '--email',
      email,
      '--password',
      STRONG_PASSWORD,
      '--role',
      'admin',
      '--first-name',
      'Bench',
      '--last-name',
      'Admin',
    ],
    { DATA_DIR: dataDir },
  );
  if (made.code !== 0) throw new Error(`create-user: ${made.stderr}`);
  return benchSignIn(url, email);
}

/** Registers a rider through the real upload route and approves them as `adminToken`. */
export async function registerVerifiedRider(
  url: string,
  adminToken: string,
  fields: Record<string, string>,
  files: Parameters<typeof multipart>[1],
): Promise<void> {
  const body = multipart(fields, files);
  const reg = await benchJson<{ data: { user: { verificationCode: string } } }>(
    await fetch(`${url}/api/auth/register-with-uploads`, { method: 'POST', headers: body.headers, body: body.payload }),
  );
  await benchJson(
    await fetch(`${url}/api/admin/verifications/verify`, {
      method: 'POST',
      headers: { 'content-type': 'application/json', authorization: `Bearer ${adminToken}` },
      body: JSON.stringify({ verification_code: reg.data.user.verificationCode, action: 'verified' }),
    }),
  );
}
