import { spawn } from 'node:child_process';
import { existsSync } from 'node:fs';
import { createRequire } from 'node:module';
import path from 'node:path';
import type { ExtractTablesWithRelations } from 'drizzle-orm';
import { drizzle as drizzlePg } from 'drizzle-orm/node-postgres';
import type { PgDatabase, PgQueryResultHKT, PgTransaction } from 'drizzle-orm/pg-core';
import pg from 'pg';
import { type ListenHandlers, listenChannel } from './listen';
import * as activities from './schema/activities';
import * as announcements from './schema/announcements';
import * as course from './schema/course';
import * as dataAccess from './schema/data-access';
import * as editions from './schema/editions';
import * as entries from './schema/entries';
import * as enums from './schema/enums';
import * as eventDay from './schema/event-day';
import * as files from './schema/files';
import * as incidents from './schema/incidents';
import * as kit from './schema/kit';
import * as messages from './schema/messages';
import * as privacy from './schema/privacy';
import * as receipts from './schema/receipts';
import * as security from './schema/security';
import * as sessions from './schema/sessions';
import * as social from './schema/social';
import * as tracking from './schema/tracking';
import * as users from './schema/users';

export const schema = {
  ...enums,
  ...users,
  ...editions,
  ...sessions,
  ...files,
  ...entries,
  ...social,
  ...tracking,
  ...announcements,
  ...kit,
  ...security,
  ...activities,
  ...eventDay,
  ...incidents,
  ...course,
  ...messages,
  ...receipts,
  ...dataAccess,
  ...privacy,
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
  /**
   * LISTEN on `channel` (PostgreSQL: over a connection of its own that comes back after a
   * drop; PGlite: on its one connection); returns how to stop. Notifications arrive after
   * the notifying transaction commits.
   */
  listen(channel: string, handlers: ListenHandlers): () => Promise<void>;
}

// node-postgres returns bigint (count(*)) as strings and dates as Date; keep both explicit.
pg.types.setTypeParser(20, (v) => Number.parseInt(v, 10));

/**
 * How long a PostgreSQL connection may take to answer, so that no request, stream or worker
 * waits forever on a database that is restarting, failing over or unreachable (the answer is
 * a 503 instead: `db/unavailable.ts`). Explained in docs/operations.md.
 */
export interface PostgresTimeouts {
  /** Opening a connection, or waiting for a free one in a busy pool. */
  connectMs: number;
  /** One statement, on the server (`statement_timeout`); 0 for none (operator commands). */
  statementMs: number;
  /** The first TCP keepalive probe of an idle connection. */
  keepAliveDelayMs: number;
}

export const DEFAULT_POSTGRES_TIMEOUTS: PostgresTimeouts = {
  connectMs: 5_000,
  // Far above any request's statement (the heaviest, an export or a rollover of 1,000
  // riders, takes well under a second in docs/benchmarks.md).
  statementMs: 30_000,
  keepAliveDelayMs: 10_000,
};

/** A connection's settings from the timeouts: also the LISTEN connections', so they give up alike. */
export function postgresClientConfig(t: PostgresTimeouts): pg.ClientConfig {
  return {
    connectionTimeoutMillis: t.connectMs,
    keepAlive: true,
    keepAliveInitialDelayMillis: t.keepAliveDelayMs,
    ...(t.statementMs > 0
      ? {
          statement_timeout: t.statementMs,
          // The same bound on the client's side: a server that went silent (a dead network
          // path) cannot cancel anything, so the driver stops waiting a little after it would.
          query_timeout: t.statementMs + 5_000,
          // A transaction left open by a stalled request holds its locks no longer than this.
          idle_in_transaction_session_timeout: t.statementMs * 2,
        }
      : {}),
  };
}

