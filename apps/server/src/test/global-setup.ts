// Vitest's global setup: one migrated database of each kind, made once per run, that every
// test database is then copied from. An in-memory PGlite costs ~3 s of CPU in initdb and a
// PostgreSQL database ~1 s in migrations; the API tests open some 140 of them, which made
// this work a third of the suite's time. The copies are whole databases, as fresh as before:
// a PGlite loaded from a dump of the migrated one, a PostgreSQL database cloned from a
// migrated template (CREATE DATABASE … TEMPLATE).
import { execFileSync, spawnSync } from 'node:child_process';
import { randomBytes } from 'node:crypto';
import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import pg from 'pg';
import type { TestProject } from 'vitest/node';
import { openDatabase } from '../db/client';
import { runMigrations } from '../db/migrate';

declare module 'vitest' {
  export interface ProvidedContext {
    /** A file holding the dump of a migrated PGlite's data directory. */
    pgliteTemplate: string;
    /** The migrated PostgreSQL database test databases are created from (with TEST_DATABASE_URL). */
    postgresTemplate: string | null;
    /** A DATA_DIR with a migrated, empty embedded database, copied for server processes (test/processes.ts). */
    dataDirTemplate: string;
  }
}

const root = path.resolve(import.meta.dirname, '../../../..');
const tmp = path.join(root, '.tmp');

async function adminQuery(sql: string): Promise<void> {
  const client = new pg.Client({ connectionString: process.env.TEST_DATABASE_URL });
  await client.connect();
  try {
    await client.query(sql);
  } finally {
    await client.end();
  }
}

export default async function setup(project: TestProject): Promise<() => Promise<void>> {
  mkdirSync(tmp, { recursive: true });
  const dumpFile = path.join(tmp, `vitest-pglite-template-${process.pid}.tar`);
  const embedded = await openDatabase({});
  await runMigrations(embedded);
  const client = (embedded.db as unknown as { $client: import('@electric-sql/pglite').PGlite }).$client;
  writeFileSync(dumpFile, Buffer.from(await (await client.dumpDataDir('none')).arrayBuffer()));
  await embedded.close();
  project.provide('pgliteTemplate', dumpFile);

  // Server processes run the built JavaScript, as `npm start` does: built here once, before
  // any test file starts one, so parallel files never race to build it.
  const fresh = spawnSync(process.execPath, [path.join(root, 'scripts/freshness.mjs'), 'check', 'server']);
  if (fresh.status !== 0) execFileSync(process.execPath, [path.join(root, 'apps/server/scripts/build.mjs')]);
  const dataDirTemplate = mkdtempSync(path.join(os.tmpdir(), 'rally-datadir-template-'));
  const onDisk = await openDatabase({ dataDir: dataDirTemplate });
  await runMigrations(onDisk);
  await onDisk.close();
  project.provide('dataDirTemplate', dataDirTemplate);

  let postgresTemplate: string | null = null;
  if (process.env.TEST_DATABASE_URL) {
    postgresTemplate = `rally_template_${randomBytes(6).toString('hex')}`;
    await adminQuery(`create database ${postgresTemplate}`);
    const url = new URL(process.env.TEST_DATABASE_URL);
    url.pathname = `/${postgresTemplate}`;
    const database = await openDatabase({ databaseUrl: url.toString(), poolSize: 1 });
    await runMigrations(database);
    // A template must have no connection open while it is copied.
    await database.close();
  }
  project.provide('postgresTemplate', postgresTemplate);

  return async () => {
    rmSync(dumpFile, { force: true });
    rmSync(dataDirTemplate, { recursive: true, force: true });
    if (postgresTemplate) await adminQuery(`drop database if exists ${postgresTemplate} with (force)`);
  };
}
