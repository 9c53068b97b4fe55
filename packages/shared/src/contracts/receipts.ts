// Receipts read, checked and matched (DESIGN.md §13): the reading on a verification, its
// flags, the desk's correction, and payment statements.
import { z } from 'zod';
import { FILE_STATES, READING_STATES, RECEIPT_FLAG_KINDS, STATEMENT_PRESETS } from '../catalog/receipts';
import { envelope } from './common';

const confidence = z.number().min(0).max(1).nullable();

/** What was read off the receipt (or typed in by staff). Amount in pesos; reference as digits. */
export const receiptReading = z.object({
  status: z.enum(READING_STATES),
  referenceNumber: z.string().nullable(),
  amount: z.number().nullable(),
  paidAt: z.string().nullable(),
  recipient: z.string().nullable(),
  confidence: z.object({
    referenceNumber: confidence,
    amount: confidence,
    paidAt: confidence,
    recipient: confidence,
  }),
  /** Set when staff typed or corrected a field. */
  correctedAt: z.string().nullable(),
  correctedBy: z.string().nullable(),
});
export type ReceiptReading = z.infer<typeof receiptReading>;

/** A flag on a verification: what it found and what it matched. It informs; staff decide. */
export const receiptFlag = z.object({
  kind: z.enum(RECEIPT_FLAG_KINDS),
  /** One sentence for the desk, e.g. "reference 1001 543 610110 is also on #042's receipt, approved on 12 March". */
  message: z.string(),
  matched: z
    .object({
      fileId: z.string().nullable(),
      userId: z.string().nullable(),
      riderNumber: z.number().int().nullable(),
      name: z.string().nullable(),
      status: z.string().nullable(),
      statementId: z.string().nullable(),
    })
    .nullable(),
});
export type ReceiptFlag = z.infer<typeof receiptFlag>;

/** The receipt's check as the desk shows it beside the image. */
export const receiptCheck = z.object({
  fileId: z.string(),
  fileStatus: z.enum(FILE_STATES),
  reading: receiptReading,
  flags: z.array(receiptFlag),
  /** The statement row this receipt matched by reference and amount, if any. */
  inStatement: z.object({ statementId: z.string(), line: z.number().int(), paidAt: z.string().nullable() }).nullable(),
});
export type ReceiptCheck = z.infer<typeof receiptCheck>;

const nullableText = (field: string, max: number) =>
  z
    .string({ message: `${field} must be text` })
    .trim()
    .max(max, { message: `${field} must be at most ${max} characters` })
    .nullable()
    .optional();

/** PATCH /api/admin/verifications/{id}/reading: staff type or correct what was read. */
export const readingPatchBody = z
  .object({
    referenceNumber: nullableText('referenceNumber', 40).refine(
      (v) => v == null || v === '' || /^[\d\s-]{6,40}$/.test(v),
      { message: 'referenceNumber must be digits (spaces and dashes allowed)' },
    ),
    amount: z
      .number({ message: 'amount must be a number' })
      .min(0, { message: 'amount cannot be negative' })
      .max(10_000_000, { message: 'amount is too large' })
      .nullable()
      .optional(),
    paidAt: z.iso.datetime({ offset: true, message: 'paidAt must be an ISO date and time' }).nullable().optional(),
    recipient: nullableText('recipient', 120),
  })
  .strict();
export type ReadingPatchBody = z.infer<typeof readingPatchBody>;

export const receiptCheckResponse = envelope(receiptCheck);

/** A statement row as the desk sees it: matched to a receipt or not. */
export const statementRow = z.object({
  id: z.string(),
  line: z.number().int(),
  referenceNumber: z.string().nullable(),
  amount: z.number().nullable(),
  paidAt: z.string().nullable(),
  description: z.string().nullable(),
  match: z
    .object({
      fileId: z.string(),
      userId: z.string(),
      riderNumber: z.number().int().nullable(),
      name: z.string(),
    })
    .nullable(),
});
export type StatementRow = z.infer<typeof statementRow>;

export const statementSummary = z.object({
  id: z.string(),
  preset: z.enum(STATEMENT_PRESETS),
  originalName: z.string().nullable(),
  rowCount: z.number().int(),
  matchedCount: z.number().int(),
  coversFrom: z.string().nullable(),
  coversTo: z.string().nullable(),
  createdAt: z.string(),
});
export type StatementSummary = z.infer<typeof statementSummary>;

export const statementDetail = statementSummary.extend({
  matched: z.array(statementRow),
  unmatched: z.array(statementRow),
});
export type StatementDetail = z.infer<typeof statementDetail>;

/**
 * The columns of a statement mapped to what the matcher needs, by header name. The presets
 * (GCash, common bank exports) fill it; `custom` needs reference, amount and date.
 */
export const statementMapping = z
  .object({
    referenceNumber: z.string().trim().min(1).max(100),
    amount: z.string().trim().min(1).max(100),
    paidAt: z.string().trim().min(1).max(100),
    description: z.string().trim().min(1).max(100).optional(),
  })
  .strict();
export type StatementMapping = z.infer<typeof statementMapping>;

export const statementUploadFields = z.object({
  preset: z.enum(STATEMENT_PRESETS, { message: "preset must be 'gcash', 'bank' or 'custom'" }),
  /** JSON of `statementMapping`; required for `custom`. */
  mapping: z.string().max(2000).optional(),
});

export const statementResponse = envelope(statementDetail);
export const statementListResponse = envelope(z.array(statementSummary));
