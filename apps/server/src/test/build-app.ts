// Builds the real app on a real database for API tests: an in-memory PGlite always, or a
// fresh database on the PostgreSQL server named by TEST_DATABASE_URL (made per test file
// and dropped afterwards). Both start as copies of the migrated database of their kind that
// the global setup made once (test/global-setup.ts).
import { randomBytes } from 'node:crypto';
import { mkdtempSync, readFileSync, rmSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import type { Role } from '@rally/shared/catalog/accounts';
import type { FastifyInstance } from 'fastify';
import pg from 'pg';
import { afterAll, beforeAll, inject } from 'vitest';
import { buildApp } from '../app';
import { type Config, loadConfig } from '../config';
import { type Database, openDatabase } from '../db/client';
import { runMigrations } from '../db/migrate';
import { type Actor, staff } from './factories';
import { type TrafficValidation, validateInjectTraffic } from './openapi-validation';

export type DbKind = 'pglite' | 'postgres';

/** The database kinds this run covers: PGlite always, PostgreSQL when TEST_DATABASE_URL is set. */
export const DB_KINDS: DbKind[] = process.env.TEST_DATABASE_URL ? ['pglite', 'postgres'] : ['pglite'];

export interface TestApp {
  app: FastifyInstance;
  database: Database;
  config: Config;
  /** The PostgreSQL database's URL (PostgreSQL only), for a second server instance on it. */
  databaseUrl?: string;
  close(): Promise<void>;
}

async function freshPostgres(fromTemplate = true): Promise<{ url: string; drop(): Promise<void> }> {
  const admin = process.env.TEST_DATABASE_URL as string;
  const name = `rally_test_${randomBytes(6).toString('hex')}`;
  const client = new pg.Client({ connectionString: admin });
  await client.connect();
  const template = fromTemplate ? inject('postgresTemplate') : undefined;
  await client.query(`create database ${name}${template ? ` template ${template}` : ''}`);
  await client.end();
  const url = new URL(admin);
  url.pathname = `/${name}`;
  return {
    url: url.toString(),
    drop: async () => {
      const c = new pg.Client({ connectionString: admin });
      await c.connect();
      await c.query(`drop database if exists ${name} with (force)`);
      await c.end();
    },
  };
}

export interface OpenedTestDatabase {
  database: Database;
  url?: string;
  drop(): Promise<void>;
}

/**
 * A database of its own for a test: migrated (from the run's migrated template), or with
 * `migrationsFolder`, empty and migrated by that folder's migrations only (an older level).
 */
export async function openTestDatabase(
  kind: DbKind = 'pglite',
  opts: { migrationsFolder?: string } = {},
): Promise<OpenedTestDatabase> {
  const older = opts.migrationsFolder;
  if (kind === 'postgres') {
    const pgdb = await freshPostgres(!older);
    const database = await openDatabase({ databaseUrl: pgdb.url, poolSize: 60 });
    await runMigrations(database, older);
    return {
      database,
      url: pgdb.url,
      drop: async () => {
        await database.close();
        await pgdb.drop();
      },
    };
  }
  const database = await openDatabase({ loadDataDir: older ? undefined : pgliteTemplate() });
  await runMigrations(database, older);
  return { database, drop: () => database.close() };
}

let pgliteDump: Blob | undefined;
let dataDir: string | undefined;

function workerDataDir(): string {
  if (!dataDir) {
    const dir = mkdtempSync(path.join(os.tmpdir(), 'rally-test-keys-'));
    process.once('exit', () => rmSync(dir, { recursive: true, force: true }));
    dataDir = dir;
  }
  return dataDir;
}

/** The migrated PGlite's dump (read once per worker), or none outside the global setup. */
function pgliteTemplate(): Blob | undefined {
  const file = inject('pgliteTemplate');
  if (!file) return undefined;
  pgliteDump ??= new Blob([readFileSync(file)]);
  return pgliteDump;
}

export async function buildTestApp(
  kind: DbKind = 'pglite',
  overrides: Partial<Config> = {},
  openapi: TrafficValidation = { requests: true },
  opened?: OpenedTestDatabase,
): Promise<TestApp> {
  const { database, url, drop } = opened ?? (await openTestDatabase(kind));
  const base = loadConfig({
    RATE_LIMITS: 'off',
    PUBLIC_URL: 'http://rally.test',
    WEB_DIST: '/nonexistent',
    // The keys the server makes for itself (VAPID, unsubscribe) go to a directory of this
    // worker's, never the repository's ./data.
    DATA_DIR: workerDataDir(),
  });
  // Originals spool to disk on the embedded database and stay in the file store on
  // PostgreSQL, as a server configured by DATABASE_URL does (config.ts).
  const config = { ...base, ...(kind === 'postgres' ? { uploadSpoolDir: null } : {}), ...overrides };
  const app = await buildApp({ config, database, logger: false });
  await app.ready();
  // Every API test's calls are held to the published document (test/openapi-validation.ts).
  validateInjectTraffic(app, openapi);
  return {
    app,
    database,
    config,
    databaseUrl: url,
    close: async () => {
      await app.close();
      await drop();
    },
  };
}

/**
 * The app a describe block tests, with one signed-in staff account per role named (made in
 * that order), built in a beforeAll registered here (so before the block's own hooks, which
 * may use it) and closed after the block. The objects answered are filled in by that hook:
 * read them inside tests and hooks.
 */
export function useTestApp<const R extends Role>(kind: DbKind, ...roles: R[]): TestApp & { staff: Record<R, Actor> } {
  const staffByRole = Object.fromEntries(roles.map((role) => [role, {}])) as Record<R, Actor>;
  const t = { staff: staffByRole } as TestApp & { staff: Record<R, Actor> };
  beforeAll(async () => {
    Object.assign(t, await buildTestApp(kind));
    for (const role of roles) Object.assign(staffByRole[role], await staff(t.app, t.database.db, role));
  });
  afterAll(async () => {
    // Unset when building failed: nothing to close.
    await t.close?.();
  });
  return t;
}
