// The file queue on a real database: claims, leases, retries and the worker's drain.
import { FILE_JOB_BACKOFF_SECONDS, FILE_JOB_MAX_ATTEMPTS } from '@rally/shared/catalog/receipts';
import { eq, inArray, sql } from 'drizzle-orm';
import sharp from 'sharp';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Db } from '../../db/client';
import { files } from '../../db/schema/files';
import { fileJobs } from '../../db/schema/receipts';
import { users } from '../../db/schema/users';
import { bytesParam } from '../../lib/file-bytes';
import { databaseFileStore } from '../../lib/file-store';
import { acceptUpload, type FileKind } from '../../lib/files';
import { DB_KINDS, type OpenedTestDatabase, openTestDatabase } from '../../test/build-app';
import { jpeg, STRONG_PASSWORD } from '../../test/factories';
import { silentLogger } from '../../test/silent-logger';
import { createUser } from '../operator/operator.service';
import { FileJobWorker } from './file-job-worker';
import { claimFileJobs, finishFileJob } from './file-jobs';
import { queueFileWork } from './file-work';
import { runFileJob } from './run-file-job';

let n = 0;
/** A user with one file stored as an upload stores it, its work queued in the same transaction. */
async function storedUpload(db: Db, kind: FileKind, bytes: Buffer, where: { storageKey?: string } = {}) {
  const email = `jobs.${Date.now().toString(36)}.${n++}@example.com`;
  await createUser(db, { email, password: STRONG_PASSWORD, role: 'participant' });
  const [user] = await db.select({ id: users.id }).from(users).where(eq(users.email, email));
  if (!user) throw new Error('no user');
  const userId = user.id;
  const file = await acceptUpload(kind, bytes, 'upload.jpg');
  return db.transaction(async (tx) => {
    const [row] = await tx
      .insert(files)
      .values({
        userId,
        kind,
        mimeType: file.mimeType,
        sizeBytes: file.sizeBytes,
        width: file.width,
        height: file.height,
        sha256: file.sha256,
        status: file.status,
        data: where.storageKey ? null : bytesParam(file.data),
        storageKey: where.storageKey ?? null,
      })
      .returning({ id: files.id, status: files.status });
    if (!row) throw new Error('no row');
    await queueFileWork(tx, { id: row.id, kind, status: row.status, mimeType: file.mimeType });
    return row.id;
  });
}

async function jobOf(db: Db, fileId: string, kind: 'process' | 'read' = 'process') {
  const [row] = await db
    .select()
    .from(fileJobs)
    .where(sql`${fileJobs.fileId} = ${fileId} and ${fileJobs.kind} = ${kind}`);
  return row;
}

async function fileOf(db: Db, fileId: string) {
  const [row] = await db
    .select({ status: files.status, phash: files.phash, mimeType: files.mimeType, width: files.width })
    .from(files)
    .where(eq(files.id, fileId));
  return row;
}

