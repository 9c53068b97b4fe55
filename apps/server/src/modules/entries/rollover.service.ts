// Making the next edition current (DESIGN.md §9), in one transaction:
//
// 1. every rider's entry in the outgoing edition is summed up in `edition_entries` (number,
//    category, the rider part of the entry, verification, and the result: the course state
//    and elapsed time at that moment);
// 2. the accounts as they are (their entry columns are the outgoing edition's) are kept in
//    `edition_archive_rows` as JSON, so staff read the past edition with `?edition=` through
//    the same handlers (lib/edition-scope.ts). Everything else of the entry carries its
//    edition and simply stays: verifications and their history, kits, stickers, and the
//    event day (stations, course rules and decisions, scans, incidents, SOS marks);
// 3. the accounts keep the person (name, contact, photo, club, medical notes, fires) and lose
//    the entry (number, rider code, category, payment, sizes, kit and bike status). A staff
//    account's own verification record (it is no entry) is copied into the new edition.
//    Receipts are kept, superseded. Escalations still due stop;
// 4. the new edition gets the stations and course rules of the edition it was copied from
//    (the same ids, reopened), none without one;
// 5. the new edition is made current and the outgoing one closed (read-only from then on).
import { RIDER_ROLES } from '@rally/shared/catalog/accounts';
import { and, eq, getTableColumns, getTableName, inArray, isNull, notInArray, type SQL, sql } from 'drizzle-orm';
import type { PgTable } from 'drizzle-orm/pg-core';
import type { Db, Tx } from '../../db/client';
import { activities } from '../../db/schema/activities';
import { courseRules } from '../../db/schema/course';
import { type EditionRow, editionArchiveRows, editionEntries, editions } from '../../db/schema/editions';
import { stations } from '../../db/schema/event-day';
import { files } from '../../db/schema/files';
import { incidentEscalations } from '../../db/schema/messages';
import { users } from '../../db/schema/users';
import { verifications } from '../../db/schema/verifications';
import type { Actor } from '../../lib/actor';
import { inEdition } from '../../lib/edition-of';
import { ARCHIVED_TABLES } from '../../lib/edition-scope';
import { ConflictError } from '../../lib/errors';
import { recordActivity } from '../activities/activities.service';
import { listCourseStates } from '../course/course.service';
import { findEdition } from '../editions/editions.service';

export interface Rollover {
  edition: EditionRow;
  archived: { editionId: string; entries: number; rows: number };
}

/** The rider part of an entry kept for the returning rider's next form (edition_entries.details). */
const ENTRY_DETAILS = {
  paymentMethod: users.paymentMethod,
  paymentAmount: users.paymentAmount,
  tshirtSize: users.tshirtSize,
  customTshirtSize: users.customTshirtSize,
  finisherSleeveSize: users.finisherSleeveSize,
  customFinisherSleeveSize: users.customFinisherSleeveSize,
  vestSize: users.vestSize,
  customVestSize: users.customVestSize,
  emergencyContactName: users.emergencyContactName,
  emergencyContactNumber: users.emergencyContactNumber,
};

/** An account's entry columns as a new edition finds them: no entry. */
const NO_ENTRY = {
  riderNumber: null,
  riderCode: null,
  category: null,
  paymentMethod: null,
  paymentAmount: null,
  tshirtSize: null,
  customTshirtSize: null,
  tshirtSubmittedAt: null,
  finisherSleeveSize: null,
  customFinisherSleeveSize: null,
  vestSize: null,
  customVestSize: null,
  gearSubmittedAt: null,
  bikeCheckStatus: 'Not Started',
  riderKitStatus: 'Preparing',
  checkpoints: 0,
} as const;

export async function makeCurrent(db: Db, id: string, actor: Actor, now: Date): Promise<Rollover> {
  return db.transaction(async (tx) => {
    // One rollover at a time, and no edition edit in between.
    await tx.execute(sql`select id from ${editions} for update`);
    const next = await findEdition(tx, id);
    if (next.current) throw new ConflictError(`${next.name} is already the current edition`, 'EDITION_ALREADY_CURRENT');
    if (next.closedAt)
      throw new ConflictError(
        `${next.name} is a past edition: its history is read-only and it cannot be made current again`,
        'EDITION_PAST',
      );
    const [out] = await tx.select().from(editions).where(eq(editions.current, true)).limit(1);
    if (!out) throw new Error('No current edition: the database was not migrated');

    const entries = await keepEntries(tx, out.id, now);
    const rows = await archiveTables(tx, out.id);
    await clearEntries(tx, out.id, next.id, now);
    await setUpCourse(tx, next);

    await tx.update(editions).set({ current: false, closedAt: now }).where(eq(editions.id, out.id));
    const [edition] = (await tx
      .update(editions)
      .set({ current: true })
      .where(eq(editions.id, next.id))
      .returning()) as [EditionRow];
    await recordActivity(tx, {
      type: 'edition_updated',
      actorId: actor.id,
      actorName: actor.name,
      description: `${actor.name} made ${edition.name} (${edition.year}) the current edition`,
      details: `${out.name}: ${entries} ${entries === 1 ? 'entry' : 'entries'} kept as history`,
      metadata: { from: out.id, to: edition.id, entries, rows },
    });
    return { edition, archived: { editionId: out.id, entries, rows } };
  });
}

