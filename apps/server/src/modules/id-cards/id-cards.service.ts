// QR stickers of verified riders: who has one printed, how often, and the data a sticker
// carries. A print is a row of id_card_prints, so the count is the number of rows.
// Every edition's verifications and prints sit side by side (DESIGN.md §9): each query
// names its edition (the current one, or the past one a staff read passes as `edition`), so
// last year's stickers are not counted as this year's.

import { STICKER_SHEET_MAX, type StickerSheetBody } from '@rally/shared/contracts/exports';
import type { IdCardSearchQuery, MedicalInfoBody } from '@rally/shared/contracts/id-cards';
import { and, asc, eq, inArray, isNotNull, isNull, or, type SQL, sql } from 'drizzle-orm';
import type { Db, DbOrTx } from '../../db/client';
import { entries } from '../../db/schema/entries';
import { idCardPrints } from '../../db/schema/kit';
import { users } from '../../db/schema/users';
import type { Actor } from '../../lib/actor';
import { type EditionRead, inEdition } from '../../lib/edition-of';
import { BadRequestError, ConflictError, NotFoundError } from '../../lib/errors';
import { pageOf, totalRows } from '../../lib/pagination';
import { codedRiderColumns, entryIn, isVerifiedRider, ownEntry } from '../../lib/riders';
import { containsPattern, displayName, onlyRow } from '../../lib/sql-text';
import { visibleAccounts, visibleOrNotFound } from '../../lib/visibility';
import { recordActivity } from '../activities/activities.service';
import { STICKERS_PER_PAGE, stickerSheetPdf } from './sticker-sheet';

/** Per-rider print totals of `edition` (the current one when undefined), joined to the riders. */
function printTotals(db: DbOrTx, edition?: EditionRead) {
  return db
    .select({
      userId: idCardPrints.userId,
      count: sql<number>`count(*)::int`.as('print_count'),
      lastAt: sql<Date>`max(${idCardPrints.printedAt})`.as('last_printed_at'),
    })
    .from(idCardPrints)
    .where(inEdition(idCardPrints.editionId, edition))
    .groupBy(idCardPrints.userId)
    .as('prints');
}

function cardColumns(prints: ReturnType<typeof printTotals>) {
  return {
    id: users.id,
    firstName: users.firstName,
    lastName: users.lastName,
    kitName: users.kitName,
    email: users.email,
    phoneNumber: users.phoneNumber,
    category: entries.category,
    riderNumber: entries.riderNumber,
    printCount: sql<number>`coalesce(${prints.count}, 0)::int`,
    printedAt: prints.lastAt,
  };
}

function searchCondition(search: string | undefined): SQL | undefined {
  if (!search) return undefined;
  const p = containsPattern(search);
  return or(
    sql`(${users.firstName} || ' ' || ${users.lastName}) ilike ${p}`,
    sql`${users.kitName} ilike ${p}`,
    sql`${users.email} ilike ${p}`,
    sql`${entries.riderNumber}::text ilike ${p}`,
  );
}

/** The verified riders of `edition` (the current one when undefined) and their prints in it, a page. */
export async function searchCards(db: Db, query: IdCardSearchQuery, edition?: EditionRead) {
  const prints = printTotals(db, edition);
  const printed =
    query.isPrinted === 'true'
      ? sql`${prints.count} > 0`
      : query.isPrinted === 'false'
        ? sql`${prints.count} is null`
        : undefined;
  const where = and(isVerifiedRider, searchCondition(query.search), printed);
  return pageOf(
    (limit, offset) =>
      db
        .select({ ...cardColumns(prints), total: totalRows })
        .from(users)
        .innerJoin(entries, entryIn(edition))
        .leftJoin(prints, eq(prints.userId, users.id))
        .where(where)
        .orderBy(sql`${entries.riderNumber} asc nulls last`, asc(users.lastName), asc(users.firstName), asc(users.id))
        .limit(limit)
        .offset(offset),
    query,
  );
}

export type CardRow = Omit<Awaited<ReturnType<typeof searchCards>>['rows'][number], 'total'>;

/**
 * The account behind a sticker, with its entry and prints in `edition` (the current one when
 * undefined), as the viewer may see it: hidden accounts are "not found", exactly like missing ones.
 */
