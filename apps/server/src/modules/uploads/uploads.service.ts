import { can } from '@rally/shared/permissions';
import { and, eq, or } from 'drizzle-orm';
import sharp from 'sharp';
import type { Db } from '../../db/client';
import { files } from '../../db/schema/files';
import { users } from '../../db/schema/users';
import { verifications } from '../../db/schema/verifications';
import type { AuthContext } from '../../lib/authorize';
import { ConflictError, NotFoundError } from '../../lib/errors';
import { bytesColumn, bytesFrom, bytesParam } from '../../lib/file-bytes';
import type { FileKind, ProcessedFile } from '../../lib/files';
import { onlyRow } from '../../lib/sql-text';
import { canSee } from '../../lib/visibility';
import { recordActivity } from '../activities/activities.service';

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
    .select({ status: verifications.status })
    .from(verifications)
    .where(eq(verifications.userId, userId));
  return row?.status ?? null;
}

/** Stores a new file of a kind for a user, replacing the previous one. */
export async function saveUserFile(db: Db, userId: string, file: ProcessedFile) {
  if (file.kind === 'payment_receipt' && (await verificationStatus(db, userId)) === 'verified') {
    throw new ConflictError(
      'Your payment is already verified; the receipt can no longer be changed.',
      'ALREADY_VERIFIED',
    );
  }
  return db.transaction(async (tx) => {
    await tx.delete(files).where(and(eq(files.userId, userId), eq(files.kind, file.kind)));
    const row = onlyRow(
      await tx
        .insert(files)
        .values({
          userId,
          kind: file.kind,
          mimeType: file.mimeType,
          sizeBytes: file.sizeBytes,
          width: file.width,
          height: file.height,
          sha256: file.sha256,
          originalName: file.originalName,
          data: bytesParam(file.data),
        })
        .returning(fileMeta),
    );
    await recordActivity(tx, {
      type: 'file_uploaded',
      priority: 'low',
      userId,
      description: file.kind === 'profile_image' ? 'Profile image uploaded' : 'Payment receipt uploaded',
      metadata: { fileId: row.id, mimeType: file.mimeType, sizeBytes: file.sizeBytes },
    });
    return row;
  });
}

export async function deleteUserFile(db: Db, userId: string, kind: FileKind, fileId: string) {
  if (kind === 'payment_receipt' && (await verificationStatus(db, userId)) === 'verified') {
    throw new ConflictError(
      'Your payment is already verified; the receipt can no longer be removed.',
      'ALREADY_VERIFIED',
    );
  }
  const deleted = await db.transaction(async (tx) => {
    const rows = await tx
      .delete(files)
      .where(and(eq(files.id, fileId), eq(files.userId, userId), eq(files.kind, kind)))
      .returning({ id: files.id });
    if (rows.length > 0) {
      await recordActivity(tx, {
        type: 'file_deleted',
        priority: 'low',
        userId,
        description: kind === 'profile_image' ? 'Profile image removed' : 'Payment receipt removed',
      });
    }
    return rows.length;
  });
  // Someone else's file id answers exactly like a missing one.
  if (deleted === 0) throw new NotFoundError(NOT_FOUND_MESSAGE[kind], 'FILE_NOT_FOUND');
}

export async function listUserFiles(db: Db, userId: string) {
  return db.select(fileMeta).from(files).where(eq(files.userId, userId));
}

/**
 * A file of a kind addressed by the owner's user id (as the console and profile pages
 * do) or by the file's own id (as the user-files listing gives it).
 */
async function findFile(db: Db, kind: FileKind, id: string, activeOwnerOnly: boolean) {
  const [row] = await db
    .select({
      userId: files.userId,
      mimeType: files.mimeType,
      sha256: files.sha256,
      data: bytesColumn(files.data),
      status: users.status,
      role: users.role,
    })
    .from(files)
    .innerJoin(users, eq(users.id, files.userId))
    .where(and(eq(files.kind, kind), or(eq(files.userId, id), eq(files.id, id))))
    .limit(1);
  if (!row || (activeOwnerOnly && row.status !== 'active')) {
    throw new NotFoundError(NOT_FOUND_MESSAGE[kind], 'FILE_NOT_FOUND');
  }
  return { ...row, data: bytesFrom(row.data) };
}

/**
 * A receipt is readable by its owner, and by staff holding verify_users who may see the
 * owner's account (lib/visibility.ts).
 */
export async function readReceipt(db: Db, viewer: AuthContext, id: string) {
  const row = await findFile(db, 'payment_receipt', id, false);
  if (row.userId !== viewer.userId && !(can(viewer.role, 'verify_users') && canSee(viewer.role, row.role))) {
    // Not revealing whether another rider has a receipt at all.
    throw new NotFoundError(NOT_FOUND_MESSAGE.payment_receipt, 'FILE_NOT_FOUND');
  }
  return row;
}

export function readProfileImage(db: Db, id: string, publicOnly: boolean) {
  return findFile(db, 'profile_image', id, publicOnly);
}

// Thumbnails by content hash: a scanner team downloading the roster asks for the same few
// hundred images many times on event morning, and a resize costs far more than a lookup.
const THUMB_SIZE = 128;
const THUMB_CACHE_MAX = 2000;
const thumbs = new Map<string, Buffer>();

/** A small square JPEG of a profile image (the scanner's offline roster photo). */
export async function thumbnailOf(file: { sha256: string; data: Buffer }): Promise<Buffer> {
  const hit = thumbs.get(file.sha256);
  if (hit) return hit;
  const out = await sharp(file.data)
    .resize(THUMB_SIZE, THUMB_SIZE, { fit: 'cover' })
    .jpeg({ quality: 70, mozjpeg: true })
    .toBuffer();
  if (thumbs.size >= THUMB_CACHE_MAX) {
    const oldest = thumbs.keys().next().value;
    if (oldest !== undefined) thumbs.delete(oldest);
  }
  thumbs.set(file.sha256, out);
  return out;
}
