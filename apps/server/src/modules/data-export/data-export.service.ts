// A rider's data, on request (DESIGN.md §12): asking for an export, reading its state, and
// handing over its ZIP, to its owner (the rider's own) or to staff with delete_user (one
// made for a request that came by letter). The ZIP itself is built by data-export-job.ts.
import { DATA_EXPORT_DAYS } from '@rally/shared/catalog/privacy';
import { and, desc, eq, gt, isNotNull, isNull, or, sql } from 'drizzle-orm';
import { strFromU8, unzipSync } from 'fflate';
import type { Db } from '../../db/client';
import { dataExports } from '../../db/schema/privacy';
import { users } from '../../db/schema/users';
import type { Actor } from '../../lib/actor';
import { AppError, ConflictError, NotFoundError } from '../../lib/errors';
import { bytesColumn, bytesFrom } from '../../lib/file-bytes';
import { rowsOf } from '../../lib/sql-text';
import { canSee } from '../../lib/visibility';
import { recordActivity } from '../activities/activities.service';
import { type AccessReader, recordAccess } from '../data-access/data-access.service';
import { sensitiveReadsIn } from '../data-access/sensitive-reads';

const DAY_MS = 24 * 3_600_000;

/** An export past its seven days: its ZIP is gone (the row goes at the job's next tick). */
export class ExportGoneError extends AppError {
  constructor() {
    super(
      410,
      `This export has expired: exports are offered for ${DATA_EXPORT_DAYS} days. Ask for a new one.`,
      'EXPORT_EXPIRED',
    );
  }
}

const NOT_FOUND = 'No such data export';

export const exportColumns = {
  id: dataExports.id,
  userId: dataExports.userId,
  requestedBy: dataExports.requestedBy,
  status: dataExports.status,
  bytes: dataExports.bytes,
  error: dataExports.error,
  createdAt: dataExports.createdAt,
  readyAt: dataExports.readyAt,
  expiresAt: dataExports.expiresAt,
};

export type ExportRow = {
  id: string;
  userId: string;
  requestedBy: string | null;
  status: string;
  bytes: number | null;
  error: string | null;
  createdAt: Date;
  readyAt: Date | null;
  expiresAt: Date;
};

/** Whose exports a reader deals with: the rider's own requests, or those staff made for letters. */
const madeBy = (byStaff: boolean) => (byStaff ? isNotNull(dataExports.requestedBy) : isNull(dataExports.requestedBy));

/**
 * A new export of `userId`'s data, or the one already waiting or offered (of the same kind:
 * the rider's own, or a staff member's for a letter): asking twice builds nothing twice.
 */
export async function requestExport(
  db: Db,
  userId: string,
  /** The staff member preparing it for a letter; null: the rider asked. */
  requestedBy: Actor | null,
  now: Date,
): Promise<{ row: ExportRow; existing: boolean }> {
  return db.transaction(async (tx) => {
    // Two taps at once: the second waits here and finds the first's row.
    const [user] = rowsOf<{ id: string; name: string }>(
      await tx.execute(
        sql`select id, trim(coalesce(first_name, '') || ' ' || coalesce(last_name, '')) as name from users where id = ${userId} for update`,
      ),
    );
    if (!user) throw new NotFoundError('User not found', 'USER_NOT_FOUND');
    const [open] = await tx
      .select(exportColumns)
      .from(dataExports)
      .where(
        and(
          eq(dataExports.userId, userId),
          madeBy(requestedBy !== null),
          or(eq(dataExports.status, 'pending'), and(eq(dataExports.status, 'ready'), gt(dataExports.expiresAt, now))),
        ),
      )
      .orderBy(desc(dataExports.createdAt))
      .limit(1);
    if (open) return { row: open, existing: true };
    const [row] = await tx
      .insert(dataExports)
      .values({
        userId,
        requestedBy: requestedBy?.id ?? null,
        status: 'pending',
        createdAt: now,
        // Until it is built; the build sets the seven days from then.
        expiresAt: new Date(now.getTime() + DATA_EXPORT_DAYS * DAY_MS),
      })
      .returning(exportColumns);
    if (!row) throw new Error('the export was not recorded');
    // A letter's answer is the staff's act on the rider's data: on the log, as a deletion is.
    if (requestedBy)
      await recordActivity(tx, {
        type: 'data_export_prepared',
        userId,
        userName: user.name || null,
        actorId: requestedBy.id,
        actorName: requestedBy.name,
        description: `${requestedBy.name} prepared ${user.name || 'a rider'}’s data for a request by letter`,
        metadata: { dataExportId: row.id },
      });
    return { row, existing: false };
  });
}

