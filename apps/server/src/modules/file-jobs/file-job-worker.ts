// The file queue's worker in each server instance. It wakes when a job is written (LISTEN:
// the notification leaves when the writing transaction commits, on any instance), when the
// next retry falls due or a dead instance's lease ends (a timer set to exactly then), and
// otherwise sleeps. It runs few jobs at a time (one on PGlite, two on PostgreSQL): decoding
// a phone photo takes a core, and the registrations still arriving need the other.
import type { FileJobKind } from '@rally/shared/catalog/receipts';
import { sql } from 'drizzle-orm';
import type { FastifyBaseLogger } from 'fastify';
import type { Database, Db } from '../../db/client';
import type { FileStore } from '../../lib/file-store';
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

const MAX_SLEEP_MS = 60 * 60_000;
const RETRY_MS = 1_000;
const MAX_RETRY_MS = 30_000;

export class FileJobWorker {
  private timer: NodeJS.Timeout | null = null;
  private running: Promise<void> | null = null;
  private again = false;
  private stopped = false;
  private stopListen: (() => Promise<void>) | null = null;
  private roundWaiters: Array<() => void> = [];
  private progressWaiters: Array<() => void> = [];
  private readonly inFlight = new Set<string>();
  private renewer: NodeJS.Timeout | null = null;
  private failures = 0;

  constructor(private readonly opts: FileJobWorkerOptions) {}

  start(database: Database): void {
    this.stopListen = database.listen(FILE_JOBS_CHANNEL, {
      onNotify: () => this.wake(),
      // Back after a dropped connection: a notification may have been missed.
      onLive: (live) => {
        if (live) this.wake();
      },
    });
    this.wake();
  }

  /** Looks for due work now. */
  wake(): void {
    if (this.stopped) return;
    if (this.running) {
      this.again = true;
      return;
    }
    if (this.timer) {
      clearTimeout(this.timer);
      this.timer = null;
    }
    this.running = this.loop()
      .then(
        () => {
          this.failures = 0;
        },
        (err) => {
          const wait = Math.min(MAX_RETRY_MS, RETRY_MS * 2 ** this.failures);
          this.failures += 1;
          this.opts.log.error({ err, retryInMs: wait }, 'file job worker failed; trying again shortly');
          this.sleep(wait);
        },
      )
      .finally(() => {
        this.running = null;
        if (this.again) {
          this.again = false;
          this.wake();
        } else {
          for (const resolve of this.roundWaiters.splice(0)) resolve();
          for (const resolve of this.progressWaiters.splice(0)) resolve();
        }
      });
  }

  /**
   * Resolves when the worker has finished its current round and found nothing more due
   * (immediately when it is asleep). Tests and the benchmark wait on it, never on time.
   */
  idle(): Promise<void> {
    if (!this.running && !this.again) return Promise.resolve();
    return new Promise((resolve) => this.roundWaiters.push(resolve));
  }

  /** Resolves when the worker next finishes a job or a round, whatever woke it. */
  private nextProgress(): Promise<void> {
    return new Promise((resolve) => this.progressWaiters.push(resolve));
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

  async stop(): Promise<void> {
    this.stopped = true;
    if (this.timer) clearTimeout(this.timer);
    await this.running;
    if (this.renewer) clearInterval(this.renewer);
    this.renewer = null;
    await this.stopListen?.();
    for (const resolve of this.roundWaiters.splice(0)) resolve();
    for (const resolve of this.progressWaiters.splice(0)) resolve();
  }

  private sleep(ms: number): void {
    if (this.stopped || this.timer) return;
    this.timer = setTimeout(() => {
      this.timer = null;
      this.wake();
    }, Math.min(ms, MAX_SLEEP_MS) + 5);
    this.timer.unref();
  }

  private async loop(): Promise<void> {
    const { db, instance, concurrency } = this.opts;
    // A pool of `concurrency` runners, each claiming one job at a time: a slow job never
    // holds back a claim for the runner that is free.
    const runner = async () => {
      for (;;) {
        if (this.stopped) return;
        const [job] = await claimFileJobs(db, { limit: 1, instance, leaseSeconds: this.opts.leaseSeconds });
        if (!job) return;
        this.hold(job.id);
        try {
          const outcome = await runFileJob({ db, store: this.opts.store, instance }, job);
          if (outcome === 'failed') this.opts.log.warn({ job }, 'file job failed for good');
          this.opts.onOutcome?.(job, outcome);
        } finally {
          this.release(job.id);
          for (const resolve of this.progressWaiters.splice(0)) resolve();
        }
      }
    };
    await Promise.all(Array.from({ length: concurrency }, runner));
    if (this.stopped) return;
    const wait = await nextFileJobWait(db);
    if (wait !== null) this.sleep(wait);
  }

  /** Keeps the leases of running jobs, every third of a lease, until each is recorded. */
  private hold(id: string): void {
    this.inFlight.add(id);
    if (this.renewer) return;
    const leaseSeconds = this.opts.leaseSeconds ?? FILE_JOB_LEASE_SECONDS;
    this.renewer = setInterval(
      () => {
        renewFileJobLeases(this.opts.db, [...this.inFlight], this.opts.instance, leaseSeconds).catch((err) =>
          // The database away: the lease may end and another instance run the job again,
          // which is harmless (a job's result is recorded only by its holder).
          this.opts.log.warn({ err }, 'could not renew file job leases'),
        );
      },
      (leaseSeconds * 1000) / 3,
    );
    this.renewer.unref();
  }

  private release(id: string): void {
    this.inFlight.delete(id);
    if (this.inFlight.size > 0 || !this.renewer) return;
    clearInterval(this.renewer);
    this.renewer = null;
  }
}
