// Receipts read (DESIGN.md §13): the file queue queues a reading for every receipt stored
// and, once the image is processed, reads it here. What staff typed is never overwritten
// by a later reading.
import type { ReceiptReading } from '@rally/shared/contracts/receipts';
import { eq } from 'drizzle-orm';
import type { DbOrTx } from '../../db/client';
import { files } from '../../db/schema/files';
import { receiptReadings } from '../../db/schema/receipts';
import { publishEvent } from '../../lib/event-bus';
import { isPdf, pdfText } from './pdf-text';
import { NOTHING_READ, type ReceiptText, readReceiptImage } from './receipt-ocr';
import { parseReceiptText } from './receipt-text';

export type ReadingRow = typeof receiptReadings.$inferSelect;

/** The fields a reading holds, as the contract names them. */
export const READING_FIELDS = ['referenceNumber', 'amount', 'paidAt', 'recipient'] as const;
export type ReadingField = (typeof READING_FIELDS)[number];

/**
 * Staff corrections are remembered in the confidence map as `corrected.<field>` (the table
 * has one corrected_by/at for the row), so a reading that lands later keeps those fields.
 */
const correctedKey = (field: ReadingField) => `corrected.${field}`;

export function correctedFields(confidence: Record<string, number>): Set<ReadingField> {
  return new Set(READING_FIELDS.filter((f) => confidence[correctedKey(f)] === 1));
}

export function markCorrected(confidence: Record<string, number>, fields: Iterable<ReadingField>) {
  const out = { ...confidence };
  for (const f of fields) {
    out[correctedKey(f)] = 1;
    out[f] = 1;
  }
  return out;
}

/** 'read' when a reference or an amount is known (read or typed), else 'unreadable'. */
export const statusOf = (row: { referenceNumber: string | null; amountCentavos: number | null }) =>
  row.referenceNumber || row.amountCentavos !== null ? ('read' as const) : ('unreadable' as const);

/**
 * Tells the desks (streams of verify_users holders) that a file of a rider was processed or
 * read, when the transaction commits: they re-read their page, no polling. Ids only.
 */
export async function publishFileChange(tx: DbOrTx, fileId: string): Promise<void> {
  const [file] = await tx.select({ userId: files.userId, kind: files.kind }).from(files).where(eq(files.id, fileId));
  if (file) await publishEvent(tx, 'receipt', { userId: file.userId, fileId, kind: file.kind });
}

/** A receipt stored and waiting to be read: its reading reads "pending" until then. */
export async function queueReading(tx: DbOrTx, fileId: string): Promise<void> {
  await tx.insert(receiptReadings).values({ fileId }).onConflictDoNothing();
}

/**
 * What a PDF receipt says: a PDF has no image to recognise, but one saved from a bank or
 * GCash has a text layer, read by the same parser as recognised text. A scanned PDF
 * (no text) reads as unreadable, for staff to type.
 */
async function readPdf(bytes: Buffer): Promise<ReceiptText> {
  const text = await pdfText(bytes);
  if (!text) return NOTHING_READ;
  return { text, ...parseReceiptText(text) };
}

/**
 * Reads a processed receipt (image bytes, or the PDF as stored) and stores what was read
 * (the queue's 'read' job). Recognition runs outside any transaction; the write merges
 * under a row lock with what staff may have typed meanwhile.
 */
export async function readReceiptFile(db: DbOrTx, fileId: string, image: Buffer): Promise<void> {
  const found = isPdf(image) ? await readPdf(image) : await readReceiptImage(image);
  await db.transaction(async (tx) => {
    await queueReading(tx, fileId);
    const [before] = await tx.select().from(receiptReadings).where(eq(receiptReadings.fileId, fileId)).for('update');
    if (!before) return; // the file was deleted meanwhile
    const kept = correctedFields(before.confidence);
    const pick = <T>(field: ReadingField, typed: T, read: T) => (kept.has(field) ? typed : read);
    const next = {
      referenceNumber: pick('referenceNumber', before.referenceNumber, found.referenceNumber || null),
      amountCentavos: pick('amount', before.amountCentavos, found.amountCentavos),
      paidAt: pick('paidAt', before.paidAt, found.paidAt),
      recipient: pick('recipient', before.recipient, found.recipient),
    };
    const confidence: Record<string, number> = { ...before.confidence };
    for (const field of READING_FIELDS) {
      const value = found.confidence[field];
      if (kept.has(field)) continue;
      if (value === null || value === undefined) delete confidence[field];
      else confidence[field] = Math.max(0, Math.min(1, value));
    }
    await tx
      .update(receiptReadings)
      .set({ ...next, status: statusOf(next), confidence, text: found.text.slice(0, 20_000), readAt: new Date() })
      .where(eq(receiptReadings.fileId, fileId));
    await publishFileChange(tx, fileId);
  });
}

/** A reading as the desk shows it; a receipt never queued (stored before readings) reads pending. */
export function presentReading(row: ReadingRow | null): ReceiptReading {
  const c = row?.confidence ?? {};
  const conf = (f: ReadingField) => (typeof c[f] === 'number' ? (c[f] as number) : null);
  return {
    status: row?.status ?? 'pending',
    referenceNumber: row?.referenceNumber ?? null,
    amount: row?.amountCentavos == null ? null : row.amountCentavos / 100,
    paidAt: row?.paidAt?.toISOString() ?? null,
    recipient: row?.recipient ?? null,
    confidence: {
      referenceNumber: conf('referenceNumber'),
      amount: conf('amount'),
      paidAt: conf('paidAt'),
      recipient: conf('recipient'),
    },
    correctedAt: row?.correctedAt?.toISOString() ?? null,
    correctedBy: row?.correctedBy ?? null,
  };
}
