// A rider's timeline: every scan (accepted or flagged, with its review), every staff
// decision and every completion, oldest first. What a marshal reads before calling.
import { SCAN_FLAG_LABELS, type ScanFlagReasonName, STATION_KIND_LABELS } from '@rally/shared/catalog/event-day';
import type { TimelineEntry } from '@rally/shared/contracts/course';
import { and, asc, eq, sql } from 'drizzle-orm';
import { alias } from 'drizzle-orm/pg-core';
import type { DbOrTx } from '../../db/client';
import { activities } from '../../db/schema/activities';
import { courseDecisions } from '../../db/schema/course';
import { scans, stations } from '../../db/schema/event-day';
import { users } from '../../db/schema/users';
import { type EditionRead, inEdition } from '../../lib/edition-of';
import { fullName } from '../../lib/sql-text';
import { isPassage } from './passages';

const reviewer = alias(users, 'reviewer');

const blank = {
  day: null,
  stationId: null,
  stationName: null,
  status: null,
  reason: null,
  counted: null,
  review: null,
  decision: null,
  dnfReason: null,
  note: null,
  by: null,
} satisfies Omit<TimelineEntry, 'type' | 'at' | 'title'>;

/** The rider's timeline in `edition` (default: the current one). */
export async function riderTimeline(db: DbOrTx, riderId: string, edition?: EditionRead): Promise<TimelineEntry[]> {
  const [scanRows, decisionRows, completionRows] = await Promise.all([
    db
      .select({
        id: scans.id,
        scannedAt: scans.scannedAt,
        status: scans.status,
        reason: scans.reason,
        reviewDecision: scans.reviewDecision,
        reviewNote: scans.reviewNote,
        reviewedAt: scans.reviewedAt,
        reviewerFirstName: reviewer.firstName,
        reviewerLastName: reviewer.lastName,
        stationId: stations.id,
        stationName: stations.name,
        stationKind: stations.kind,
        day: stations.day,
      })
      .from(scans)
      .innerJoin(stations, and(eq(stations.id, scans.stationId), eq(stations.editionId, scans.editionId)))
      .leftJoin(reviewer, eq(reviewer.id, scans.reviewedBy))
      .where(and(inEdition(scans.editionId, edition), eq(scans.riderId, riderId))),
    db
      .select()
      .from(courseDecisions)
      .where(and(inEdition(courseDecisions.editionId, edition), eq(courseDecisions.riderId, riderId)))
      .orderBy(asc(courseDecisions.recordedAt)),
    db
      .select({ createdAt: activities.createdAt, description: activities.description, metadata: activities.metadata })
      .from(activities)
      // Demo entries (POST /admin/activities/sample) are no completion of the rider's.
      .where(
        and(
          eq(activities.userId, riderId),
          eq(activities.type, 'rally_completion'),
          sql`${activities.metadata}->>'sample' is null`,
          // The edition's: the current one's carry none, a past one's carry its id (the rollover
          // stamps them, entries/rollover.service.ts).
          edition
            ? sql`${activities.metadata}->>'edition' = ${edition}`
            : sql`${activities.metadata}->>'edition' is null`,
        ),
      )
      .orderBy(asc(activities.createdAt)),
  ]);

  const entries: TimelineEntry[] = [];
  for (const s of scanRows) {
    const reason = s.reason as ScanFlagReasonName | null;
    const counted = isPassage(s);
    entries.push({
      ...blank,
      type: 'scan',
      at: s.scannedAt.toISOString(),
      title:
        s.status === 'accepted'
          ? `${STATION_KIND_LABELS[s.stationKind]}: passed ${s.stationName}`
          : `Flagged at ${s.stationName}: ${reason ? SCAN_FLAG_LABELS[reason] : 'flagged'}`,
      day: s.day,
      stationId: s.stationId,
      stationName: s.stationName,
      status: s.status,
      reason,
      counted,
      review:
        s.reviewDecision && s.reviewedAt
          ? {
              decision: s.reviewDecision,
              note: s.reviewNote ?? '',
              at: s.reviewedAt.toISOString(),
              by: s.reviewerFirstName === null ? null : fullName(s.reviewerFirstName, s.reviewerLastName),
            }
          : null,
    });
  }
  for (const d of decisionRows) {
    entries.push({
      ...blank,
      type: 'decision',
      at: d.decidedAt.toISOString(),
      title: d.decision === 'clear' ? `DNF/DNS cleared (day ${d.day})` : `${d.decision.toUpperCase()} (day ${d.day})`,
      day: d.day,
      decision: d.decision,
      dnfReason: d.reason,
      note: d.note,
      by: d.decidedByName,
    });
  }
  for (const c of completionRows) {
    const day = (c.metadata as { day?: unknown } | null)?.day;
    entries.push({
      ...blank,
      type: 'completion',
      at: c.createdAt.toISOString(),
      title: c.description,
      day: typeof day === 'number' ? day : null,
    });
  }
  return entries.sort((a, b) => a.at.localeCompare(b.at));
}