/** Step 1: each rider's entry, with where the course left them. */
async function keepEntries(tx: Tx, editionId: string, now: Date): Promise<number> {
  const riders = await tx
    .select({
      userId: users.id,
      entryId: verifications.id,
      riderNumber: users.riderNumber,
      category: users.category,
      kitName: users.kitName,
      motorcycleModel: users.motorcycleModel,
      verificationCode: verifications.verificationCode,
      verificationStatus: verifications.status,
      enteredAt: verifications.createdAt,
      ...ENTRY_DETAILS,
    })
    .from(verifications)
    .innerJoin(users, eq(users.id, verifications.userId))
    .where(and(inEdition(verifications.editionId, editionId), inArray(users.role, [...RIDER_ROLES])));
  if (riders.length === 0) return 0;
  const states = new Map((await listCourseStates(tx, { now })).map((s) => [s.riderId, s]));
  const values = riders.map((r) => {
    const state = r.verificationStatus === 'verified' ? states.get(r.userId) : undefined;
    const details = Object.fromEntries(
      Object.keys(ENTRY_DETAILS).map((k) => [k, r[k as keyof typeof ENTRY_DETAILS] ?? null]),
    ) as Record<string, string | number | null>;
    return {
      editionId,
      userId: r.userId,
      entryId: r.entryId,
      riderNumber: r.riderNumber,
      category: r.category,
      kitName: r.kitName,
      motorcycleModel: r.motorcycleModel,
      details,
      verificationCode: r.verificationCode,
      verificationStatus: r.verificationStatus,
      enteredAt: r.enteredAt,
      resultState: state?.state ?? null,
      finishedAt: state?.finishedAt ?? null,
      elapsedMs: state?.elapsedMs ?? null,
    };
  });
  // In slices: one statement's parameters are limited (65,535).
  for (let i = 0; i < values.length; i += 500) await tx.insert(editionEntries).values(values.slice(i, i + 500));
  return values.length;
}

/** Step 2: the accounts' rows, as JSON (no password hash: it is no history). */
async function archiveTables(tx: Tx, editionId: string): Promise<number> {
  let total = 0;
  for (const table of ARCHIVED_TABLES) {
    const row = table === getTableName(users) ? sql`to_jsonb(t) - 'password_hash'` : sql`to_jsonb(t)`;
    const result = (await tx.execute(
      sql`insert into ${editionArchiveRows} (edition_id, table_name, row)
          select ${editionId}, ${table}, ${row} from ${sql.identifier(table)} t`,
    )) as unknown as { rowCount?: number; affectedRows?: number };
    total += result.rowCount ?? result.affectedRows ?? 0;
  }
  return total;
}

/** Step 3: the accounts hold no entry of the past edition any more. */
async function clearEntries(tx: Tx, editionId: string, nextId: string, now: Date): Promise<void> {
  await tx.delete(incidentEscalations);
  const riders = tx
    .select({ id: users.id })
    .from(users)
    .where(inArray(users.role, [...RIDER_ROLES]));
  const staff = tx
    .select({ id: users.id })
    .from(users)
    .where(notInArray(users.role, [...RIDER_ROLES]));
  await copyToEdition(tx, verifications, verifications.editionId, editionId, nextId, {
    id: sql`gen_random_uuid()`,
    where: sql`${verifications.userId} in (${staff})`,
  });
  await tx
    .update(files)
    .set({ supersededAt: now })
    .where(and(eq(files.kind, 'payment_receipt'), isNull(files.supersededAt), inArray(files.userId, riders)));
  // The log keeps its completions, marked as the outgoing edition's: a rider finishes each
  // day once per edition (activities_rally_completion_once), and profiles read the current's.
  await tx
    .update(activities)
    .set({
      metadata: sql`coalesce(${activities.metadata}, '{}'::jsonb) || jsonb_build_object('edition', ${editionId}::text)`,
    })
    .where(and(eq(activities.type, 'rally_completion'), sql`${activities.metadata}->>'edition' is null`));
  await tx
    .update(users)
    .set({ ...NO_ENTRY, updatedAt: now })
    .where(inArray(users.role, [...RIDER_ROLES]));
}

/** Step 4: the new edition's stations and course rules: those of the edition it was copied from. */
async function setUpCourse(tx: Tx, next: EditionRow): Promise<void> {
  if (!next.copiedFrom) return;
  await copyToEdition(tx, stations, stations.editionId, next.copiedFrom, next.id, { closed: sql`false` });
  await copyToEdition(tx, courseRules, courseRules.editionId, next.copiedFrom, next.id);
}

/** Inserts `table`'s rows of edition `from` (those `where` picks) again as edition `to`'s, with `set` overriding columns. */
async function copyToEdition(
  tx: Tx,
  table: PgTable,
  editionColumn: typeof stations.editionId | typeof courseRules.editionId | typeof verifications.editionId,
  from: string,
  to: string,
  { where, ...set }: Record<string, SQL> = {},
): Promise<void> {
  const columns = Object.entries(getTableColumns(table));
  const values = columns.map(([key, column]) =>
    column === editionColumn ? sql`${to}::uuid` : (set[key] ?? sql`${sql.identifier(column.name)}`),
  );
  await tx.execute(
    sql`insert into ${table} (${sql.join(
      columns.map(([, c]) => sql.identifier(c.name)),
      sql`, `,
    )}) select ${sql.join(values, sql`, `)} from ${table} where ${editionColumn} = ${from}${where ? sql` and ${where}` : sql``}`,
  );
}
