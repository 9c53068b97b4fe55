// Starts this instance's file job worker when the app is ready and stops it on close;
// `app.fileJobs` is the worker (null when turned off), for tests and the benchmark.
import { hostname } from 'node:os';
import type { FastifyInstance } from 'fastify';
import fp from 'fastify-plugin';
import type { Database } from '../../db/client';
import type { FileStore } from '../../lib/file-store';
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
    app.addHook('onReady', async () => worker?.start(database));
    app.addHook('onClose', async () => {
      await worker?.stop();
      // The reader's worker would stop by itself when idle; a closing server does not wait.
      await stopReceiptReader();
    });
  },
);
