// What counts as a passage: an accepted scan, or a flagged one staff accepted on review.
// The rider's checkpoint count and passage list are derived from these, never typed in.
import { and, eq, getTableName, inArray, type SQL, sql } from 'drizzle-orm';
import type { DbOrTx } from '../../db/client';
import { entries } from '../../db/schema/entries';
import { scans, stations } from '../../db/schema/event-day';
import { CURRENT_EDITION, inEdition } from '../../lib/edition-of';

type ScanRow = typeof scans.$inferSelect;

/** The scan's own outcome, or the review decision, that makes it a passage. */
const PASSAGE_STATUS = 'accepted' satisfies ScanRow['status'];
const PASSAGE_REVIEW = 'accept' satisfies NonNullable<ScanRow['reviewDecision']>;

/** The rule over a scan already read (a timeline lists flagged scans too, and marks which count). */
export function isPassage(scan: Pick<ScanRow, 'status' | 'reviewDecision'>): boolean {
  return scan.status === PASSAGE_STATUS || scan.reviewDecision === PASSAGE_REVIEW;
}

/**
 * The rule over a scans row that the SQL calls `row`: correlated subqueries name theirs (an
 * UPDATE renders its columns unqualified, which would bind them to the updated table).
 */
export function passageOf(row: string): SQL {
  return sql.raw(
    `(${row}.${scans.status.name} = '${PASSAGE_STATUS}' or ${row}.${scans.reviewDecision.name} = '${PASSAGE_REVIEW}')`,
  );
}

/** The rule where the query reads the scans table by its name. */
export const countsAsPassage = passageOf(`"${getTableName(scans)}"`);

/** Recomputes the entry's `checkpoints` (distinct checkpoint stations passed) for these riders. */
export async function recomputeCheckpoints(db: DbOrTx, riderIds: readonly string[]): Promise<void> {
  const ids = [...new Set(riderIds)];
  if (ids.length === 0) return;
  await db
    .update(entries)
    .set({
      // Spelled out: an UPDATE's columns render unqualified, which would bind inside the subquery.
      // The current edition's passages: the count is this year's.
      checkpoints: sql`(select count(distinct s.station_id)::int from scans s
        inner join stations st on st.id = s.station_id and st.edition_id = s.edition_id
        where s.rider_id = entries.user_id and s.edition_id = ${CURRENT_EDITION}
          and st.kind = 'checkpoint' and ${passageOf('s')})`,
    })
    .where(and(inArray(entries.userId, ids), inEdition(entries.editionId)));
}

/** A rider's own passages, oldest first. */
export function riderPassages(db: DbOrTx, riderId: string) {
  return db
    .select({
      stationId: scans.stationId,
      stationName: stations.name,
      kind: stations.kind,
      scannedAt: scans.scannedAt,
    })
    .from(scans)
    .innerJoin(stations, and(eq(stations.id, scans.stationId), eq(stations.editionId, scans.editionId)))
    .where(and(inEdition(scans.editionId), eq(scans.riderId, riderId), countsAsPassage))
    .orderBy(scans.scannedAt, stations.day, stations.order);
}