async function visibleUser(db: DbOrTx, userId: string, viewerRole: string, edition?: EditionRead) {
  const prints = printTotals(db, edition);
  const [row] = await db
    .select({
      ...cardColumns(prints),
      role: users.role,
      riderCode: entries.riderCode,
      motorcycleModel: users.motorcycleModel,
      emergencyContactName: users.emergencyContactName,
      emergencyContactNumber: users.emergencyContactNumber,
      bloodType: users.bloodType,
      allergies: users.allergies,
      medicalConditions: users.medicalConditions,
      verificationStatus: entries.status,
    })
    .from(users)
    .leftJoin(entries, entryIn(edition))
    .leftJoin(prints, eq(prints.userId, users.id))
    .where(eq(users.id, userId))
    .limit(1);
  return visibleOrNotFound(viewerRole, row, () => new NotFoundError('User not found', 'USER_NOT_FOUND'));
}

/**
 * A sticker needs a rider code, and a rider code is issued when the rider is verified (in
 * `edition`, the current one when undefined).
 */
export async function cardDetail(db: DbOrTx, userId: string, viewerRole: string, edition?: EditionRead) {
  const row = await visibleUser(db, userId, viewerRole, edition);
  if (row.verificationStatus !== 'verified') {
    throw new ConflictError(
      'This rider is not verified yet. A QR sticker is available once the payment is verified.',
      'NOT_VERIFIED',
    );
  }
  if (!row.riderCode) {
    throw new ConflictError(
      'This rider has no rider code yet, so there is nothing to put on a QR sticker.',
      'NO_RIDER_CODE',
    );
  }
  return { ...row, riderCode: row.riderCode };
}

export type CardDetailRow = Awaited<ReturnType<typeof cardDetail>>;

export async function markPrinted(
  db: Db,
  userId: string,
  notes: string | null | undefined,
  actor: Actor & { role: string },
  now: Date = new Date(),
) {
  return db.transaction(async (tx) => {
    const rider = await cardDetail(tx, userId, actor.role);
    await tx.insert(idCardPrints).values({ userId, printedBy: actor.id, notes: notes || null, printedAt: now });
    const printCount = rider.printCount + 1;
    await recordActivity(tx, {
      type: 'id_card_printed',
      userId,
      userName: displayName(rider),
      actorId: actor.id,
      actorName: actor.name,
      description:
        printCount > 1
          ? `QR sticker reprinted for ${displayName(rider)} (print #${printCount})`
          : `QR sticker printed for ${displayName(rider)}`,
      details: notes ? `By ${actor.name}: ${notes}` : `By ${actor.name}`,
    });
    const { count } = onlyRow(
      await tx
        .select({ count: sql<number>`count(*)::int` })
        .from(idCardPrints)
        .where(and(eq(idCardPrints.userId, userId), inEdition(idCardPrints.editionId))),
    );
    return { id: userId, printCount: count, printedAt: now };
  });
}

export async function updateMedicalInfo(
  db: Db,
  userId: string,
  body: MedicalInfoBody,
  actor: Actor & { role: string },
  now: Date = new Date(),
) {
  const clean = (v: string | null | undefined) =>
    v === undefined ? undefined : v === null || v.trim() === '' ? null : v;
  return db.transaction(async (tx) => {
    const user = await visibleUser(tx, userId, actor.role);
    const patch = {
      bloodType: clean(body.blood_type),
      allergies: clean(body.allergies),
      medicalConditions: clean(body.medical_conditions),
    };
    // visibleUser found the row in this transaction, so the update answers it.
    const row = onlyRow(
      await tx
        .update(users)
        .set({ ...patch, updatedAt: now })
        .where(eq(users.id, userId))
        .returning({
          id: users.id,
          bloodType: users.bloodType,
          allergies: users.allergies,
          medicalConditions: users.medicalConditions,
        }),
    );
    const changed = Object.entries({
      blood_type: patch.bloodType,
      allergies: patch.allergies,
      medical_conditions: patch.medicalConditions,
    })
      .filter(([, v]) => v !== undefined)
      .map(([k]) => k);
    await recordActivity(tx, {
      type: 'medical_info_updated',
      userId,
      userName: displayName(user),
      actorId: actor.id,
      actorName: actor.name,
      // Medical details stay out of the log; only which fields changed is recorded.
      description: `Medical information updated for ${displayName(user)}`,
      details: `Fields: ${changed.join(', ')}; by ${actor.name}`,
    });
    return row;
  });
}

