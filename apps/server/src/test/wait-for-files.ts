// Uploaded images are processed by the file queue after the request has answered
// (DESIGN.md §13): a test that reads an image back waits for the queue first, by the
// worker's own rounds, never by time.
import type { FastifyInstance } from 'fastify';
import type { Db } from '../db/client';
import { processingFiles } from '../modules/file-jobs/file-job-worker';

/**
 * Resolves once every file stored so far is processed ('ready' or 'failed'); with `reads`,
 * once every receipt is read too (a test comparing the whole database before and after).
 */
export async function waitForFiles(app: FastifyInstance, opts: { reads?: boolean } = {}): Promise<void> {
  if (!app.fileJobs) throw new Error('this app runs no file job worker');
  await app.fileJobs.settle(60_000, opts.reads ? ['process', 'read'] : ['process']);
}

/**
 * The same for server processes a test started (test/processes.ts), seen through their
 * database: resolves once no 'process' job is pending. Another process's worker cannot be
 * waited on directly, so the queue's rows are looked at every 50 ms.
 */
export async function waitForFilesIn(db: Db, timeoutMs = 90_000): Promise<void> {
  const until = Date.now() + timeoutMs;
  while ((await processingFiles(db)) > 0) {
    if (Date.now() > until) throw new Error(`files still processing after ${timeoutMs} ms`);
    await new Promise((r) => setTimeout(r, 50));
  }
}
