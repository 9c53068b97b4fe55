// Making the next edition current (DESIGN.md §9), in one transaction:
//
// 1. every rider's entry in the outgoing edition keeps its result (the course state and
//    elapsed time at that moment) and the kit name and motorcycle it was ridden with (they are
//    the person's while an edition runs). Everything else of the entry already carries its
//    edition and simply stays: the entry itself, its verification history, kit, stickers, and
//    the event day (stations, course rules and decisions, scans, incidents, SOS marks);
// 2. a staff account's own verification record (it is no entry) is copied into the new
//    edition. Receipts are kept, superseded. Escalations still due stop;
// 3. the new edition gets the stations and course rules of the edition it was copied from
//    (the same ids, reopened), none without one;
// 4. the new edition is made current and the outgoing one closed (read-only from then on).
import { RIDER_ROLES } from '@rally/shared/catalog/accounts';
import { and, eq, getTableColumns, inArray, isNull, notInArray, type SQL, sql } from 'drizzle-orm';
import type { PgTable } from 'drizzle-orm/pg-core';
import type { Db, Tx } from '../../db/client';
import { activities } from '../../db/schema/activities';
import { courseRules } from '../../db/schema/course';
import { type EditionRow, editions } from '../../db/schema/editions';
import { entries } from '../../db/schema/entries';
import { stations } from '../../db/schema/event-day';
import { files } from '../../db/schema/files';
import { incidentEscalations } from '../../db/schema/messages';
import { users } from '../../db/schema/users';
import type { Actor } from '../../lib/actor';
import { inEdition } from '../../lib/edition-of';
import { ConflictError } from '../../lib/errors';
import { recordActivity } from '../activities/activities.service';
import { listCourseStates } from '../course/course.service';
import { findEdition } from '../editions/editions.service';

export interface Rollover {
  edition: EditionRow;
  archived: { editionId: string; entries: number };
}

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

    const kept = await keepResults(tx, out.id, now);
    await openEdition(tx, out.id, next.id, now);
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
      details: `${out.name}: ${kept} ${kept === 1 ? 'entry' : 'entries'} kept as history`,
      metadata: { from: out.id, to: edition.id, entries: kept },
    });
    return { edition, archived: { editionId: out.id, entries: kept } };
  });
}

/** Step 1: each rider's entry keeps where the course left them, and what they rode as. */
async function keepResults(tx: Tx, editionId: string, now: Date): Promise<number> {
  const riders = await tx
    .select({
      id: entries.id,
      userId: entries.userId,
      status: entries.status,
      kitName: users.kitName,
      motorcycleModel: users.motorcycleModel,
    })
    .from(entries)
    .innerJoin(users, eq(users.id, entries.userId))
    .where(and(inEdition(entries.editionId, editionId), inArray(users.role, [...RIDER_ROLES])));
  if (riders.length === 0) return 0;
  const states = new Map((await listCourseStates(tx, { now })).map((s) => [s.riderId, s]));
  const kept = riders.map((r) => {
    const state = r.status === 'verified' ? states.get(r.userId) : undefined;
    return {
      id: r.id,
      kitName: r.kitName,
      motorcycleModel: r.motorcycleModel,
      resultState: state?.state ?? null,
      finishedAt: state?.finishedAt?.toISOString() ?? null,
      elapsedMs: state?.elapsedMs ?? null,
    };
  });
  // One statement per slice of riders: the results travel as JSON (parameters are limited to 65,535).
  for (let i = 0; i < kept.length; i += 2000)
    await tx.execute(sql`update ${entries} e set
        kit_name = k.kit_name, motorcycle_model = k.motorcycle_model, result_state = k.result_state,
        finished_at = k.finished_at, elapsed_ms = k.elapsed_ms
      from jsonb_to_recordset(${JSON.stringify(
        kept.slice(i, i + 2000).map((k) => ({
          id: k.id,
          kit_name: k.kitName,
          motorcycle_model: k.motorcycleModel,
          result_state: k.resultState,
          finished_at: k.finishedAt,
          elapsed_ms: k.elapsedMs,
        })),
      )}::jsonb) as k(id uuid, kit_name text, motorcycle_model text, result_state text, finished_at timestamptz, elapsed_ms integer)
      where e.id = k.id`);
  return kept.length;
}

/** Step 2: the new edition starts with no entry but the staff's own records. */
async function openEdition(tx: Tx, editionId: string, nextId: string, now: Date): Promise<void> {
  await tx.delete(incidentEscalations);
  const riders = tx
    .select({ id: users.id })
    .from(users)
    .where(inArray(users.role, [...RIDER_ROLES]));
  const staff = tx
    .select({ id: users.id })
    .from(users)
    .where(notInArray(users.role, [...RIDER_ROLES]));
  await copyToEdition(tx, entries, entries.editionId, editionId, nextId, {
    id: sql`gen_random_uuid()`,
    where: sql`${entries.userId} in (${staff})`,
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
}

/** Step 3: the new edition's stations and course rules: those of the edition it was copied from. */
async function setUpCourse(tx: Tx, next: EditionRow): Promise<void> {
  if (!next.copiedFrom) return;
  await copyToEdition(tx, stations, stations.editionId, next.copiedFrom, next.id, { closed: sql`false` });
  await copyToEdition(tx, courseRules, courseRules.editionId, next.copiedFrom, next.id);
}

/** Inserts `table`'s rows of edition `from` (those `where` picks) again as edition `to`'s, with `set` overriding columns. */
async function copyToEdition(
  tx: Tx,
  table: PgTable,
  editionColumn: typeof stations.editionId | typeof courseRules.editionId | typeof entries.editionId,
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
