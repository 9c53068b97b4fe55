// The tracking board (DESIGN.md §11): every tracked rider's last position and what it means,
// a rider's track, and staff dismissing a tracker's alert. Only holders of handle_incidents
// reach any of it (the routes say so); a position is never in anything else staff read.
import type { Role } from '@rally/shared/catalog/accounts';
import { TRACKER_INCIDENT_KINDS } from '@rally/shared/catalog/event-day';
import { and, desc, eq, gte, or } from 'drizzle-orm';
import type { Db, DbOrTx } from '../../db/client';
import { incidents } from '../../db/schema/incidents';
import { positions, trackers } from '../../db/schema/tracking';
import { users } from '../../db/schema/users';
import type { Actor } from '../../lib/actor';
import { type EditionRead, inEdition } from '../../lib/edition-of';
import { ConflictError, NotFoundError } from '../../lib/errors';
import { canSee } from '../../lib/visibility';
import { courseSnapshot } from '../course/course.service';
import { currentEdition } from '../editions/editions.service';
import { changeIncidentIn, getIncident } from '../incidents/incidents.service';
import type { Messenger } from '../messages/messenger';
import { loadTrackingViews, type TrackingView } from '../trackers/tracking-view';

/** A track answers at most this many positions: the newest, oldest first (a day at one a minute is ~900). */
export const TRACK_POINTS_MAX = 2_000;

/**
 * Every enabled tracker of `edition` (a staff read's past one; undefined: the current one),
 * with its rider's course state in that edition folded in.
 */
export async function trackedRiders(
  db: DbOrTx,
  viewerRole: Role,
  now: Date,
  edition?: EditionRead,
): Promise<TrackingView[]> {
  // The scans alone: the board shows what the tracker says beside them, not mixed in.
  const snapshot = await courseSnapshot(db, { now, tracking: false, edition });
  const course = new Map(
    snapshot.states.map((s) => [s.riderId, { state: s.state, nextStationId: s.nextStation?.id ?? null }]),
  );
  const views = await loadTrackingViews(db, { now, day: snapshot.day, course, edition });
  return views.filter((v) => canSee(viewerRole, v.rider.role));
}

const notTracked = () => new NotFoundError('This rider has no tracker in this edition', 'TRACKER_NOT_FOUND');

/**
 * A rider's positions in `edition` (a staff read's past one; undefined: the current one), since
 * `since`: the newest TRACK_POINTS_MAX, oldest first.
 */
export async function trackOf(db: DbOrTx, viewerRole: Role, userId: string, since?: Date, edition?: EditionRead) {
  const editionId = edition ?? (await currentEdition(db)).id;
  const [tracked] = await db
    .select({ role: users.role })
    .from(trackers)
    .innerJoin(users, eq(users.id, trackers.userId))
    .where(and(eq(trackers.editionId, editionId), eq(trackers.userId, userId)))
    .limit(1);
  if (!tracked || !canSee(viewerRole, tracked.role)) throw notTracked();
  const rows = await db
    .select()
    .from(positions)
    .where(
      and(
        eq(positions.editionId, editionId),
        eq(positions.userId, userId),
        since ? gte(positions.at, since) : undefined,
      ),
    )
    .orderBy(desc(positions.at))
    .limit(TRACK_POINTS_MAX);
  return rows.reverse();
}

/**
 * POST /api/admin/tracking/alerts/:incidentId/dismiss: staff say why a tracker's alert is no
 * worry. The incident is resolved with the reason as its note, through the incidents' own
 * resolve (audited, the escalation stopped, the boards told); a stop's dismissal also holds
 * further stop alerts until the rider moves beyond the stopped radius. The tracker row is
 * locked first, as the ingest locks it before it opens an alert: the two take turns.
 */
export async function dismissAlert(
  db: Db,
  incidentId: string,
  viewerRole: Role,
  actor: Actor,
  reason: string,
  messenger: Messenger,
) {
  await db.transaction(async (tx) => {
    const [incident] = await tx
      .select({ riderId: incidents.riderId, kind: incidents.kind, source: incidents.source })
      .from(incidents)
      .where(and(eq(incidents.id, incidentId), inEdition(incidents.editionId)))
      .limit(1);
    if (!incident) throw new NotFoundError('Incident not found', 'INCIDENT_NOT_FOUND');
    if (incident.source !== 'tracker' || !(TRACKER_INCIDENT_KINDS as readonly string[]).includes(incident.kind)) {
      throw new ConflictError(
        'Only a tracker’s alert (stopped, off route) is dismissed; resolve this incident with a note instead',
        'NOT_A_TRACKER_ALERT',
      );
    }
    const [tracker] = await tx
      .select({ editionId: trackers.editionId, stopIncidentId: trackers.stopIncidentId })
      .from(trackers)
      .where(
        and(
          eq(trackers.userId, incident.riderId),
          or(eq(trackers.stopIncidentId, incidentId), eq(trackers.offRouteIncidentId, incidentId)),
        ),
      )
      .limit(1)
      .for('update');
    await changeIncidentIn(tx, incidentId, viewerRole, actor, { action: 'resolve', note: reason }, messenger);
    if (tracker && tracker.stopIncidentId === incidentId) {
      await tx
        .update(trackers)
        .set({ stopDismissed: true, updatedAt: new Date() })
        .where(and(eq(trackers.editionId, tracker.editionId), eq(trackers.userId, incident.riderId)));
    }
  });
  return getIncident(db, incidentId, viewerRole);
}
