import { PGlite } from '@electric-sql/pglite';
import type { ExtractTablesWithRelations } from 'drizzle-orm';
import { drizzle as drizzlePg } from 'drizzle-orm/node-postgres';
import type { PgDatabase, PgQueryResultHKT, PgTransaction } from 'drizzle-orm/pg-core';
import { drizzle as drizzlePglite } from 'drizzle-orm/pglite';
import pg from 'pg';
import { type ListenHandlers, listenChannel } from './listen';
import * as activities from './schema/activities';
import * as announcements from './schema/announcements';
import * as enums from './schema/enums';
import * as eventDay from './schema/event-day';
import * as files from './schema/files';
import * as kit from './schema/kit';
import * as security from './schema/security';
import * as sessions from './schema/sessions';
import * as social from './schema/social';
import * as users from './schema/users';
import * as verifications from './schema/verifications';

export const schema = {
  ...enums,
  ...users,
  ...sessions,
  ...files,
  ...verifications,
  ...social,
  ...announcements,
  ...kit,
  ...security,
  ...activities,
  ...eventDay,
};
export type Schema = typeof schema;

/** The one handle type services take: either driver behind it. */
export type Db = PgDatabase<PgQueryResultHKT, Schema>;
export type Tx = PgTransaction<PgQueryResultHKT, Schema, ExtractTablesWithRelations<Schema>>;
/** Services accept the database or an open transaction. */
export type DbOrTx = Db | Tx;

export interface Database {
  db: Db;
  kind: 'pglite' | 'postgres';
  close(): Promise<void>;
  /** PostgreSQL only: LISTEN on `channel` over a connection of its own; returns how to stop. */
  listen?(channel: string, handlers: ListenHandlers): () => Promise<void>;
}

// node-postgres returns bigint (count(*)) as strings and dates as Date; keep both explicit.
pg.types.setTypeParser(20, (v) => Number.parseInt(v, 10));

export async function openDatabase(opts: {
  databaseUrl?: string;
  dataDir?: string;
  poolSize?: number;
}): Promise<Database> {
  if (opts.databaseUrl) {
    const pool = new pg.Pool({ connectionString: opts.databaseUrl, max: opts.poolSize ?? 20 });
    // A dropped idle connection must not crash the process; the pool replaces it.
    pool.on('error', () => {});
    const db = drizzlePg(pool, { schema }) as unknown as Db;
    const url = opts.databaseUrl;
    const listeners = new Set<() => Promise<void>>();
    return {
      db,
      kind: 'postgres',
      close: async () => {
        await Promise.all([...listeners].map((stop) => stop()));
        await pool.end();
      },
      listen: (channel, handlers) => {
        const stop = listenChannel(url, channel, handlers);
        listeners.add(stop);
        return async () => {
          listeners.delete(stop);
          await stop();
        };
      },
    };
  }
  const client = opts.dataDir ? new PGlite(opts.dataDir) : new PGlite();
  await client.waitReady;
  const db = drizzlePglite(client, { schema }) as unknown as Db;
  return { db, kind: 'pglite', close: () => client.close() };
}