/** The rider's own exports still offered (or being prepared), latest first. */
export function myExports(db: Db, userId: string, now: Date) {
  return db
    .select(exportColumns)
    .from(dataExports)
    .where(and(eq(dataExports.userId, userId), madeBy(false), gt(dataExports.expiresAt, now)))
    .orderBy(desc(dataExports.createdAt), desc(dataExports.id));
}

function offered(row: ExportRow | undefined, now: Date): ExportRow {
  if (!row) throw new NotFoundError(NOT_FOUND, 'EXPORT_NOT_FOUND');
  if (row.expiresAt <= now) throw new ExportGoneError();
  return row;
}

/** One of the rider's own exports; someone else's answers exactly like a missing one. */
export async function myExport(db: Db, userId: string, id: string, now: Date): Promise<ExportRow> {
  const [row] = await db
    .select(exportColumns)
    .from(dataExports)
    .where(and(eq(dataExports.id, id), eq(dataExports.userId, userId), madeBy(false)));
  return offered(row, now);
}

/**
 * Staff with delete_user: any letter export of an account they may see (lib/visibility.ts),
 * whoever on the staff made it: letters are answered by whoever is on duty, and every
 * download is logged under the downloader's name.
 */
export async function letterExport(db: Db, viewerRole: string, id: string, now: Date) {
  const [row] = await db
    .select({
      ...exportColumns,
      role: users.role,
      firstName: users.firstName,
      lastName: users.lastName,
      email: users.email,
    })
    .from(dataExports)
    .innerJoin(users, eq(users.id, dataExports.userId))
    .where(and(eq(dataExports.id, id), madeBy(true)));
  if (row && !canSee(viewerRole, row.role)) throw new NotFoundError(NOT_FOUND, 'EXPORT_NOT_FOUND');
  const { role: _role, firstName, lastName, email, ...rest } = offered(row, now) as NonNullable<typeof row>;
  return { ...rest, firstName, lastName, email };
}

/** The account a staff member prepares a letter export for, if they may see it. */
export async function letterSubject(db: Db, viewerRole: string, userId: string) {
  const [user] = await db
    .select({
      id: users.id,
      role: users.role,
      firstName: users.firstName,
      lastName: users.lastName,
      email: users.email,
    })
    .from(users)
    .where(eq(users.id, userId));
  if (!user || !canSee(viewerRole, user.role)) throw new NotFoundError('User not found', 'USER_NOT_FOUND');
  return user;
}

/** The ZIP of an export that is ready (409 while it is being prepared or after a failure). */
export async function zipOf(db: Db, row: ExportRow): Promise<Buffer> {
  if (row.status !== 'ready')
    throw new ConflictError(
      row.status === 'pending'
        ? 'Your data is still being prepared. Try again in a moment.'
        : 'This export could not be prepared. Ask for a new one.',
      row.status === 'pending' ? 'EXPORT_PENDING' : 'EXPORT_FAILED',
    );
  const [zip] = await db
    .select({ data: bytesColumn(dataExports.zip) })
    .from(dataExports)
    .where(eq(dataExports.id, row.id));
  if (!zip?.data) throw new NotFoundError(NOT_FOUND, 'EXPORT_NOT_FOUND');
  return bytesFrom(zip.data);
}

/**
 * Who looked (DESIGN.md §12): a staff member downloading a rider's ZIP reads everything
 * sensitive in it. The kinds are read from the ZIP's JSON files, as from any staff answer,
 * and only the rider's (the ZIP names no one else's sensitive fields).
 */
export async function recordLetterRead(db: Db, reader: AccessReader, row: ExportRow, zip: Buffer) {
  const files = unzipSync(new Uint8Array(zip), { filter: (f) => f.name.endsWith('.json') });
  const parsed = Object.values(files).map((bytes) => JSON.parse(strFromU8(bytes)) as unknown);
  const reads = sensitiveReadsIn(parsed);
  const kinds = reads.byRider.get(row.userId);
  if (!kinds) return 0;
  return recordAccess(db, reader, `data export ${row.id}`, {
    byRider: new Map([[row.userId, kinds]]),
    unnamed: new Set(),
  });
}
