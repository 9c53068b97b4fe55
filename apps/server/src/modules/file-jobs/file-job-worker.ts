// The file queue's worker in each server instance. It wakes when a job is written (LISTEN:
// the notification leaves when the writing transaction commits, on any instance), when the
// next retry falls due or a dead instance's lease ends (a timer set to exactly then), and
// otherwise sleeps. It runs few jobs at a time (one on PGlite, two on PostgreSQL): decoding
// a phone photo takes a core, and the registrations still arriving need the other.
import type { FileJobKind } from '@rally/shared/catalog/receipts';
import { sql } from 'drizzle-orm';
import type { FastifyBaseLogger } from 'fastify';
import type { Db } from '../../db/client';
import type { FileStore } from '../../lib/file-store';
import { WakeLoop } from '../../lib/wake-loop';
import {
  type ClaimedJob,
  claimFileJobs,
  FILE_JOB_LEASE_SECONDS,
  FILE_JOBS_CHANNEL,
  nextFileJobWait,
  renewFileJobLeases,
} from './file-jobs';
import { type JobOutcome, runFileJob } from './run-file-job';

export interface FileJobWorkerOptions {
  db: Db;
  store: FileStore;
  /** Names this instance's leases (host and process). */
  instance: string;
  log: FastifyBaseLogger;
  /** Jobs run at once. */
  concurrency: number;
  /** FILE_JOB_LEASE_SECONDS unless set (tests shorten it). */
  leaseSeconds?: number;
  /** Told of every job's outcome (tests, the benchmark). */
  onOutcome?: (job: ClaimedJob, outcome: JobOutcome) => void;
}

/** Files stored as sent whose processing is still to come (due, held, or waiting for a retry). */
export async function processingFiles(db: Db, kinds: readonly FileJobKind[] = ['process']): Promise<number> {
  const result = await db.execute(
    sql`select count(*)::int as n from file_jobs where kind in ${sql.raw(`(${kinds.map((k) => `'${k}'`).join(', ')})`)} and status = 'pending'`,
  );
  return Number((result as unknown as { rows: Array<{ n: number }> }).rows[0]?.n ?? 0);
}

export class FileJobWorker extends WakeLoop {
  /** Resolved when a job or a round finishes: settle() looks at the queue again then. */
  private progressWaiters: Array<() => void> = [];

  constructor(private readonly opts: FileJobWorkerOptions) {
    const leaseSeconds = opts.leaseSeconds ?? FILE_JOB_LEASE_SECONDS;
    super({ channel: FILE_JOBS_CHANNEL, what: 'file job', log: opts.log, leaseSeconds });
  }

  /** Resolves when the worker next finishes a job or a round, whatever woke it. */
  private nextProgress(): Promise<void> {
    return new Promise((resolve) => this.progressWaiters.push(resolve));
  }

  private progressed(): void {
    for (const resolve of this.progressWaiters.splice(0)) resolve();
  }

  protected override quiet(): void {
    this.progressed();
  }

  /**
   * Resolves once no file is waiting to be processed: wakes the worker, waits for its round,
   * and, while 'process' jobs are still pending (a retry not yet due, a dead instance's lease),
   * for the rounds its timer or a notification starts. With `kinds` ['process', 'read'], once
   * the receipts are read too. For tests and the benchmark.
   */
  async settle(timeoutMs = 60_000, kinds: readonly FileJobKind[] = ['process']): Promise<void> {
    let timeout: NodeJS.Timeout | undefined;
    const expired = new Promise<never>((_, reject) => {
      timeout = setTimeout(() => reject(new Error(`files still processing after ${timeoutMs} ms`)), timeoutMs);
    });
    try {
      if ((await processingFiles(this.opts.db, kinds)) === 0) return;
      let progress = this.nextProgress();
      this.wake();
      for (;;) {
        if (this.stopped) throw new Error('the file job worker is stopped');
        await Promise.race([progress, expired]);
        progress = this.nextProgress();
        if ((await processingFiles(this.opts.db, kinds)) === 0) return;
      }
    } finally {
      clearTimeout(timeout);
    }
  }

  protected override async round(): Promise<number | null> {
    const { db, instance, concurrency } = this.opts;
    // A pool of `concurrency` runners, each claiming one job at a time: a slow job never
    // holds back a claim for the runner that is free.
    const runner = async () => {
      for (;;) {
        if (this.stopped) return;
        const [job] = await claimFileJobs(db, { limit: 1, instance, leaseSeconds: this.opts.leaseSeconds });
        if (!job) return;
        this.hold([job.id]);
        try {
          const outcome = await runFileJob({ db, store: this.opts.store, instance }, job);
          if (outcome === 'failed') this.opts.log.warn({ job }, 'file job failed for good');
          this.opts.onOutcome?.(job, outcome);
        } finally {
          this.release(job.id);
          this.progressed();
        }
      }
    };
    await Promise.all(Array.from({ length: concurrency }, runner));
    if (this.stopped) return null;
    return nextFileJobWait(db);
  }

  protected override renewLeases(ids: string[], leaseSeconds: number): Promise<unknown> {
    return renewFileJobLeases(this.opts.db, ids, this.opts.instance, leaseSeconds);
  }
}
