import { FILE_JOB_KINDS, FILE_JOB_STATES, READING_STATES, STATEMENT_PRESETS } from '@rally/shared/catalog/receipts';
import { sql } from 'drizzle-orm';
import { bigint, check, index, integer, jsonb, pgTable, text, timestamp, uniqueIndex, uuid } from 'drizzle-orm/pg-core';
import { editions } from './editions';
import { files } from './files';
import { users } from './users';

const inList = (values: readonly string[]) => sql.raw(values.map((v) => `'${v}'`).join(', '));

/**
 * The durable queue of work on uploaded files (DESIGN.md §13): a row per file and kind of
 * job, claimed with FOR UPDATE SKIP LOCKED and held by a lease like the outbox, so a job
 * whose instance died (kill -9) is taken again when its lease ends.
 */
export const fileJobs = pgTable(
  'file_jobs',
  {
    id: uuid('id').primaryKey().defaultRandom(),
    fileId: uuid('file_id')
      .notNull()
      .references(() => files.id, { onDelete: 'cascade' }),
    kind: text('kind', { enum: FILE_JOB_KINDS }).notNull(),
    status: text('status', { enum: FILE_JOB_STATES }).notNull().default('pending'),
    attempts: integer('attempts').notNull().default(0),
    nextAttemptAt: timestamp('next_attempt_at', { withTimezone: true }).notNull().defaultNow(),
    lockedUntil: timestamp('locked_until', { withTimezone: true }),
    lockedBy: text('locked_by'),
    lastError: text('last_error'),
    createdAt: timestamp('created_at', { withTimezone: true }).notNull().defaultNow(),
    finishedAt: timestamp('finished_at', { withTimezone: true }),
  },
  (t) => [
    uniqueIndex('file_jobs_file_kind_uq').on(t.fileId, t.kind),
    index('file_jobs_due_idx').on(t.nextAttemptAt).where(sql`${t.status} = 'pending'`),
    check('file_jobs_kind_ck', sql`${t.kind} in (${inList(FILE_JOB_KINDS)})`),
    check('file_jobs_status_ck', sql`${t.status} in (${inList(FILE_JOB_STATES)})`),
  ],
);

/**
 * What was read off a receipt (or typed in by staff): one row per receipt file. Amounts in
 * centavos; the reference as digits only. `confidence` holds 0–1 per field as read.
 */
export const receiptReadings = pgTable(
  'receipt_readings',
  {
    fileId: uuid('file_id')
      .primaryKey()
      .references(() => files.id, { onDelete: 'cascade' }),
    status: text('status', { enum: READING_STATES }).notNull().default('pending'),
    referenceNumber: text('reference_number'),
    amountCentavos: bigint('amount_centavos', { mode: 'number' }),
    paidAt: timestamp('paid_at', { withTimezone: true }),
    recipient: text('recipient'),
    confidence: jsonb('confidence').$type<Record<string, number>>().notNull().default({}),
    /** The recognised text, kept for the desk to see what the reader saw. */
    text: text('text'),
    readAt: timestamp('read_at', { withTimezone: true }),
    correctedBy: uuid('corrected_by').references(() => users.id, { onDelete: 'set null' }),
    correctedAt: timestamp('corrected_at', { withTimezone: true }),
  },
  (t) => [
    index('receipt_readings_reference_idx').on(t.referenceNumber),
    check('receipt_readings_status_ck', sql`${t.status} in (${inList(READING_STATES)})`),
  ],
);

/** A GCash or bank transaction history the organiser uploaded, per edition. */
export const paymentStatements = pgTable(
  'payment_statements',
  {
    id: uuid('id').primaryKey().defaultRandom(),
    editionId: uuid('edition_id')
      .notNull()
      .references(() => editions.id, { onDelete: 'cascade' }),
    preset: text('preset', { enum: STATEMENT_PRESETS }).notNull(),
    originalName: text('original_name'),
    /** The column mapping used, as the console sent it (or the preset's). */
    mapping: jsonb('mapping').$type<Record<string, string>>().notNull().default({}),
    rowCount: integer('row_count').notNull(),
    coversFrom: timestamp('covers_from', { withTimezone: true }),
    coversTo: timestamp('covers_to', { withTimezone: true }),
    uploadedBy: uuid('uploaded_by').references(() => users.id, { onDelete: 'set null' }),
    createdAt: timestamp('created_at', { withTimezone: true }).notNull().defaultNow(),
  },
  (t) => [
    index('payment_statements_edition_idx').on(t.editionId, t.createdAt),
    check('payment_statements_preset_ck', sql`${t.preset} in (${inList(STATEMENT_PRESETS)})`),
  ],
);

export const paymentStatementRows = pgTable(
  'payment_statement_rows',
  {
    id: uuid('id').primaryKey().defaultRandom(),
    statementId: uuid('statement_id')
      .notNull()
      .references(() => paymentStatements.id, { onDelete: 'cascade' }),
    /** The row's line in the file (1 = the first data row), for the organiser to find it. */
    line: integer('line').notNull(),
    referenceNumber: text('reference_number'),
    amountCentavos: bigint('amount_centavos', { mode: 'number' }),
    paidAt: timestamp('paid_at', { withTimezone: true }),
    description: text('description'),
  },
  (t) => [
    index('payment_statement_rows_statement_idx').on(t.statementId, t.line),
    index('payment_statement_rows_reference_idx').on(t.referenceNumber),
  ],
);
