import { fileURLToPath } from 'node:url';
import type pg from 'pg';
import type { Database } from './client';

const migrationsFolder = fileURLToPath(new URL('../../drizzle', import.meta.url));

/** Key of the session-level advisory lock that serializes migrations (any fixed bigint). */
export const MIGRATION_LOCK_KEY = 7_202_611_160_003;

/** Applies the committed drizzle-kit migrations; safe to run at every start. */
export async function runMigrations(database: Database): Promise<void> {
  // biome-ignore lint/suspicious/noExplicitAny: both migrators take their own driver's database type
  const db = database.db as any;
  // Each migrator loads its driver: a server on PostgreSQL must not load PGlite's code.
  if (database.kind === 'pglite') {
    // The embedded store belongs to one process (the DATA_DIR lock): nothing to race.
    const { migrate } = await import('drizzle-orm/pglite/migrator');
    await migrate(db, { migrationsFolder });
    return;
  }
  // Several instances starting at once on one PostgreSQL would each find the same
  // migrations pending and run them together. One connection takes an advisory lock and
  // runs them; the others wait for it, then find nothing left to do.
  const [{ drizzle }, { migrate }] = await Promise.all([
    import('drizzle-orm/node-postgres'),
    import('drizzle-orm/node-postgres/migrator'),
  ]);
  const pool = db.$client as pg.Pool;
  const client = await pool.connect();
  try {
    await client.query('select pg_advisory_lock($1)', [MIGRATION_LOCK_KEY]);
    try {
      await migrate(drizzle(client), { migrationsFolder });
    } finally {
      await client.query('select pg_advisory_unlock($1)', [MIGRATION_LOCK_KEY]);
    }
  } finally {
    client.release();
  }
}
