// Kit hand-over for verified riders. A kit_tracking row appears on the first write for a
// rider (upsert); reads left-join it, so a rider without one has nothing handed over yet.
// Every edition's verifications and kits sit side by side (DESIGN.md §9): each query names
// its edition (the current one, or the past one a staff read passes as `edition`), so a
// rider's kit from last year is neither shown nor changed this year.
import { KIT_ITEM_LABELS, type KitItem } from '@rally/shared/catalog/console';
import {
  KIT_ALL_GIVEN,
  type KitBulkItem,
  type KitGivenField,
  type KitListQuery,
  kitBulkItem,
} from '@rally/shared/contracts/kit-tracking';
import { and, asc, desc, eq, inArray, or, type SQL, sql } from 'drizzle-orm';
import { alias } from 'drizzle-orm/pg-core';
import type { Db, DbOrTx, Tx } from '../../db/client';
import { entries } from '../../db/schema/entries';
import { kitTracking } from '../../db/schema/kit';
import { users } from '../../db/schema/users';
import type { Actor } from '../../lib/actor';
import { type EditionRead, inEdition } from '../../lib/edition-of';
import { BadRequestError, ConflictError, NotFoundError } from '../../lib/errors';
import { pageOf, totalRows } from '../../lib/pagination';
import { entryIn, isVerifiedRider, ownEntry } from '../../lib/riders';
import { containsPattern, displayName, onlyRow } from '../../lib/sql-text';
import { recordActivity } from '../activities/activities.service';

// Kits, stickers and payments belong to riders (isVerifiedRider). Staff accounts are
// created verified by operators, but they neither pay nor collect a kit, so they stay
// out of these lists.

const verifier = alias(users, 'verifier');

// The rider's kit of `edition` (the current one when undefined), so last year's hand-over is not this year's.
const kitOfRiderIn = (edition?: EditionRead) =>
  and(eq(kitTracking.userId, users.id), inEdition(kitTracking.editionId, edition));

const kitComplete = sql<boolean>`(coalesce(${kitTracking.tshirtGiven}, false) and coalesce(${kitTracking.vestGiven}, false) and coalesce(${kitTracking.finisherSleeveGiven}, false))`;

const participantColumns = {
  userId: users.id,
  kitName: users.kitName,
  firstName: users.firstName,
  lastName: users.lastName,
  email: users.email,
  phoneNumber: users.phoneNumber,
  riderNumber: entries.riderNumber,
  category: entries.category,
  paymentAmount: entries.paymentAmount,
  clubName: users.clubName,
  tshirtSize: entries.tshirtSize,
  customTshirtSize: entries.customTshirtSize,
  vestSize: entries.vestSize,
  customVestSize: entries.customVestSize,
  finisherSleeveSize: entries.finisherSleeveSize,
  customFinisherSleeveSize: entries.customFinisherSleeveSize,
  tshirtGiven: kitTracking.tshirtGiven,
  tshirtGivenAt: kitTracking.tshirtGivenAt,
  vestGiven: kitTracking.vestGiven,
  vestGivenAt: kitTracking.vestGivenAt,
  finisherSleeveGiven: kitTracking.finisherSleeveGiven,
  finisherSleeveGivenAt: kitTracking.finisherSleeveGivenAt,
  notes: kitTracking.notes,
  kitUpdatedAt: kitTracking.updatedAt,
  verifiedAt: entries.verifiedAt,
  verifierFirstName: verifier.firstName,
  verifierLastName: verifier.lastName,
};

/** The riders with their entry and kit in `edition` (the current one when undefined). */
function participantQuery<Extra extends Record<string, SQL.Aliased | SQL>>(
  db: DbOrTx,
  extra?: Extra,
  edition?: EditionRead,
) {
  return db
    .select({ ...participantColumns, ...(extra as Extra) })
    .from(users)
    .innerJoin(entries, entryIn(edition))
    .leftJoin(kitTracking, kitOfRiderIn(edition))
    .leftJoin(verifier, eq(verifier.id, entries.verifiedBy));
}

export type ParticipantRow = Awaited<ReturnType<ReturnType<typeof participantQuery>['execute']>>[number];

function searchCondition(search: string | undefined): SQL | undefined {
  if (!search) return undefined;
  const p = containsPattern(search);
  return or(
    sql`${users.firstName} ilike ${p}`,
    sql`${users.lastName} ilike ${p}`,
    sql`(${users.firstName} || ' ' || ${users.lastName}) ilike ${p}`,
    sql`${users.kitName} ilike ${p}`,
    sql`${users.email} ilike ${p}`,
    sql`${entries.riderNumber}::text ilike ${p}`,
  );
}

