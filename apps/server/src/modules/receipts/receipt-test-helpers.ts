// Test setup for the desk's checks: a registered rider's current receipt, its reading
// written as the reader (or staff) would leave it, once the file queue has let go of it.
import { randomBytes, randomInt } from 'node:crypto';
import { and, eq, inArray, isNull } from 'drizzle-orm';
import type { FastifyInstance } from 'fastify';
import type { Db } from '../../db/client';
import { files } from '../../db/schema/files';
import { fileJobs, receiptReadings } from '../../db/schema/receipts';

/** A fresh 13-digit GCash-like reference, unique enough for one test database. */
export const newReference = () => `10${String(randomInt(0, 10 ** 11 - 1)).padStart(11, '0')}`;
export const newSha = () => randomBytes(32).toString('hex');
export const newPhash = () => randomBytes(8).toString('hex');

/** The phash with `bits` of its 64 bits flipped. */
export function flipBits(phash: string, bits: number): string {
  let n = BigInt(`0x${phash}`);
  for (let i = 0; i < bits; i++) n ^= 1n << BigInt(i * 7);
  return n.toString(16).padStart(16, '0');
}

export async function currentReceiptId(db: Db, userId: string): Promise<string> {
  const [row] = await db
    .select({ id: files.id })
    .from(files)
    .where(and(eq(files.userId, userId), eq(files.kind, 'payment_receipt'), isNull(files.supersededAt)));
  if (!row) throw new Error('the rider has no receipt');
  return row.id;
}

/**
 * Waits until the queue has processed and read the files (its jobs no longer pending), so
 * a reading written by the test is not overwritten by the queue's own a moment later.
 */
export async function waitForReadJobs(app: FastifyInstance, db: Db, fileIds: string[]): Promise<void> {
  await app.fileJobs?.settle();
  const deadline = Date.now() + 60_000;
  for (;;) {
    const pending = await db
      .select({ id: fileJobs.id })
      .from(fileJobs)
      .where(and(inArray(fileJobs.fileId, fileIds), eq(fileJobs.status, 'pending')));
    if (pending.length === 0) return;
    if (Date.now() > deadline) throw new Error('read jobs still pending after 60 s');
    await app.fileJobs?.settle();
    await new Promise((r) => setTimeout(r, 100));
  }
}

export interface ReadingValues {
  status?: 'pending' | 'read' | 'unreadable';
  referenceNumber?: string | null;
  amountCentavos?: number | null;
  paidAt?: Date | null;
  recipient?: string | null;
}

/** Gives a receipt file its own bytes' identity and the reading given. */
export async function setReceipt(
  app: FastifyInstance,
  db: Db,
  fileId: string,
  opts: { sha256?: string; phash?: string | null; reading?: ReadingValues },
): Promise<void> {
  await waitForReadJobs(app, db, [fileId]);
  await db
    .update(files)
    .set({ sha256: opts.sha256 ?? newSha(), phash: opts.phash ?? null })
    .where(eq(files.id, fileId));
  if (opts.reading) {
    const r = opts.reading;
    const values = {
      status: r.status ?? (r.referenceNumber || r.amountCentavos != null ? 'read' : 'unreadable'),
      referenceNumber: r.referenceNumber ?? null,
      amountCentavos: r.amountCentavos ?? null,
      paidAt: r.paidAt ?? null,
      recipient: r.recipient ?? null,
      confidence: { referenceNumber: 0.95, amount: 0.9 },
      readAt: new Date(),
    };
    await db
      .insert(receiptReadings)
      .values({ fileId, ...values })
      .onConflictDoUpdate({ target: receiptReadings.fileId, set: values });
  }
}
