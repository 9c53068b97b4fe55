import type { Readable } from 'node:stream';
import type { Role } from '@rally/shared/catalog/accounts';
import { PROFILE_IMAGE_SIZES, type ProfileImageSize } from '@rally/shared/catalog/registration';
import { can } from '@rally/shared/permissions';
import { and, eq, isNull, or } from 'drizzle-orm';
import type { Db, DbOrTx } from '../../db/client';
import { entries } from '../../db/schema/entries';
import { files } from '../../db/schema/files';
import { users } from '../../db/schema/users';
import type { AuthContext } from '../../lib/authorize';
import { inEdition, receiptOfEdition } from '../../lib/edition-of';
import { ConflictError, NotFoundError } from '../../lib/errors';
import { bytesParam, storedBytes } from '../../lib/file-bytes';
import { type FilePlacement, type FileStore, placeUpload, streamBytes } from '../../lib/file-store';
import { type FileKind, loadSharp, type ProcessedFile } from '../../lib/files';
import { onlyRow } from '../../lib/sql-text';
import { canSee } from '../../lib/visibility';
import { recordActivity } from '../activities/activities.service';
import type { AwaitProcessed } from '../file-jobs/await-processed';
import { queueFileWork } from '../file-jobs/file-work';
import { shownTo } from '../privacy/consents.service';

export const NOT_FOUND_MESSAGE: Record<FileKind, string> = {
  profile_image: 'Profile image not found',
  payment_receipt: 'Payment receipt not found',
};

const fileMeta = {
  id: files.id,
  kind: files.kind,
  mimeType: files.mimeType,
  sizeBytes: files.sizeBytes,
  width: files.width,
  height: files.height,
  originalName: files.originalName,
  createdAt: files.createdAt,
};

async function verificationStatus(db: Db, userId: string) {
  const [row] = await db
    .select({ status: entries.status })
    .from(entries)
    // A payment verified in a past edition does not lock this edition's receipt.
    .where(and(eq(entries.userId, userId), inEdition(entries.editionId)));
  return row?.status ?? null;
}

/** The files row of an upload: its metadata, and its bytes or where the store put them. */
export function fileRow(userId: string, file: ProcessedFile, placement: FilePlacement) {
  return {
    userId,
    kind: file.kind,
    mimeType: file.mimeType,
    sizeBytes: file.sizeBytes,
    width: file.width,
    height: file.height,
    sha256: file.sha256,
    originalName: file.originalName,
    // An image as sent waits for the file queue (DESIGN.md §13); a PDF is kept as it is.
    status: file.status ?? 'ready',
    data: placement.data === null ? null : bytesParam(placement.data),
    storageKey: placement.storageKey,
  };
}

/**
 * Stores a new file of a kind for a user, replacing the previous one. In an object store
 * the new object is put before the row commits and the replaced one removed after, so a
 * reader on any instance always finds the object its row names.
 */
export async function saveUserFile(db: Db, store: FileStore, userId: string, file: ProcessedFile) {
  if (file.kind === 'payment_receipt' && (await verificationStatus(db, userId)) === 'verified') {
    throw new ConflictError(
      'Your payment is already verified; the receipt can no longer be changed.',
      'ALREADY_VERIFIED',
    );
  }
  const placement = await placeUpload(store, file);
  let replaced: string[] = [];
  const saved = await db
    .transaction(async (tx) => {
      replaced = storageKeys(
        await tx
          .delete(files)
          .where(and(eq(files.userId, userId), eq(files.kind, file.kind), isNull(files.supersededAt)))
          .returning({ storageKey: files.storageKey }),
      );
      const row = onlyRow(
        await tx
          .insert(files)
          .values(fileRow(userId, file, placement))
          .returning({ ...fileMeta, status: files.status }),
      );
      await queueFileWork(tx, { id: row.id, kind: file.kind, status: row.status, mimeType: file.mimeType });
      await recordActivity(tx, {
        type: 'file_uploaded',
        priority: 'low',
        userId,
        description: file.kind === 'profile_image' ? 'Profile image uploaded' : 'Payment receipt uploaded',
        metadata: { fileId: row.id, mimeType: file.mimeType, sizeBytes: file.sizeBytes },
      });
      const { status: _status, ...meta } = row;
      return meta;
    })
    .catch(async (err: unknown) => {
      if (placement.storageKey) await store.remove([placement.storageKey]);
      throw err;
    });
  await store.remove(replaced);
  return saved;
}

