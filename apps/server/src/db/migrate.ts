import { mkdirSync, readFileSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import pg from 'pg';
import type { Database } from './client';

export const MIGRATIONS_FOLDER = fileURLToPath(new URL('../../drizzle', import.meta.url));

/** Key of the session-level advisory lock that serializes migrations (any fixed bigint). */
export const MIGRATION_LOCK_KEY = 7_202_611_160_003;

/**
 * Applies the committed drizzle-kit migrations; safe to run at every start. Another folder
 * (the upgrade test's copy holding only the older ones) builds a database of an earlier level.
 */
export async function runMigrations(database: Database, migrationsFolder = MIGRATIONS_FOLDER): Promise<void> {
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
  // A connection of its own, with the pool's settings but no bound on a statement: waiting
  // for another instance's migrations, or a migration rewriting a big table, may take longer
  // than a request's statement is allowed (db/client.ts).
  const {
    statement_timeout: _statement,
    query_timeout: _query,
    idle_in_transaction_session_timeout: _idle,
    ...settings
  } = pool.options;
  const client = new pg.Client(settings);
  await client.connect();
  try {
    await client.query('select pg_advisory_lock($1)', [MIGRATION_LOCK_KEY]);
    try {
      await migrate(drizzle(client), { migrationsFolder });
    } finally {
      await client.query('select pg_advisory_unlock($1)', [MIGRATION_LOCK_KEY]);
    }
  } finally {
    await client.end();
  }
}

/**
 * A copy, in `into`, of the committed migrations up to and including `tag`: run by
 * runMigrations, it builds a database of that earlier level (the upgrade's test and
 * benchmark start from one). Answers the folder and how many migrations it holds.
 */
export function migrationsUpTo(tag: string, into: string): { folder: string; count: number } {
  const journal = JSON.parse(readFileSync(path.join(MIGRATIONS_FOLDER, 'meta/_journal.json'), 'utf8')) as {
    entries: Array<{ tag: string }>;
  };
  const count = journal.entries.findIndex((e) => e.tag === tag) + 1;
  if (count === 0) throw new Error(`No migration ${tag}`);
  const entries = journal.entries.slice(0, count);
  mkdirSync(path.join(into, 'meta'), { recursive: true });
  writeFileSync(path.join(into, 'meta/_journal.json'), JSON.stringify({ ...journal, entries }));
  for (const e of entries)
    writeFileSync(path.join(into, `${e.tag}.sql`), readFileSync(path.join(MIGRATIONS_FOLDER, `${e.tag}.sql`)));
  return { folder: into, count };
}
