// Receipts read, checked and matched (DESIGN.md §13): the words the server and the desk share.

/** Where an uploaded file stands: stored as sent and queued, processed and servable, or given up on. */
export const FILE_STATES = ['processing', 'ready', 'failed'] as const;
export type FileState = (typeof FILE_STATES)[number];

/** The jobs the durable queue runs on a file: decode, crop, re-encode and strip; then, for a receipt, read it. */
export const FILE_JOB_KINDS = ['process', 'read'] as const;
export type FileJobKind = (typeof FILE_JOB_KINDS)[number];

export const FILE_JOB_STATES = ['pending', 'done', 'failed'] as const;
export type FileJobState = (typeof FILE_JOB_STATES)[number];

/** Attempts before a job is failed for staff to see, and the wait before each retry (seconds). */
export const FILE_JOB_MAX_ATTEMPTS = 5;
export const FILE_JOB_BACKOFF_SECONDS = [5, 30, 120, 600] as const;

export const READING_STATES = ['pending', 'read', 'unreadable'] as const;
export type ReadingState = (typeof READING_STATES)[number];

/** Flags on a verification: each informs, with what it matched; staff decide. */
export const RECEIPT_FLAG_KINDS = [
  'duplicate_reference',
  'duplicate_file',
  'similar_image',
  'amount_mismatch',
  'date_outside_window',
  'not_in_statement',
] as const;
export type ReceiptFlagKind = (typeof RECEIPT_FLAG_KINDS)[number];

/** A GCash reference number: 13 digits, printed grouped 4-3-6. References are compared as digits only. */
export const REFERENCE_DIGITS = 13;

/** Digits only: how references are stored and compared. */
export function referenceDigits(text: string): string {
  return text.replace(/\D/g, '');
}

/** A reference as GCash prints it ("1001 543 610110"); other lengths as given. */
export function formatReference(digits: string): string {
  return digits.length === REFERENCE_DIGITS ? `${digits.slice(0, 4)} ${digits.slice(4, 7)} ${digits.slice(7)}` : digits;
}

/** Hamming distance of two 64-bit perceptual hashes (16 hex digits) at or under which images are near-identical. */
export const SIMILAR_IMAGE_MAX_DISTANCE = 4;

/** Statement sources whose columns the console knows; `custom` maps them by hand. */
export const STATEMENT_PRESETS = ['gcash', 'bank', 'custom'] as const;
export type StatementPreset = (typeof STATEMENT_PRESETS)[number];