/** A file just saved, described again once the queue has processed it (or the wait is over). */
export async function processedMeta<T extends { id: string }>(
  db: Db,
  saved: T,
  awaitProcessed: AwaitProcessed,
): Promise<T | (T & Awaited<ReturnType<typeof metaOf>>)> {
  const processing = async () => (await metaOf(db, saved.id))?.status === 'processing';
  if (!(await processing())) return saved;
  await awaitProcessed(saved.id, processing);
  const row = await metaOf(db, saved.id);
  if (row?.status !== 'ready') return saved;
  const { status: _status, ...meta } = row;
  return { ...saved, ...meta };
}

async function metaOf(db: Db, id: string) {
  const [row] = await db
    .select({ ...fileMeta, status: files.status })
    .from(files)
    .where(eq(files.id, id));
  return row;
}

const storageKeys = (rows: { storageKey: string | null }[]) =>
  rows.flatMap((r) => (r.storageKey ? [r.storageKey] : []));

/** The object-store keys of a user's files, read before their rows go (account deletion). */
export async function userStorageKeys(db: DbOrTx, userId: string): Promise<string[]> {
  return storageKeys(await db.select({ storageKey: files.storageKey }).from(files).where(eq(files.userId, userId)));
}

export async function deleteUserFile(db: Db, store: FileStore, userId: string, kind: FileKind, fileId: string) {
  if (kind === 'payment_receipt' && (await verificationStatus(db, userId)) === 'verified') {
    throw new ConflictError(
      'Your payment is already verified; the receipt can no longer be removed.',
      'ALREADY_VERIFIED',
    );
  }
  const deleted = await db.transaction(async (tx) => {
    const rows = await tx
      .delete(files)
      // A superseded receipt is history staff compare against; its owner cannot remove it.
      .where(and(eq(files.id, fileId), eq(files.userId, userId), eq(files.kind, kind), isNull(files.supersededAt)))
      .returning({ id: files.id, storageKey: files.storageKey });
    if (rows.length > 0) {
      await recordActivity(tx, {
        type: 'file_deleted',
        priority: 'low',
        userId,
        description: kind === 'profile_image' ? 'Profile image removed' : 'Payment receipt removed',
      });
    }
    return rows;
  });
  // Someone else's file id answers exactly like a missing one.
  if (deleted.length === 0) throw new NotFoundError(NOT_FOUND_MESSAGE[kind], 'FILE_NOT_FOUND');
  await store.remove(storageKeys(deleted));
}

export async function listUserFiles(db: Db, userId: string) {
  return db
    .select(fileMeta)
    .from(files)
    .where(and(eq(files.userId, userId), isNull(files.supersededAt)));
}

/**
 * A file of a kind addressed by the owner's user id (as the console and profile pages
 * do) or by the file's own id (as the user-files listing gives it). Its bytes are read
 * only when they are sent (`openFile`): a revalidation answered 304 costs none.
 */
async function findFile(db: Db, kind: FileKind, id: string, activeOwnerOnly: boolean, awaitProcessed?: AwaitProcessed) {
  const lookup = () => lookupFile(db, kind, id);
  let row = await lookup();
  if (row?.fileStatus === 'processing' && awaitProcessed) {
    await awaitProcessed(row.id, async () => (await lookup())?.fileStatus === 'processing');
    row = await lookup();
  }
  // A file not processed yet (or given up on) is served to nobody: its bytes are the
  // original as sent, metadata and all (DESIGN.md §13).
  if (row?.fileStatus !== 'ready' || (activeOwnerOnly && row.status !== 'active')) {
    throw new NotFoundError(NOT_FOUND_MESSAGE[kind], 'FILE_NOT_FOUND');
  }
  return row;
}