/** How many verified riders of `edition` (the current one when undefined) have a sticker printed. */
export async function cardStats(db: Db, edition?: EditionRead) {
  const prints = printTotals(db, edition);
  const row = onlyRow(
    await db
      .select({
        total: sql<number>`count(*)::int`,
        printed: sql<number>`(count(*) filter (where ${prints.count} > 0))::int`,
        prints: sql<number>`coalesce(sum(${prints.count}), 0)::int`,
      })
      .from(users)
      .innerJoin(entries, entryIn(edition))
      .leftJoin(prints, eq(prints.userId, users.id))
      .where(isVerifiedRider),
  );
  return {
    total_users: row.total,
    printed_count: row.printed,
    not_printed_count: row.total - row.printed,
    total_prints: row.prints,
  };
}

const sheetColumns = codedRiderColumns;

/**
 * The riders of a sheet: those named, in that order (each must be visible, verified and
 * have a rider code, else the sheet is refused naming them), or every verified rider never
 * printed, by rider number.
 */
async function sheetRiders(db: Db, selection: StickerSheetBody, viewerRole: string) {
  if (selection.riderIds && selection.riderIds.length > 0) {
    const ids = [...new Set(selection.riderIds)];
    const found = await db
      .select({ ...sheetColumns, role: users.role })
      .from(users)
      .leftJoin(entries, ownEntry)
      .where(and(inArray(users.id, ids), visibleAccounts(viewerRole, users.role)));
    const byId = new Map(found.map((r) => [r.id, r]));
    const named = ids.flatMap((id) => byId.get(id) ?? []);
    if (named.length < ids.length) {
      throw new NotFoundError(`${ids.length - named.length} of the riders asked for were not found.`, 'USER_NOT_FOUND');
    }
    const without = named.filter((r) => r.verificationStatus !== 'verified' || !r.riderCode);
    if (without.length > 0) {
      const names = without.map((r) => (r.riderNumber ? `#${r.riderNumber}` : displayName(r))).join(', ');
      throw new ConflictError(
        `No QR sticker yet for ${names}: a sticker is available once the payment is verified.`,
        'NOT_VERIFIED',
      );
    }
    return named.map((r) => ({ ...r, riderCode: r.riderCode ?? '' }));
  }
  if (selection.allUnprinted) {
    const prints = printTotals(db);
    const rows = await db
      .select(sheetColumns)
      .from(users)
      .innerJoin(entries, ownEntry)
      .leftJoin(prints, eq(prints.userId, users.id))
      .where(and(isVerifiedRider, isNotNull(entries.riderCode), isNull(prints.count)))
      .orderBy(sql`${entries.riderNumber} asc nulls last`, asc(users.lastName), asc(users.firstName), asc(users.id))
      .limit(STICKER_SHEET_MAX);
    if (rows.length === 0) {
      throw new ConflictError('Every verified rider’s sticker has been printed already.', 'NOTHING_TO_PRINT');
    }
    return rows.map((r) => ({ ...r, riderCode: r.riderCode ?? '' }));
  }
  throw new BadRequestError('Name the riders (riderIds) or ask for allUnprinted.', 'VALIDATION');
}

/**
 * A sheet of QR stickers (sticker-sheet.ts) for the riders chosen. Each sticker printed
 * counts as a print of that rider (one id_card_prints row each, noted 'Sticker sheet'),
 * and the sheet is one entry of the activity log naming how many and which numbers.
 */
export async function printStickerSheet(
  db: Db,
  selection: StickerSheetBody,
  actor: Actor & { role: string },
  now: Date = new Date(),
) {
  const riders = await sheetRiders(db, selection, actor.role);
  const stickers = riders.map((r) => ({
    riderCode: r.riderCode,
    riderNumber: r.riderNumber,
    kitName: r.kitName,
    firstName: r.firstName,
    lastName: r.lastName,
  }));
  const pdf = await stickerSheetPdf(stickers, `QR stickers, ${riders.length} riders`);
  await db.transaction(async (tx) => {
    await tx
      .insert(idCardPrints)
      .values(riders.map((r) => ({ userId: r.id, printedBy: actor.id, notes: 'Sticker sheet', printedAt: now })));
    const numbers = riders.map((r) => (r.riderNumber === null ? displayName(r) : `#${r.riderNumber}`));
    await recordActivity(tx, {
      type: 'sticker_sheet_printed',
      actorId: actor.id,
      actorName: actor.name,
      description: `QR sticker sheet printed: ${riders.length} sticker${riders.length === 1 ? '' : 's'}`,
      details: `By ${actor.name}: ${numbers.join(', ')}`.slice(0, 4000),
      metadata: { riderIds: riders.map((r) => r.id), count: riders.length },
    });
  });
  return { pdf, count: riders.length, pages: Math.ceil(riders.length / STICKERS_PER_PAGE) };
}
