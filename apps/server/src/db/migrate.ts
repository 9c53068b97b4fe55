import { fileURLToPath } from 'node:url';
import type { Database } from './client';

const migrationsFolder = fileURLToPath(new URL('../../drizzle', import.meta.url));

/** Applies the committed drizzle-kit migrations; safe to run at every start. */
export async function runMigrations(database: Database): Promise<void> {
  // biome-ignore lint/suspicious/noExplicitAny: both migrators take their own driver's database type
  const db = database.db as any;
  // Each migrator loads its driver: a server on PostgreSQL must not load PGlite's code.
  if (database.kind === 'pglite') {
    const { migrate } = await import('drizzle-orm/pglite/migrator');
    await migrate(db, { migrationsFolder });
  } else {
    const { migrate } = await import('drizzle-orm/node-postgres/migrator');
    await migrate(db, { migrationsFolder });
  }
}
