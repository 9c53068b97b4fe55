// What each job does. 'process': the original decoded at a reduced scale, re-encoded and
// stripped (lib/files.ts processImage), hashed (lib/image-hash.ts), its bytes replaced and
// the file made 'ready', with a receipt's 'read' job queued in the same transaction.
// 'read': the processed receipt handed to the reader (modules/receipts).
import { and, eq } from 'drizzle-orm';
import type { Db } from '../../db/client';
import { files } from '../../db/schema/files';
import { AppError } from '../../lib/errors';
import { bytesParam, storedBytes } from '../../lib/file-bytes';
import { type FileStore, streamBytes } from '../../lib/file-store';
import { type FileKind, processImage } from '../../lib/files';
import { imageHash } from '../../lib/image-hash';
import { publishFileChange, readReceiptFile } from '../receipts/receipt-reading.service';
import { type ClaimedJob, enqueueFileJobs, failFileJob, finishFileJob } from './file-jobs';

export type JobOutcome = 'done' | 'retry' | 'failed' | 'lost';

interface Ctx {
  db: Db;
  store: FileStore;
  instance: string;
}

/** Runs one claimed job and records its outcome; never throws for the job's own failure. */
export async function runFileJob(ctx: Ctx, job: ClaimedJob): Promise<JobOutcome> {
  try {
    return job.kind === 'process' ? await processJob(ctx, job) : await readJob(ctx, job);
  } catch (err) {
    // An image that can never decode (refused by the decoder, not a passing fault) fails at
    // once; anything else, and every failure of the reader, is retried with the backoff.
    const permanent = job.kind === 'process' && err instanceof AppError;
    const message = err instanceof Error ? err.message : String(err);
    return ctx.db.transaction(async (tx) => {
      const outcome = await failFileJob(tx, job, ctx.instance, message, permanent);
      if (outcome === 'failed' && job.kind === 'process') {
        // Staff see it; the rider is asked for another file.
        await tx
          .update(files)
          .set({ status: 'failed' })
          .where(and(eq(files.id, job.fileId), eq(files.status, 'processing')));
        await publishFileChange(tx, job.fileId);
      }
      return outcome;
    });
  }
}

async function loadFile(db: Db, store: FileStore, fileId: string) {
  const [row] = await db
    .select({
      id: files.id,
      kind: files.kind,
      status: files.status,
      mimeType: files.mimeType,
      originalName: files.originalName,
      storageKey: files.storageKey,
    })
    .from(files)
    .where(eq(files.id, fileId));
  const bytes = row ? await storedBytes(db, store, row) : null;
  if (!row || !bytes) return null;
  return { ...row, kind: row.kind as FileKind, bytes: Buffer.isBuffer(bytes) ? bytes : await streamBytes(bytes) };
}

async function processJob({ db, store, instance }: Ctx, job: ClaimedJob): Promise<JobOutcome> {
  const file = await loadFile(db, store, job.fileId);
  // Deleted or replaced meanwhile (the job row goes with it), or done by an earlier holder.
  if (file?.status !== 'processing') {
    return (await finishFileJob(db, job, instance)) ? 'done' : 'lost';
  }
  const image = await processImage(file.kind, file.bytes, file.originalName);
  const phash = await imageHash(image.data);
  const placement = await store.place(image.data, image.mimeType);
  let replacedKey: string | null = null;
  const stored = await db
    .transaction(async (tx) => {
      if (!(await finishFileJob(tx, job, instance))) return false;
      const [before] = await tx
        .select({ storageKey: files.storageKey })
        .from(files)
        .where(eq(files.id, job.fileId))
        .for('update');
      const updated = await tx
        .update(files)
        .set({
          status: 'ready',
          mimeType: image.mimeType,
          sizeBytes: image.sizeBytes,
          width: image.width,
          height: image.height,
          sha256: image.sha256,
          phash,
          data: placement.data === null ? null : bytesParam(placement.data),
          storageKey: placement.storageKey,
        })
        .where(and(eq(files.id, job.fileId), eq(files.status, 'processing')))
        .returning({ id: files.id });
      if (updated.length === 0) return false;
      replacedKey = before?.storageKey ?? null;
      if (file.kind === 'payment_receipt') await enqueueFileJobs(tx, [{ fileId: job.fileId, kind: 'read' }]);
      await publishFileChange(tx, job.fileId);
      return true;
    })
    .catch(async (err: unknown) => {
      if (placement.storageKey) await store.remove([placement.storageKey]);
      throw err;
    });
  if (!stored) {
    if (placement.storageKey) await store.remove([placement.storageKey]);
    return 'lost';
  }
  if (replacedKey) await store.remove([replacedKey]);
  return 'done';
}

async function readJob({ db, store, instance }: Ctx, job: ClaimedJob): Promise<JobOutcome> {
  const file = await loadFile(db, store, job.fileId);
  if (file?.status !== 'ready') return (await finishFileJob(db, job, instance)) ? 'done' : 'lost';
  // The reader's own failure (a throw) is a passing one: retried with the backoff.
  await readReceiptFile(db, job.fileId, file.bytes);
  return (await finishFileJob(db, job, instance)) ? 'done' : 'lost';
}
