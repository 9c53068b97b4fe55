// Issue 16: instances starting together ran the migrations at the same time. They take
// an advisory lock now: both starts succeed and every migration is applied once.

import { readdirSync } from 'node:fs';
import { fileURLToPath } from 'node:url';
import pg from 'pg';
import { describe, expect, it } from 'vitest';
import { freshPgDatabase } from '../test/processes';
import { openDatabase } from './client';
import { runMigrations } from './migrate';

const admin = process.env.TEST_DATABASE_URL;
const migrationFiles = readdirSync(fileURLToPath(new URL('../../drizzle', import.meta.url))).filter((f) =>
  f.endsWith('.sql'),
);

describe.skipIf(!admin)('migrations on a fresh PostgreSQL', () => {
  it('run concurrently from two connections: both succeed, each migration applied once', async () => {
    const fresh = await freshPgDatabase('rally_migrate');
    const a = await openDatabase({ databaseUrl: fresh.url, poolSize: 2 });
    const b = await openDatabase({ databaseUrl: fresh.url, poolSize: 2 });
    try {
      const results = await Promise.allSettled([runMigrations(a), runMigrations(b), runMigrations(a)]);
      expect(results.map((r) => (r.status === 'rejected' ? String(r.reason) : 'ok'))).toEqual(['ok', 'ok', 'ok']);
      const check = new pg.Client({ connectionString: fresh.url });
      await check.connect();
      const applied = await check.query('select hash from drizzle.__drizzle_migrations');
      const tables = await check.query(
        "select count(*)::int as n from information_schema.tables where table_schema = 'public' and table_name = 'login_throttle'",
      );
      await check.end();
      expect(applied.rows).toHaveLength(migrationFiles.length);
      expect(new Set(applied.rows.map((r) => r.hash)).size).toBe(migrationFiles.length);
      expect(tables.rows[0].n).toBe(1);
    } finally {
      await a.close();
      await b.close();
      await fresh.drop();
    }
  });
});