export async function openDatabase(opts: {
  databaseUrl?: string;
  dataDir?: string;
  poolSize?: number;
  /**
   * An in-memory PGlite starts from this dump of another one's data directory
   * (`dumpDataDir`) instead of an empty one: the API tests start each of their many
   * databases from one migrated copy, skipping initdb (~3 s of CPU each).
   */
  loadDataDir?: Blob;
  /** PostgreSQL only: DEFAULT_POSTGRES_TIMEOUTS unless given. */
  timeouts?: Partial<PostgresTimeouts>;
}): Promise<Database> {
  if (opts.databaseUrl) {
    const clientConfig = postgresClientConfig({ ...DEFAULT_POSTGRES_TIMEOUTS, ...opts.timeouts });
    const pool = new pg.Pool({ ...clientConfig, connectionString: opts.databaseUrl, max: opts.poolSize ?? 20 });
    // A dropped idle connection must not crash the process; the pool replaces it.
    pool.on('error', () => {});
    // Nor one dropped while checked out between two queries (inside a transaction): the pool
    // listens for errors on idle connections only, and an 'error' nobody listens for is an
    // uncaught exception, which ended the process when the database restarted. The query
    // that needed the connection fails on its own (a 503), and the pool discards it on release.
    pool.on('connect', (client) => client.on('error', () => {}));
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
        const stop = listenChannel(url, channel, handlers, { client: clientConfig });
        listeners.add(stop);
        return async () => {
          listeners.delete(stop);
          await stop();
        };
      },
    };
  }
  // Loaded only here: a server on PostgreSQL never loads the embedded database's code.
  const [{ PGlite }, { drizzle: drizzlePglite }] = await Promise.all([
    import('@electric-sql/pglite'),
    import('drizzle-orm/pglite'),
  ]);
  if (opts.dataDir) await initDataDirApart(opts.dataDir);
  const options = { startParams: [...PGlite.defaultStartParams, ...pgliteSettings()] };
  const client = opts.dataDir
    ? new PGlite(opts.dataDir, options)
    : new PGlite({ ...options, ...(opts.loadDataDir ? { loadDataDir: opts.loadDataDir } : {}) });
  await client.waitReady;
  const db = drizzlePglite(client, { schema }) as unknown as Db;
  return {
    db,
    kind: 'pglite',
    close: () => client.close(),
    listen: (channel, handlers) => listenPglite(client, channel, handlers),
  };
}

/**
 * PGlite's LISTEN: one process, one connection, nothing to reconnect. A NOTIFY made inside
 * a transaction reaches the callback when it commits, as on PostgreSQL.
 */
function listenPglite(
  client: import('@electric-sql/pglite').PGlite,
  channel: string,
  handlers: ListenHandlers,
): () => Promise<void> {
  if (!/^[a-z_][a-z0-9_]*$/.test(channel)) throw new Error(`Invalid channel name ${channel}`);
  let stopped = false;
  const subscribed = client
    .listen(channel, (payload) => {
      if (!stopped) handlers.onNotify(payload ?? '');
    })
    .then(
      (unsubscribe) => {
        if (!stopped) handlers.onLive(true);
        return unsubscribe;
      },
      () => null,
    );
  return async () => {
    stopped = true;
    const unsubscribe = await subscribed;
    // The database may be closing already; nothing left to stop then.
    if (unsubscribe && !client.closed) await unsubscribe().catch(() => {});
  };
}

/**
 * PostgreSQL's memory settings inside PGlite. Its defaults are a dedicated server's, and
 * all of it lives in the one WebAssembly memory of this process: shared_buffers 128 MB
 * alone grew that memory from its 128 MB minimum to 189 MB and, once a rush had written
 * ~700 MB of uploads through it, stayed resident. A rally's working set is small (the
 * riders table, the numbers index, sessions); the uploads are written once and read
 * rarely, and the operating system's page cache keeps the data files' hot pages anyway.
 * Measured in docs/benchmarks.md (Investigation, "Memory").
 */
export const PGLITE_SETTINGS: Record<string, string> = {
  shared_buffers: '16MB',
  // At most this much per sort or hash before spilling to disk; the biggest sort here is a
  // staff list of ~1,000 riders.
  work_mem: '2MB',
  // Index builds (migrations) and vacuum.
  maintenance_work_mem: '16MB',
  temp_buffers: '2MB',
  wal_buffers: '1MB',
};

function pgliteSettings(): string[] {
  return Object.entries(PGLITE_SETTINGS).flatMap(([name, value]) => ['-c', `${name}=${value}`]);
}

/**
 * A new embedded store is created (initdb) in a process of its own. Inside this process,
 * PGlite runs initdb in a second and a third WebAssembly instance whose memories (another
 * ~190 MB, and ~450 MB of RSS in all) stay reachable after it is done: measured at 898 MB
 * idle after a first start against 427 MB after a restart on the same store.
 */
async function initDataDirApart(dataDir: string): Promise<void> {
  if (existsSync(path.join(dataDir, 'PG_VERSION'))) return;
  const pglite = createRequire(import.meta.url).resolve('@electric-sql/pglite');
  const script = `const { PGlite } = require(${JSON.stringify(pglite)});
(async () => {
  const db = new PGlite(${JSON.stringify(dataDir)});
  await db.waitReady;
  await db.close();
})().catch((err) => { console.error(err); process.exit(1); });`;
  await new Promise<void>((resolve, reject) => {
    const child = spawn(process.execPath, ['-e', script], { stdio: ['ignore', 'inherit', 'inherit'] });
    child.once('error', reject);
    child.once('exit', (code) =>
      code === 0 ? resolve() : reject(new Error(`creating the embedded database in ${dataDir} failed (exit ${code})`)),
    );
  });
}