function orderFor(query: KitListQuery): SQL[] {
  const dir = query.sort_order === 'asc' ? 'asc' : 'desc';
  const by = (expr: SQL) => (dir === 'asc' ? sql`${expr} asc nulls last` : sql`${expr} desc nulls last`);
  const tie = dir === 'asc' ? asc(users.id) : desc(users.id);
  switch (query.sort_by) {
    case 'name':
      return [by(sql`lower(${users.firstName} || ' ' || ${users.lastName})`), tie];
    case 'rider_number':
      return [by(sql`${entries.riderNumber}`), tie];
    case 'payment_amount':
      return [by(sql`${entries.paymentAmount}`), tie];
    default:
      return [by(sql`${entries.verifiedAt}`), tie];
  }
}

/** A page of the verified riders of `edition` (the current one when undefined) and their kits. */
export async function listParticipants(db: Db, query: KitListQuery, edition?: EditionRead) {
  const filter =
    query.filter_status === 'completed'
      ? kitComplete
      : query.filter_status === 'pending'
        ? sql`not ${kitComplete}`
        : undefined;
  const where = and(isVerifiedRider, searchCondition(query.search), filter);
  const [{ rows, total }, stats] = await Promise.all([
    pageOf(
      (limit, offset) =>
        participantQuery(db, { total: totalRows }, edition)
          .where(where)
          .orderBy(...orderFor(query))
          .limit(limit)
          .offset(offset),
      query,
    ),
    kitStats(db, edition),
  ]);
  return { rows, total, stats };
}

/** Totals over every verified rider of `edition` (the current one when undefined), whatever the list's search and filter. */
export async function kitStats(db: DbOrTx, edition?: EditionRead) {
  const row = onlyRow(
    await db
      .select({
        total: sql<number>`count(*)::int`,
        completed: sql<number>`(count(*) filter (where ${kitComplete}))::int`,
        // The entry's amount is both what was owed at registration and what was paid for it.
        expected: sql<number>`coalesce(sum(${entries.paymentAmount}), 0)::int`,
        actual: sql<number>`coalesce(sum(${entries.paymentAmount}), 0)::int`,
        tshirts: sql<number>`(count(*) filter (where ${kitTracking.tshirtGiven}))::int`,
        vests: sql<number>`(count(*) filter (where ${kitTracking.vestGiven}))::int`,
        sleeves: sql<number>`(count(*) filter (where ${kitTracking.finisherSleeveGiven}))::int`,
      })
      .from(users)
      .innerJoin(entries, entryIn(edition))
      .leftJoin(kitTracking, kitOfRiderIn(edition))
      .where(isVerifiedRider),
  );
  return {
    total: row.total,
    pendingKits: row.total - row.completed,
    completedKits: row.completed,
    totalAmount: row.expected,
    actualPayments: row.actual,
    itemsGiven: { tshirts: row.tshirts, vests: row.vests, sleeves: row.sleeves },
  };
}

export async function participantsByIds(db: DbOrTx, ids: string[], edition?: EditionRead): Promise<ParticipantRow[]> {
  if (ids.length === 0) return [];
  return participantQuery(db, undefined, edition).where(and(isVerifiedRider, inArray(users.id, ids)));
}

/** 404 for no such account, 409 for an account that is not (yet) a verified rider. */
async function missingRiderError(db: DbOrTx, userId: string, label: string): Promise<Error> {
  const [user] = await db.select({ id: users.id }).from(users).where(eq(users.id, userId)).limit(1);
  if (!user) return new NotFoundError(`${label}Participant not found`, 'PARTICIPANT_NOT_FOUND');
  return new ConflictError(
    `${label}Kits are tracked for verified riders only; this account is not a verified rider`,
    'NOT_A_VERIFIED_RIDER',
  );
}

const GIVEN_ITEMS: ReadonlyArray<{ field: KitGivenField; item: KitItem }> = [
  { field: 'tshirt_given', item: 'tshirt' },
  { field: 'vest_given', item: 'vest' },
  { field: 'finisher_sleeve_given', item: 'finisher_sleeve' },
];

type Change = Omit<KitBulkItem, 'user_id'>;

/**
 * Applies one rider's change inside `tx`: hand-over flags record who and when (cleared
 * when un-given), notes replace the old ones. Unchanged values write nothing and log
 * nothing, so a double click cannot move the hand-over time.
 */
