// The durable queue of work on uploaded files (DESIGN.md §13). A request stores the
// original and writes a job row in its own transaction, so the job exists exactly when the
// file does; every instance's worker claims due rows with FOR UPDATE SKIP LOCKED and holds
// them by a lease on the database's clock, as the outbox does (messages/outbox.ts): two
// claims never take one job, and a job whose instance died (kill -9) is due again when its
// lease ends. Chosen over pg-boss or graphile-worker because it runs unchanged on PGlite
// (one connection, no background schema of its own) and on PostgreSQL, in the transaction
// of the registration.
import { FILE_JOB_BACKOFF_SECONDS, FILE_JOB_MAX_ATTEMPTS, type FileJobKind } from '@rally/shared/catalog/receipts';
import { and, eq, inArray, sql } from 'drizzle-orm';
import type { DbOrTx } from '../../db/client';
import { fileJobs } from '../../db/schema/receipts';

/** Every instance's worker listens here: a new job wakes them when its transaction commits. */
export const FILE_JOBS_CHANNEL = 'rally_file_jobs';

/**
 * How long a claimed job stays an instance's without word from it; the worker renews the
 * leases of jobs still running every third of it, so a lease ends only when its instance
 * stopped renewing (died).
 */
export const FILE_JOB_LEASE_SECONDS = 30;

export interface ClaimedJob {
  id: string;
  fileId: string;
  kind: FileJobKind;
  attempts: number;
}

/** Writes jobs inside the caller's transaction; a job already there is made due again. */
export async function enqueueFileJobs(
  tx: DbOrTx,
  jobs: ReadonlyArray<{ fileId: string; kind: FileJobKind }>,
): Promise<void> {
  if (jobs.length === 0) return;
  await tx
    .insert(fileJobs)
    .values(jobs.map((j) => ({ fileId: j.fileId, kind: j.kind })))
    .onConflictDoUpdate({
      target: [fileJobs.fileId, fileJobs.kind],
      set: {
        status: 'pending',
        attempts: 0,
        nextAttemptAt: sql`now()`,
        lockedUntil: null,
        lockedBy: null,
        lastError: null,
        finishedAt: null,
      },
    });
  await wakeFileWorkers(tx);
}

/** NOTIFY is held until the transaction commits: workers wake to rows they can see. */
export async function wakeFileWorkers(tx: DbOrTx): Promise<void> {
  await tx.execute(sql`select pg_notify(${FILE_JOBS_CHANNEL}, '')`);
}

/** Takes up to `limit` due jobs for `instance`: processing before reading, then oldest due first. */
export async function claimFileJobs(
  db: DbOrTx,
  opts: { limit: number; instance: string; leaseSeconds?: number },
): Promise<ClaimedJob[]> {
  const result = await db.execute(sql`
    update ${fileJobs} set
      locked_until = now() + make_interval(secs => ${opts.leaseSeconds ?? FILE_JOB_LEASE_SECONDS}),
      locked_by = ${opts.instance},
      attempts = ${fileJobs.attempts} + 1
    where ${fileJobs.id} in (
      select id from ${fileJobs}
      where status = 'pending' and next_attempt_at <= now()
        and (locked_until is null or locked_until <= now())
      -- Processing first: until it is done a rider's picture and a receipt are shown to
      -- nobody, while a reading only adds to what the desk sees.
      order by (kind = 'process') desc, next_attempt_at
      limit ${opts.limit}
      for update skip locked
    )
    returning id, file_id, kind, attempts`);
  return (
    result as unknown as { rows: Array<{ id: string; file_id: string; kind: FileJobKind; attempts: number }> }
  ).rows.map((r) => ({ id: r.id, fileId: r.file_id, kind: r.kind, attempts: Number(r.attempts) }));
}

/** Extends this instance's leases on jobs it is still running. */
export async function renewFileJobLeases(
  db: DbOrTx,
  ids: readonly string[],
  instance: string,
  leaseSeconds = FILE_JOB_LEASE_SECONDS,
): Promise<void> {
  if (ids.length === 0) return;
  await db
    .update(fileJobs)
    .set({ lockedUntil: sql`now() + make_interval(secs => ${leaseSeconds})` })
    .where(and(inArray(fileJobs.id, [...ids]), eq(fileJobs.lockedBy, instance), eq(fileJobs.status, 'pending')));
}

/** The condition that a job is still this instance's: a retaken job is not recorded twice. */
export const heldBy = (job: ClaimedJob, instance: string) =>
  and(eq(fileJobs.id, job.id), eq(fileJobs.lockedBy, instance), eq(fileJobs.status, 'pending'));

/** Marks a job done (in the transaction that stored its result). Returns whether it was still held. */
export async function finishFileJob(tx: DbOrTx, job: ClaimedJob, instance: string): Promise<boolean> {
  const rows = await tx
    .update(fileJobs)
    .set({ status: 'done', finishedAt: sql`now()`, lockedUntil: null, lastError: null })
    .where(heldBy(job, instance))
    .returning({ id: fileJobs.id });
  return rows.length > 0;
}

const cut = (text: string) => (text.length > 500 ? `${text.slice(0, 499)}…` : text);

/**
 * A failed attempt: due again after the backoff, or failed for good after
 * FILE_JOB_MAX_ATTEMPTS (or at once when `permanent`: no retry can help).
 */
export async function failFileJob(
  tx: DbOrTx,
  job: ClaimedJob,
  instance: string,
  error: string,
  permanent = false,
): Promise<'retry' | 'failed' | 'lost'> {
  const lastTry = permanent || job.attempts >= FILE_JOB_MAX_ATTEMPTS;
  const wait =
    FILE_JOB_BACKOFF_SECONDS[Math.min(job.attempts - 1, FILE_JOB_BACKOFF_SECONDS.length - 1)] ??
    FILE_JOB_BACKOFF_SECONDS[FILE_JOB_BACKOFF_SECONDS.length - 1];
  const rows = await tx
    .update(fileJobs)
    .set(
      lastTry
        ? { status: 'failed', lastError: cut(error), lockedUntil: null, finishedAt: sql`now()` }
        : { lastError: cut(error), lockedUntil: null, nextAttemptAt: sql`now() + make_interval(secs => ${wait})` },
    )
    .where(heldBy(job, instance))
    .returning({ id: fileJobs.id });
  if (rows.length === 0) return 'lost';
  return lastTry ? 'failed' : 'retry';
}

/** How long until the next job is due or a lease ends (ms from now), or null when none is pending. */
export async function nextFileJobWait(db: DbOrTx): Promise<number | null> {
  const result = await db.execute(sql`
    select extract(epoch from (min(greatest(next_attempt_at, coalesce(locked_until, next_attempt_at))) - now())) * 1000 as wait
    from ${fileJobs} where status = 'pending'`);
  const row = (result as unknown as { rows: Array<{ wait: string | number | null }> }).rows[0];
  if (!row || row.wait === null) return null;
  return Math.max(0, Number(row.wait));
}