async function lookupFile(db: Db, kind: FileKind, id: string) {
  const [row] = await db
    .select({
      id: files.id,
      kind: files.kind,
      userId: files.userId,
      mimeType: files.mimeType,
      sizeBytes: files.sizeBytes,
      sha256: files.sha256,
      storageKey: files.storageKey,
      fileStatus: files.status,
      status: users.status,
      role: users.role,
    })
    .from(files)
    .innerJoin(users, eq(users.id, files.userId))
    // By owner: the current file (a receipt: the current edition's); by file id: any, so a
    // superseded receipt stays readable.
    .where(
      and(
        eq(files.kind, kind),
        or(
          and(eq(files.userId, id), kind === 'payment_receipt' ? receiptOfEdition(files) : isNull(files.supersededAt)),
          eq(files.id, id),
        ),
      ),
    )
    .limit(1);
  return row;
}

export type StoredFile = Awaited<ReturnType<typeof findFile>>;

/** A stored file's bytes: a stream from the object store, or the row's bytes. */
export async function openFile(db: Db, store: FileStore, file: StoredFile): Promise<Readable | Buffer> {
  const bytes = await storedBytes(db, store, file);
  // Replaced or deleted between the two reads: as if it had not been found.
  if (!bytes) throw new NotFoundError(NOT_FOUND_MESSAGE[file.kind], 'FILE_NOT_FOUND');
  return bytes;
}

/**
 * A receipt is readable by its owner, and by staff holding verify_users who may see the
 * owner's account (lib/visibility.ts).
 */
export async function readReceipt(db: Db, viewer: AuthContext, id: string, awaitProcessed?: AwaitProcessed) {
  const row = await findFile(db, 'payment_receipt', id, false, awaitProcessed);
  if (row.userId !== viewer.userId && !(can(viewer.role, 'verify_users') && canSee(viewer.role, row.role))) {
    // Not revealing whether another rider has a receipt at all.
    throw new NotFoundError(NOT_FOUND_MESSAGE.payment_receipt, 'FILE_NOT_FOUND');
  }
  return row;
}

/**
 * A profile image, to `viewer`: a rider who withdrew their photo's consent (DESIGN.md §12)
 * has none to anyone but themself and staff.
 */
export async function readProfileImage(
  db: Db,
  id: string,
  publicOnly: boolean,
  viewer: { userId: string; role: Role } | null,
  awaitProcessed?: AwaitProcessed,
) {
  const row = await findFile(db, 'profile_image', id, publicOnly, awaitProcessed);
  if (!(await shownTo(db, row.userId, 'public_photo', viewer, true)))
    throw new NotFoundError(NOT_FOUND_MESSAGE.profile_image, 'FILE_NOT_FOUND');
  return row;
}

// Smaller copies by content hash and size: a scanner team downloading the roster asks for
// the same few hundred images many times on event morning, and a resize costs far more
// than a lookup.
const RESIZED_CACHE_MAX = 2000;
const resized = new Map<string, Buffer>();

/**
 * A square JPEG of a profile image at one of PROFILE_IMAGE_SIZES (never enlarged). Kept
 * per process by content hash: a hash names the same bytes on every instance, so nothing
 * here can go stale.
 */
export async function resizedProfileImage(
  db: Db,
  store: FileStore,
  file: StoredFile,
  size: ProfileImageSize,
): Promise<Buffer> {
  const key = `${file.sha256}-${size}`;
  const hit = resized.get(key);
  if (hit) return hit;
  const bytes = await openFile(db, store, file);
  const sharp = await loadSharp();
  const image = sharp(Buffer.isBuffer(bytes) ? bytes : await streamBytes(bytes));
  const { width = 1, height = 1 } = await image.metadata();
  // Square at the shorter side when that is smaller than the copy: cropped, not blown up.
  const edge = Math.min(PROFILE_IMAGE_SIZES[size], width, height);
  const out = await image
    .resize(edge, edge, { fit: 'cover' })
    .jpeg({ quality: size === 'thumb' ? 70 : 75, mozjpeg: true })
    .toBuffer();
  if (resized.size >= RESIZED_CACHE_MAX) {
    const oldest = resized.keys().next().value;
    if (oldest !== undefined) resized.delete(oldest);
  }
  resized.set(key, out);
  return out;
}