async function applyChange(
  tx: Tx,
  rider: { userId: string; firstName: string; lastName: string },
  change: Change,
  actor: Actor,
  now: Date,
): Promise<void> {
  await tx
    .insert(kitTracking)
    .values({ userId: rider.userId, updatedAt: now, updatedBy: actor.id })
    .onConflictDoNothing({ target: [kitTracking.editionId, kitTracking.userId] });
  const thisRider = and(eq(kitTracking.userId, rider.userId), inEdition(kitTracking.editionId));
  const current = onlyRow(await tx.select().from(kitTracking).where(thisRider).for('update'));
  const patch: Partial<typeof kitTracking.$inferInsert> = {};
  const name = displayName(rider);
  const logs: Array<Parameters<typeof recordActivity>[1]> = [];
  for (const { field, item } of GIVEN_ITEMS) {
    const wanted = change[field];
    if (wanted === undefined) continue;
    const key = item === 'tshirt' ? 'tshirt' : item === 'vest' ? 'vest' : 'finisherSleeve';
    if (current[`${key}Given`] === wanted) continue;
    patch[`${key}Given`] = wanted;
    patch[`${key}GivenAt`] = wanted ? now : null;
    patch[`${key}GivenBy`] = wanted ? actor.id : null;
    const label = KIT_ITEM_LABELS[item];
    logs.push({
      type: 'kit_handover',
      userId: rider.userId,
      userName: name,
      actorId: actor.id,
      actorName: actor.name,
      description: wanted ? `${label} given to ${name}` : `${label} marked as not given for ${name}`,
      details: `By ${actor.name}`,
      metadata: { item, given: wanted },
    });
  }
  if (change.notes !== undefined) {
    const notes = change.notes.trim() === '' ? null : change.notes;
    if ((current.notes ?? null) !== notes) {
      patch.notes = notes;
      logs.push({
        type: 'kit_notes',
        userId: rider.userId,
        userName: name,
        actorId: actor.id,
        actorName: actor.name,
        description: `Kit notes updated for ${name}`,
        details: notes ? notes.slice(0, 200) : 'Notes cleared',
      });
    }
  }
  if (logs.length === 0) return;
  await tx
    .update(kitTracking)
    .set({ ...patch, updatedAt: now, updatedBy: actor.id })
    .where(thisRider);
  for (const entry of logs) await recordActivity(tx, entry);
}

async function riderNames(db: DbOrTx, ids: string[]) {
  return db
    .select({ userId: users.id, firstName: users.firstName, lastName: users.lastName })
    .from(users)
    .innerJoin(entries, ownEntry)
    .where(and(isVerifiedRider, inArray(users.id, ids)));
}

export async function updateKit(db: Db, userId: string, change: Change, actor: Actor, now: Date = new Date()) {
  await db.transaction(async (tx) => {
    const [rider] = await riderNames(tx, [userId]);
    if (!rider) throw await missingRiderError(tx, userId, '');
    await applyChange(tx, rider, change, actor, now);
  });
  const [row] = await participantsByIds(db, [userId]);
  return row;
}

/**
 * "Hand over all": the three items in one tap, from the Kit Tracker or a kit station's
 * scanner. The same change through the same path as ticking the three boxes, so who and
 * when are recorded alike and items already given keep their time.
 */
export function handOverAll(db: Db, userId: string, actor: Actor, now: Date = new Date()) {
  return updateKit(db, userId, { ...KIT_ALL_GIVEN }, actor, now);
}

/** One verified rider's kit state in `edition` (the current one when undefined; 404 / 409 like a write). */
export async function kitOf(db: Db, userId: string, edition?: EditionRead) {
  const [row] = await participantsByIds(db, [userId], edition);
  if (!row) throw await missingRiderError(db, userId, '');
  return row;
}

/** Validates every item first, then applies them all in one transaction, or none. */
export async function bulkUpdateKits(db: Db, rawItems: unknown[], actor: Actor, now: Date = new Date()) {
  const items: KitBulkItem[] = [];
  const seen = new Map<string, number>();
  rawItems.forEach((raw, i) => {
    const parsed = kitBulkItem.safeParse(raw);
    if (!parsed.success) {
      // A failed parse reports at least one issue.
      const issue = parsed.error.issues[0]!;
      const field = issue.path.map(String).join('.') || 'item';
      // The schema's own messages name their field; zod's generic ones get the field added.
      const message = /^Invalid input/.test(issue.message) ? `${field} is invalid` : issue.message;
      throw new BadRequestError(`updates[${i}]: ${message}`, 'BULK_ITEM_INVALID');
    }
    const earlier = seen.get(parsed.data.user_id);
    if (earlier !== undefined) {
      throw new BadRequestError(
        `updates[${i}]: user_id repeats updates[${earlier}]; send one item per rider`,
        'BULK_ITEM_INVALID',
      );
    }
    seen.set(parsed.data.user_id, i);
    items.push(parsed.data);
  });
  const ids = items.map((item) => item.user_id);
  await db.transaction(async (tx) => {
    const riders = new Map((await riderNames(tx, ids)).map((r) => [r.userId, r]));
    for (const [i, item] of items.entries()) {
      if (!riders.has(item.user_id)) throw await missingRiderError(tx, item.user_id, `updates[${i}]: `);
    }
    for (const { user_id, ...change } of items) {
      await applyChange(tx, riders.get(user_id)!, change, actor, now);
    }
  });
  return participantsByIds(db, ids);
}