describe.each(DB_KINDS)('file job queue on %s', (kind) => {
  let opened: OpenedTestDatabase;
  let db: Db;
  const workers: FileJobWorker[] = [];
  const worker = (instance: string) => {
    const w = new FileJobWorker({ db, store: databaseFileStore, instance, log: silentLogger, concurrency: 2 });
    workers.push(w);
    return w;
  };
  beforeAll(async () => {
    opened = await openTestDatabase(kind);
    db = opened.database.db;
  });
  afterAll(async () => {
    await Promise.all(workers.map((w) => w.stop()));
    await opened?.drop();
  });

  it('never hands one job to two concurrent claims', async () => {
    const image = await jpeg({ width: 40, height: 30 });
    const ids = new Set<string>();
    for (let i = 0; i < 8; i++) ids.add(await storedUpload(db, 'profile_image', image));
    const claims = await Promise.all(
      Array.from({ length: 16 }, (_, i) => claimFileJobs(db, { limit: 1, instance: `claimer-${i}` })),
    );
    const claimed = claims.flat().filter((j) => ids.has(j.fileId));
    expect(claimed).toHaveLength(8);
    expect(new Set(claimed.map((j) => j.id)).size).toBe(8);
    // The claimers go away: their jobs are due again for the workers of the next tests.
    await db
      .update(fileJobs)
      .set({ lockedUntil: null, lockedBy: null, attempts: 0 })
      .where(
        inArray(
          fileJobs.id,
          claimed.map((j) => j.id),
        ),
      );
  });

  it("takes a job again when its instance's lease ends, and the dead holder records nothing", async () => {
    const fileId = await storedUpload(db, 'profile_image', await jpeg({ width: 300, height: 200 }));
    const [dead] = (await claimFileJobs(db, { limit: 10, instance: 'dead' })).filter((j) => j.fileId === fileId);
    expect(dead).toBeDefined();
    // Held: nobody else takes it.
    expect((await claimFileJobs(db, { limit: 10, instance: 'other' })).some((j) => j.fileId === fileId)).toBe(false);
    // The instance died (kill -9): nobody renews the lease, and it ends.
    await db
      .update(fileJobs)
      .set({ lockedUntil: sql`now() - interval '1 second'` })
      .where(eq(fileJobs.lockedBy, 'dead'));
    const w = worker('survivor');
    w.start(opened.database);
    await w.settle();
    expect(await fileOf(db, fileId)).toMatchObject({ status: 'ready', mimeType: 'image/jpeg', width: 300 });
    expect((await fileOf(db, fileId))?.phash).toMatch(/^[0-9a-f]{16}$/);
    expect(await jobOf(db, fileId)).toMatchObject({ status: 'done', lockedBy: 'survivor' });
    // The dead holder, were it to come back, records nothing over the survivor's result.
    if (!dead) throw new Error('unreachable');
    expect(await finishFileJob(db, dead, 'dead')).toBe(false);
    await w.stop();
  });

  it('retries a failing job with the backoff, then fails it and the file for good', async () => {
    // Its bytes are in an object store this instance has none of: every attempt fails.
    const fileId = await storedUpload(db, 'profile_image', await jpeg(), { storageKey: 'files/elsewhere' });
    for (let attempt = 1; attempt <= FILE_JOB_MAX_ATTEMPTS; attempt++) {
      const [job] = (await claimFileJobs(db, { limit: 50, instance: 'retrier' })).filter((j) => j.fileId === fileId);
      if (!job) throw new Error(`attempt ${attempt} found no due job`);
      expect(job.attempts).toBe(attempt);
      const outcome = await runFileJob({ db, store: databaseFileStore, instance: 'retrier' }, job);
      const row = await jobOf(db, fileId);
      if (attempt < FILE_JOB_MAX_ATTEMPTS) {
        expect(outcome).toBe('retry');
        expect(row?.status).toBe('pending');
        expect(row?.lastError).toMatch(/object store/);
        // Due again after this attempt's backoff (on the database's clock), not before.
        const [wait] = (
          (await db.execute(
            sql`select extract(epoch from next_attempt_at - now()) as s from file_jobs where file_id = ${fileId} and kind = 'process'`,
          )) as unknown as { rows: Array<{ s: string }> }
        ).rows;
        const backoff = FILE_JOB_BACKOFF_SECONDS[Math.min(attempt - 1, FILE_JOB_BACKOFF_SECONDS.length - 1)] ?? 0;
        expect(Number(wait?.s)).toBeGreaterThan(backoff - 5);
        expect(Number(wait?.s)).toBeLessThanOrEqual(backoff);
        expect((await claimFileJobs(db, { limit: 50, instance: 'eager' })).some((j) => j.fileId === fileId)).toBe(
          false,
        );
        expect((await fileOf(db, fileId))?.status).toBe('processing');
        // The backoff has passed.
        await db.update(fileJobs).set({ nextAttemptAt: sql`now()` }).where(eq(fileJobs.fileId, fileId));
      } else {
        expect(outcome).toBe('failed');
        expect(row).toMatchObject({ status: 'failed', attempts: FILE_JOB_MAX_ATTEMPTS });
        expect(row?.lastError).toMatch(/object store/);
        expect(row?.finishedAt).toBeInstanceOf(Date);
      }
    }
    // Staff see it failed; it is served to nobody.
    expect((await fileOf(db, fileId))?.status).toBe('failed');
  });

  it('fails an image that passed the cheap checks but never decodes, at once', async () => {
    // A whole PNG (header, image data and end chunk all there) whose compressed pixels are garbage.
    const whole = await sharp({
      create: {
        width: 64,
        height: 64,
        channels: 3,
        background: '#808080',
        noise: { type: 'gaussian', mean: 128, sigma: 60 },
      },
    })
      .png()
      .toBuffer();
    const idat = whole.indexOf(Buffer.from('IDAT'));
    const broken = Buffer.from(whole);
    broken.fill(0x55, idat + 20, idat + 200);
    const fileId = await storedUpload(db, 'payment_receipt', broken);
    const w = worker('decoder');
    w.start(opened.database);
    await w.settle();
    expect((await fileOf(db, fileId))?.status).toBe('failed');
    expect(await jobOf(db, fileId)).toMatchObject({ status: 'failed', attempts: 1 });
    // A receipt that never became an image is never read.
    expect(await jobOf(db, fileId, 'read')).toBeUndefined();
    await w.stop();
  });

  it('processes a receipt image, then queues its reading', async () => {
    const fileId = await storedUpload(db, 'payment_receipt', await jpeg({ width: 1080, height: 1920 }));
    const w = worker('reader');
    w.start(opened.database);
    await w.settle();
    expect(await fileOf(db, fileId)).toMatchObject({ status: 'ready', width: 1080 });
    // The reader is another module's; its job exists whatever becomes of it.
    expect(await jobOf(db, fileId, 'read')).toBeDefined();
    await w.stop();
  });
});
