// What expiry does to each kind of an edition (DESIGN.md §12, docs/privacy.md). Counts,
// results and finisher lists stay: entries, their payment and verification, passages and
// incidents as events are kept; what goes is what identifies or describes the person beyond
// what the rally's records need. Each function answers how many records it removed or
// anonymised.
import { and, eq, exists, inArray, isNotNull, notExists, or, type SQL, sql } from 'drizzle-orm';
import type { Db, Tx } from '../../db/client';
import { activities } from '../../db/schema/activities';
import { editions } from '../../db/schema/editions';
import { entries } from '../../db/schema/entries';
import { files } from '../../db/schema/files';
import { incidents, sosAbuseMarks, sosCalls } from '../../db/schema/incidents';
import { outboxMessages } from '../../db/schema/messages';
import { positions, trackers } from '../../db/schema/tracking';
import { users } from '../../db/schema/users';
import type { FileStore } from '../../lib/file-store';
import { rowsOf } from '../../lib/sql-text';

/** Rows deleted per statement: a big edition goes in pieces, no statement holds locks for long. */
const POSITIONS_BATCH = 20_000;
/** Receipt files per transaction: each row may hold megabytes of bytes. */
const RECEIPTS_BATCH = 200;

const REMOVED = '[removed]';

/** The people with an entry in `editionId` and none in an edition still keeping this kind. */
function ridersOnlyIn(editionId: string, keeping: string[]): SQL {
  const entered = exists(
    sql`(select 1 from ${entries} en where en.edition_id = ${editionId}::uuid and en.user_id = ${users.id})`,
  );
  if (keeping.length === 0) return entered;
  const elsewhere = notExists(
    sql`(select 1 from ${entries} en where en.user_id = ${users.id} and en.edition_id in (${sql.join(
      keeping.map((id) => sql`${id}::uuid`),
      sql`, `,
    )}))`,
  );
  return and(entered, elsewhere) as SQL;
}

/**
 * Medical notes live on the person (DESIGN.md §9: kept across editions), so they go from the
 * account of a rider of this edition unless the rider also entered an edition that still
 * keeps them (a later rally needs them). `keeping`: those editions.
 */
export async function sweepMedical(tx: Tx, editionId: string, keeping: string[]): Promise<number> {
  const gone = await tx
    .update(users)
    .set({ bloodType: null, allergies: null, medicalConditions: null })
    .where(
      and(
        ridersOnlyIn(editionId, keeping),
        or(isNotNull(users.bloodType), isNotNull(users.allergies), isNotNull(users.medicalConditions)),
      ),
    )
    .returning({ id: users.id });
  return gone.length;
}

/** The emergency contact, by the same rule as the medical notes. */
export async function sweepContact(tx: Tx, editionId: string, keeping: string[]): Promise<number> {
  const gone = await tx
    .update(users)
    .set({ emergencyContactName: null, emergencyContactNumber: null })
    .where(
      and(
        ridersOnlyIn(editionId, keeping),
        or(isNotNull(users.emergencyContactName), isNotNull(users.emergencyContactNumber)),
      ),
    )
    .returning({ id: users.id });
  return gone.length;
}

/**
 * Deletes the edition's positions in batches, each its own statement (idempotent: two
 * instances at once only repeat an empty delete); answers how many went.
 */
export async function deletePositions(db: Db, editionId: string): Promise<number> {
  let total = 0;
  for (;;) {
    const deleted = rowsOf<{ n: number | string }>(
      await db.execute(sql`
        with expired as (
          select p.user_id, p.at from ${positions} p where p.edition_id = ${editionId}::uuid limit ${POSITIONS_BATCH}
        ), gone as (
          delete from ${positions} p using expired x
          where p.edition_id = ${editionId}::uuid and p.user_id = x.user_id and p.at = x.at
          returning 1
        )
        select count(*)::int as n from gone`),
    );
    const n = Number(deleted[0]?.n ?? 0);
    total += n;
    if (n < POSITIONS_BATCH) return total;
  }
}

/** The trackers' last position and where each rider stopped: the board's dot, after the track went. */
export async function clearTrackerPositions(tx: Tx, editionId: string): Promise<void> {
  await tx
    .update(trackers)
    .set({
      lastLat: null,
      lastLng: null,
      lastAccuracy: null,
      lastSpeed: null,
      lastAlongM: null,
      lastOffRouteM: null,
      movingSpeed: null,
      anchorLat: null,
      anchorLng: null,
      anchorAt: null,
    })
    .where(eq(trackers.editionId, editionId));
}

