// The review queue of flagged scans. Accepting makes a scan count as a passage (checkpoint
// count, passage list, activity); voiding keeps it on record without counting. Both are
// audited with the reviewer and their note.
import { SCAN_FLAG_LABELS } from '@rally/shared/catalog/event-day';
import { and, count, desc, eq, isNotNull, isNull, type SQL } from 'drizzle-orm';
import { alias } from 'drizzle-orm/pg-core';
import type { Db, DbOrTx } from '../../db/client';
import { entries } from '../../db/schema/entries';
import { scans, stations } from '../../db/schema/event-day';
import { users } from '../../db/schema/users';
import type { Actor } from '../../lib/actor';
import { type EditionRead, inEdition } from '../../lib/edition-of';
import { ConflictError, NotFoundError } from '../../lib/errors';
import { publishEvent } from '../../lib/event-bus';
import { namedRiderColumns, ownEntry } from '../../lib/riders';
import { displayName } from '../../lib/sql-text';
import { recordActivity } from '../activities/activities.service';
import { recordCompletions } from '../course/completion';
import { recomputeCheckpoints } from '../course/passages';
import { photoColumn } from './roster.service';
import { passageActivity } from './scans.service';

const rider = alias(users, 'rider');
/** The rider's entry in the scan's edition: the number and category are the entry's. */
const riderEntry = alias(entries, 'rider_entry');
const recorder = alias(users, 'recorder');
const reviewer = alias(users, 'reviewer');

function flaggedQuery(db: DbOrTx) {
  return db
    .select({
      id: scans.id,
      stationId: scans.stationId,
      stationName: stations.name,
      reason: scans.reason,
      scannedAt: scans.scannedAt,
      receivedAt: scans.receivedAt,
      deviceId: scans.deviceId,
      source: scans.source,
      riderCode: scans.riderCode,
      riderNumber: scans.riderNumber,
      riderId: rider.id,
      riderRiderNumber: riderEntry.riderNumber,
      riderKitName: rider.kitName,
      riderFirstName: rider.firstName,
      riderLastName: rider.lastName,
      riderCategory: riderEntry.category,
      riderPhoto: photoColumn(rider.id),
      recorderId: recorder.id,
      recorderFirstName: recorder.firstName,
      recorderLastName: recorder.lastName,
      recorderRole: recorder.role,
      reviewDecision: scans.reviewDecision,
      reviewNote: scans.reviewNote,
      reviewedAt: scans.reviewedAt,
      reviewerFirstName: reviewer.firstName,
      reviewerLastName: reviewer.lastName,
      reviewerRole: reviewer.role,
    })
    .from(scans)
    .innerJoin(stations, and(eq(stations.id, scans.stationId), eq(stations.editionId, scans.editionId)))
    .leftJoin(rider, eq(rider.id, scans.riderId))
    .leftJoin(riderEntry, and(eq(riderEntry.userId, scans.riderId), eq(riderEntry.editionId, scans.editionId)))
    .leftJoin(recorder, eq(recorder.id, scans.recordedBy))
    .leftJoin(reviewer, eq(reviewer.id, scans.reviewedBy));
}
export type FlaggedRow = Awaited<ReturnType<ReturnType<typeof flaggedQuery>['execute']>>[number];

export type ReviewState = 'open' | 'reviewed' | 'all';

/** `edition`'s flagged scans (default: the current one's, the queue staff review). */
export async function listFlagged(
  db: Db,
  query: { state: ReviewState; page: number; limit: number },
  edition?: EditionRead,
) {
  const conditions: SQL[] = [inEdition(scans.editionId, edition), eq(scans.status, 'flagged')];
  if (query.state === 'open') conditions.push(isNull(scans.reviewDecision));
  if (query.state === 'reviewed') conditions.push(isNotNull(scans.reviewDecision));
  const where = and(...conditions);
  const [rows, [total]] = await Promise.all([
    flaggedQuery(db)
      .where(where)
      .orderBy(desc(scans.receivedAt), desc(scans.scannedAt), desc(scans.id))
      .limit(query.limit)
      .offset((query.page - 1) * query.limit),
    db.select({ n: count() }).from(scans).where(where),
  ]);
  return { rows, total: Number(total?.n ?? 0) };
}

export async function reviewScan(
  db: Db,
  id: string,
  decision: 'accept' | 'void',
  note: string,
  actor: Actor,
  now: Date = new Date(),
) {
  await db.transaction(async (tx) => {
    // A past edition's scans are on record only: reviewing is this edition's business.
    const [scan] = await tx
      .select()
      .from(scans)
      .where(and(inEdition(scans.editionId), eq(scans.id, id)))
      .for('update');
    if (!scan) throw new NotFoundError('Scan not found', 'SCAN_NOT_FOUND');
    if (scan.status !== 'flagged') throw new ConflictError('Only flagged scans are reviewed', 'SCAN_NOT_FLAGGED');
    if (scan.reviewDecision) {
      throw new ConflictError(`This scan was already reviewed (${scan.reviewDecision})`, 'SCAN_ALREADY_REVIEWED');
    }
    await tx
      .update(scans)
      .set({ reviewDecision: decision, reviewNote: note, reviewedBy: actor.id, reviewedAt: now })
      .where(and(inEdition(scans.editionId), eq(scans.id, id)));
    const [station] = await tx
      .select()
      .from(stations)
      .where(and(inEdition(stations.editionId, scan.editionId), eq(stations.id, scan.stationId)));
    const [who] = scan.riderId
      ? await tx.select(namedRiderColumns).from(users).leftJoin(entries, ownEntry).where(eq(users.id, scan.riderId))
      : [];
    const label = scan.reason ? SCAN_FLAG_LABELS[scan.reason] : 'Flagged';
    const subject = who ? displayName(who) : `an unknown rider (${scan.riderCode ?? `#${scan.riderNumber}`})`;
    await recordActivity(tx, {
      type: 'scan_reviewed',
      userId: who?.id ?? null,
      userName: who ? displayName(who) : null,
      actorId: actor.id,
      actorName: actor.name,
      description: `${actor.name} ${decision === 'accept' ? 'accepted' : 'voided'} a flagged scan of ${subject} at ${station?.name ?? 'a station'}`,
      details: `${label}: ${note}`.slice(0, 1000),
      location: station?.name ?? null,
      metadata: { scanId: id, decision, reason: scan.reason },
    });
    if (decision === 'accept' && who && station) {
      const recorders = new Map<string, string>([[actor.id, actor.name]]);
      await recordActivity(tx, passageActivity(who, station, { id, recordedBy: actor.id }, recorders));
      await recomputeCheckpoints(tx, [who.id]);
      if (station.kind === 'finish') await recordCompletions(tx, [{ riderId: who.id, stationId: station.id }], now);
    }
    if (who) {
      await publishEvent(tx, 'course', {
        change: decision === 'accept' ? 'scan_accepted' : 'scan_voided',
        riderId: who.id,
        riderNumber: who.riderNumber,
        kitName: who.kitName,
        scanId: id,
        stationId: scan.stationId,
        stationName: station?.name ?? null,
      });
    }
  });
  const [row] = await flaggedQuery(db).where(and(inEdition(scans.editionId), eq(scans.id, id)));
  if (!row) throw new NotFoundError('Scan not found', 'SCAN_NOT_FOUND');
  return row;
}
