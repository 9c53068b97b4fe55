// Reading and replacing files: the bytes cross the driver as base64 text, decoded and
// encoded by Postgres itself. Measured on PGlite with a 557 KB receipt: a bytea parameter
// took ~250 ms to insert and ~80 ms to read (the embedded driver converts bytea in
// JavaScript), decode/encode of base64 ~20 ms and ~5 ms.
//
// New rows of a registration (insertFiles) take faster paths, measured per registration
// with the rush's uploads (193 KB photo + 521 KB receipt, 2-core machine):
// - PGlite: the rows go in as one binary COPY, written into PGlite's in-memory file system
//   and loaded with `COPY ... FROM` inside the transaction. Event-loop CPU for the files
//   ~50-80 ms as base64 parameters, ~21 ms fed through PGlite's /dev/blob device (its
//   reader copies byte by byte in JavaScript), ~14-26 ms from the in-memory file.
// - node-postgres: a Buffer parameter, which the driver sends in binary: ~8 ms less
//   PostgreSQL backend CPU than decode() of base64 text, the same in Node.

import type { Readable } from 'node:stream';
import type { PGlite } from '@electric-sql/pglite';
import { entityKind, eq, type SQL, sql } from 'drizzle-orm';
import type { PgColumn } from 'drizzle-orm/pg-core';
import type { Db, DbOrTx, Tx } from '../db/client';
import { files } from '../db/schema/files';
import type { FilePlacement, FileStore } from './file-store';
import type { ProcessedFile } from './files';
import { onlyRow } from './sql-text';

export function bytesParam(data: Buffer): SQL<Buffer> {
  return sql<Buffer>`decode(${data.toString('base64')}, 'base64')`;
}

export function bytesColumn(column: PgColumn): SQL<string> {
  return sql<string>`encode(${column}, 'base64')`;
}

export function bytesFrom(base64: string): Buffer {
  return Buffer.from(base64, 'base64');
}

/**
 * A stored file's bytes, wherever they are: a stream from the store (an S3 object, an
 * original in the spool) for a row naming a key, else the row's own bytes, read only now
 * (a revalidation answered 304 reads none). Null when the row has gone meanwhile.
 */
export async function storedBytes(
  db: DbOrTx,
  store: FileStore,
  file: { id: string; storageKey: string | null },
): Promise<Readable | Buffer | null> {
  if (file.storageKey) return (await store.open(file.storageKey)).stream;
  const [row] = await db
    .select({ data: bytesColumn(files.data) })
    .from(files)
    .where(eq(files.id, file.id));
  return row ? bytesFrom(row.data) : null;
}

export interface NewFileRow {
  userId: string;
  file: ProcessedFile;
  /** Where the store put the bytes (lib/file-store.ts): in this row, or under a key. */
  placement: FilePlacement;
}

/** The raw PGlite transaction under a Drizzle one. */
interface PgliteRawTx {
  query(query: string, params?: unknown[]): Promise<unknown>;
}

/**
 * Inserts new file rows inside the caller's transaction `tx` (of `db`), so they commit or
 * roll back with it.
 */
export async function insertFiles(db: Db, tx: Tx, rows: NewFileRow[]): Promise<void> {
  if (rows.length === 0) return;
  // Drizzle's class name, not `is(tx, PgliteTransaction)`: importing drizzle-orm/pglite
  // would load PGlite's code into a server on PostgreSQL too.
  const pglite = (tx.constructor as { [entityKind]?: string })[entityKind] === 'PgliteTransaction';
  // Both handles are PGlite's and Drizzle's internals: should either change shape, the rows
  // take the plain insert below instead of failing.
  const memfs = pglite ? (db as unknown as { $client?: PGlite }).$client?.Module?.FS : undefined;
  const raw = pglite ? (tx as unknown as { session?: { client?: PgliteRawTx } }).session?.client : undefined;
  if (memfs && typeof raw?.query === 'function') {
    // Unique per call (a new user's id); PGlite runs one transaction at a time anyway.
    const path = `/tmp/rally-files-${uuidBytes(onlyRow(rows).userId).toString('hex')}.copy`;
    const columns = COPY_COLUMNS.map((c) => `"${c.name}"`).join(', ');
    memfs.writeFile(path, copyBinary(rows));
    try {
      await raw.query(`copy "files" (${columns}) from '${path}' with (format binary)`);
    } finally {
      memfs.unlink(path);
    }
    return;
  }
  for (const { userId, file: f, placement } of rows) {
    await tx.insert(files).values({
      userId,
      kind: f.kind,
      mimeType: f.mimeType,
      sizeBytes: f.sizeBytes,
      width: f.width,
      height: f.height,
      sha256: f.sha256,
      originalName: f.originalName,
      data: placement.data === null ? null : pglite ? bytesParam(placement.data) : placement.data,
      storageKey: placement.storageKey,
    });
  }
}

// The columns a new row gives; id and created_at take their defaults.
const COPY_COLUMNS = [
  files.userId,
  files.kind,
  files.mimeType,
  files.sizeBytes,
  files.width,
  files.height,
  files.sha256,
  files.originalName,
  files.data,
  files.storageKey,
];

/**
 * PostgreSQL's binary COPY format (https://www.postgresql.org/docs/current/sql-copy.html):
 * a signature, then per row a field count and each field as a length and its binary
 * representation (uuid: 16 bytes; int4: big-endian; text and enum labels: UTF-8; bytea:
 * the bytes themselves), then -1.
 */
export function copyBinary(rows: NewFileRow[]): Buffer {
  const parts: Buffer[] = [COPY_SIGNATURE];
  const int16 = (v: number) => {
    const b = Buffer.allocUnsafe(2);
    b.writeInt16BE(v);
    return b;
  };
  const field = (v: Buffer | null) => {
    const len = Buffer.allocUnsafe(4);
    len.writeInt32BE(v === null ? -1 : v.length);
    parts.push(len);
    if (v !== null) parts.push(v);
  };
  const int4 = (v: number | null) => {
    if (v === null) return null;
    const b = Buffer.allocUnsafe(4);
    b.writeInt32BE(v);
    return b;
  };
  const text = (v: string | null) => (v === null ? null : Buffer.from(v, 'utf8'));
  for (const { userId, file: f, placement } of rows) {
    parts.push(int16(COPY_COLUMNS.length));
    field(uuidBytes(userId));
    field(text(f.kind));
    field(text(f.mimeType));
    field(int4(f.sizeBytes));
    field(int4(f.width));
    field(int4(f.height));
    field(text(f.sha256));
    field(text(f.originalName));
    field(placement.data);
    field(text(placement.storageKey));
  }
  parts.push(int16(-1));
  return Buffer.concat(parts);
}

// "PGCOPY\n\377\r\n\0", then flags (0) and header extension length (0).
const COPY_SIGNATURE = Buffer.concat([
  Buffer.from([0x50, 0x47, 0x43, 0x4f, 0x50, 0x59, 0x0a, 0xff, 0x0d, 0x0a, 0x00]),
  Buffer.alloc(8),
]);

function uuidBytes(id: string): Buffer {
  const hex = id.replace(/-/g, '');
  if (!/^[0-9a-f]{32}$/i.test(hex)) throw new Error(`not a uuid: ${id}`);
  return Buffer.from(hex, 'hex');
}