/**
 * The edition's receipts: every receipt file of a rider of the edition that was theirs while
 * it ran. Sent before it closed (`closed_at`; never, for the current one), and replaced after
 * the edition before it closed (the rollover replaces every receipt at that very moment, so
 * last year's is not this year's).
 */
function receiptsOf(editionId: string): SQL {
  const close = sql`(select coalesce(e.closed_at, 'infinity'::timestamptz) from ${editions} e where e.id = ${editionId}::uuid)`;
  const previousClose = sql`(select coalesce(max(o.closed_at), '-infinity'::timestamptz) from ${editions} o
    where o.id <> ${editionId}::uuid and o.closed_at < ${close})`;
  return sql`${files.kind} = 'payment_receipt'
    and exists (select 1 from ${entries} en where en.edition_id = ${editionId}::uuid and en.user_id = ${files.userId})
    and ${files.createdAt} <= ${close}
    and (${files.supersededAt} is null or ${files.supersededAt} > ${previousClose})`;
}

/**
 * Deletes the edition's receipt files (their readings and jobs go with them), a batch per
 * transaction, then their objects from the file store once the rows are gone. The entries'
 * payment method, amount and verification stay: counts do not move.
 */
export async function deleteReceipts(db: Db, fileStore: FileStore, editionId: string): Promise<number> {
  let total = 0;
  for (;;) {
    const gone = await db.transaction(async (tx) => {
      const batch = await tx
        .select({ id: files.id, storageKey: files.storageKey })
        .from(files)
        .where(receiptsOf(editionId))
        .limit(RECEIPTS_BATCH);
      if (batch.length > 0)
        await tx.delete(files).where(
          inArray(
            files.id,
            batch.map((f) => f.id),
          ),
        );
      return batch;
    });
    const keys = gone.map((f) => f.storageKey).filter((k): k is string => !!k);
    if (keys.length > 0) await fileStore.remove(keys);
    total += gone.length;
    if (gone.length < RECEIPTS_BATCH) return total;
  }
}

/**
 * Anonymises the edition's incidents: what the rider and staff wrote, where the rider was,
 * and the texts of the messages sent about them go; the kind, times, last station, status
 * and who handled them stay, so every count and the timeline's shape stay.
 */
export async function anonymiseIncidents(tx: Tx, editionId: string): Promise<number> {
  const ofEdition = sql`(select i.id from ${incidents} i where i.edition_id = ${editionId}::uuid)`;
  const done = await tx
    .update(incidents)
    .set({ note: null, resolutionNote: null, lat: null, lng: null, accuracy: null, positionAt: null })
    .where(eq(incidents.editionId, editionId))
    .returning({ id: incidents.id });
  await tx
    .update(sosCalls)
    .set({ note: null, lat: null, lng: null, accuracy: null, positionAt: null })
    .where(sql`${sosCalls.incidentId} in ${ofEdition}`);
  // The values a message was written from (the note, the position, the rider's name); a
  // message still to be sent keeps them, or it could not be written. The escalation's round
  // is what the timeline shows of them.
  await tx
    .update(outboxMessages)
    .set({
      data: sql`case when ${outboxMessages.data} ? 'round' then jsonb_build_object('round', ${outboxMessages.data} -> 'round') else '{}'::jsonb end`,
    })
    .where(and(sql`${outboxMessages.incidentId} in ${ofEdition}`, sql`${outboxMessages.status} <> 'pending'`));
  // The activity log's lines about them: the note and the position (its `location` when it
  // was one; a station's name stays).
  await tx
    .update(activities)
    .set({
      details: null,
      location: sql`case when ${activities.metadata} ? 'position' then null else ${activities.location} end`,
      metadata: sql`${activities.metadata} - 'position'`,
    })
    .where(
      sql`${activities.metadata} ->> 'incidentId' in (select i.id::text from ${incidents} i where i.edition_id = ${editionId}::uuid)`,
    );
  await tx.update(sosAbuseMarks).set({ note: REMOVED }).where(eq(sosAbuseMarks.editionId, editionId));
  return done.length;
}
