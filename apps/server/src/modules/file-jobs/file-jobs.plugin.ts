// Starts this instance's file job worker when the app is ready and stops it on close;
// `app.fileJobs` is the worker (null when turned off), for tests and the benchmark.
import { hostname } from 'node:os';
import { inArray } from 'drizzle-orm';
import type { FastifyInstance } from 'fastify';
import fp from 'fastify-plugin';
import type { Database, Db } from '../../db/client';
import { files } from '../../db/schema/files';
import { type FileStore, spoolOrphans } from '../../lib/file-store';
import { setReceiptReaderIdleMs, stopReceiptReader } from '../receipts/receipt-ocr';
import { FileJobWorker } from './file-job-worker';

declare module 'fastify' {
  interface FastifyInstance {
    fileJobs: FileJobWorker | null;
  }
}

export const fileJobsPlugin = fp(
  async (
    app: FastifyInstance,
    opts: {
      database: Database;
      fileStore: FileStore;
      worker?: boolean;
      readerIdleMs?: number;
      leaseSeconds?: number;
      /** The originals' spool (config.uploadSpoolDir), swept of orphans by the worker. */
      spoolDir?: string | null;
    },
  ) => {
    const { database } = opts;
    if (opts.readerIdleMs !== undefined) setReceiptReaderIdleMs(opts.readerIdleMs);
    const worker =
      opts.worker === false
        ? null
        : new FileJobWorker({
            db: database.db,
            store: opts.fileStore,
            instance: `${hostname()}:${process.pid}:${Math.random().toString(36).slice(2, 8)}`,
            log: app.log,
            leaseSeconds: opts.leaseSeconds,
            // PGlite has one connection and runs one query at a time: a second runner would
            // only queue behind the first and hold another decoded image in memory.
            concurrency: database.kind === 'pglite' ? 1 : 2,
          });
    app.decorate('fileJobs', worker);
    const spoolDir = worker ? opts.spoolDir : null;
    let sweeper: NodeJS.Timeout | undefined;
    const sweep = () =>
      spoolDir
        ? sweepSpool(database.db, opts.fileStore, spoolDir).catch((err: unknown) =>
            app.log.warn({ err }, 'could not sweep the upload spool'),
          )
        : undefined;
    app.addHook('onReady', async () => {
      await worker?.start(database);
      void sweep();
      if (spoolDir) sweeper = setInterval(sweep, SPOOL_SWEEP_MS).unref();
    });
    app.addHook('onClose', async () => {
      clearInterval(sweeper);
      await worker?.stop();
      // The reader's worker would stop by itself when idle; a closing server does not wait.
      await stopReceiptReader();
    });
  },
);

const SPOOL_SWEEP_MS = 60 * 60_000;
/** Older than any registration still committing; a request is bounded far below this. */
const SPOOL_ORPHAN_AGE_MS = 10 * 60_000;

/**
 * Removes the spool's originals no row names: a request killed after writing its original
 * and before its row committed. Returns how many went.
 */
export async function sweepSpool(db: Db, store: FileStore, dir: string, now = Date.now()): Promise<number> {
  const orphans = await spoolOrphans(
    dir,
    async (keys) =>
      new Set(
        (await db.select({ key: files.storageKey }).from(files).where(inArray(files.storageKey, keys))).flatMap((r) =>
          r.key ? [r.key] : [],
        ),
      ),
    SPOOL_ORPHAN_AGE_MS,
    now,
  );
  await store.remove(orphans);
  return orphans.length;
}
