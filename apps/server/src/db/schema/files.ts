import { FILE_STATES } from '@rally/shared/catalog/receipts';
import { sql } from 'drizzle-orm';
import { check, customType, index, integer, pgTable, text, timestamp, uniqueIndex, uuid } from 'drizzle-orm/pg-core';
import { fileKindEnum } from './enums';
import { users } from './users';

const bytea = customType<{ data: Buffer; driverData: Buffer | Uint8Array }>({
  dataType: () => 'bytea',
  fromDriver: (v) => (Buffer.isBuffer(v) ? v : Buffer.from(v)),
});

/**
 * One row per uploaded file. The bytes live in the row (`data`, the default store, so a
 * registration and its files commit together) or in an S3-compatible object store under
 * `storage_key` (lib/file-store.ts), put there before the row commits. Exactly one of
 * the two is set; rows of both kinds can coexist (files uploaded before S3 was set up).
 */
export const files = pgTable(
  'files',
  {
    id: uuid('id').primaryKey().defaultRandom(),
    userId: uuid('user_id')
      .notNull()
      .references(() => users.id, { onDelete: 'cascade' }),
    kind: fileKindEnum('kind').notNull(),
    mimeType: text('mime_type').notNull(),
    sizeBytes: integer('size_bytes').notNull(),
    width: integer('width'),
    height: integer('height'),
    sha256: text('sha256').notNull(),
    originalName: text('original_name'),
    data: bytea('data'),
    storageKey: text('storage_key'),
    // Set when a rejected rider sends a new receipt: the old one is kept for staff to compare.
    supersededAt: timestamp('superseded_at', { withTimezone: true }),
    // Stored as sent until the queue has processed it (DESIGN.md §13): a file 'processing'
    // is served to nobody; its bytes are the original until then.
    status: text('status', { enum: FILE_STATES }).notNull().default('ready'),
    /** A 64-bit perceptual hash (16 hex digits) of a processed image, for near-identical receipts. */
    phash: text('phash'),
    createdAt: timestamp('created_at', { withTimezone: true }).notNull().defaultNow(),
  },
  // One current file of each kind per user: a new upload replaces the old one. Superseded
  // receipts (kept after a resubmission) are outside the rule.
  (t) => [
    uniqueIndex('files_user_kind_uq').on(t.userId, t.kind).where(sql`${t.supersededAt} is null`),
    index('files_user_idx').on(t.userId),
    check('files_one_place_ck', sql`(${t.data} is null) <> (${t.storageKey} is null)`),
    check('files_status_ck', sql`${t.status} in ('processing', 'ready', 'failed')`),
    index('files_sha256_idx').on(t.sha256),
  ],
);
