// Positions in (DESIGN.md §11): one request of Traccar Client, however many positions it
// carries, is one transaction of a fixed handful of round trips: the tracker locked, every
// position in one INSERT (a JSON parameter, whatever the count), "last position" moved only
// forwards, the alerts judged on what is new, and one small event for the board. A valley
// full of riders flushing hours of buffer at once costs a statement per rider, not per point.
import type { Position } from '@rally/shared/contracts/incidents';
import type { PositionEvent, TrackPoint } from '@rally/shared/contracts/tracking';
import { and, eq, sql } from 'drizzle-orm';
import type { Db, Tx } from '../../db/client';
import { editions } from '../../db/schema/editions';
import { positions, type TrackerRow, trackers } from '../../db/schema/tracking';
import { users } from '../../db/schema/users';
import { verifications } from '../../db/schema/verifications';
import type { AuthContext } from '../../lib/authorize';
import { AppError, NotFoundError } from '../../lib/errors';
import { publishEvent } from '../../lib/event-bus';
import { rowsOf } from '../../lib/sql-text';
import { sendSos } from '../incidents/incidents.service';
import type { Messenger } from '../messages/messenger';
import { checkTimes, type OsmandPoint, type OsmandRequest, trackerSosId } from './osmand';
import { type AlertThresholds, judgeTracker, type NewPosition } from './tracking-alerts';

export interface IngestResult {
  /** Positions stored by this request (a resend stores none). */
  stored: number;
  /** Of those, how many were newer than the rider's last position. */
  fresh: number;
  /** The SOS the app's alarm opened or joined (or found: a resend). */
  sos: { incidentId: string; created: boolean } | null;
  /** Why the alarm could not open an SOS (the hourly caps): the positions are stored all the same. */
  sosRefused: string | null;
}

const unknownTracker = () =>
  new NotFoundError(
    'Unknown tracking id: tracking is off for this entry, or the id is not this edition’s. Scan the QR code on your rider pass again.',
    'TRACKER_NOT_FOUND',
  );

/** The edition's first day, at midnight in the Philippines (its dates are local). */
const editionStart = (startsOn: string | null) => (startsOn ? new Date(`${startsOn}T00:00:00+08:00`) : new Date(0));

/** The tracker behind an id, enabled and of the current edition, locked for this request. */
async function lockTracker(tx: Tx, trackingId: string) {
  const [row] = await tx
    .select({
      tracker: trackers,
      editionName: editions.name,
      startsOn: editions.startsOn,
      riderNumber: users.riderNumber,
      category: users.category,
    })
    .from(trackers)
    .innerJoin(editions, and(eq(editions.id, trackers.editionId), eq(editions.current, true)))
    .innerJoin(users, eq(users.id, trackers.userId))
    .where(and(eq(trackers.trackingId, trackingId), eq(trackers.enabled, true)))
    .for('update', { of: trackers });
  return row ?? null;
}

/** A batch's points by time, one per instant (a batch may repeat one), oldest first. */
function distinctByTime(points: readonly OsmandPoint[]): OsmandPoint[] {
  const byTime = new Map<number, OsmandPoint>();
  for (const p of points) if (!byTime.has(p.at.getTime())) byTime.set(p.at.getTime(), p);
  return [...byTime.values()].sort((a, b) => a.at.getTime() - b.at.getTime());
}

export function trackPointOf(p: {
  at: Date;
  lat: number;
  lng: number;
  speed: number | null;
  accuracy: number | null;
  battery: number | null;
  charging: boolean | null;
}): TrackPoint {
  return {
    lat: p.lat,
    lng: p.lng,
    at: p.at.toISOString(),
    speed: p.speed,
    accuracy: p.accuracy,
    battery: p.battery,
    charging: p.charging,
  };
}

/**
 * Stores a request's positions (all or, for a malformed one, none) and answers what it did.
 * Throws 404 for an unknown or disabled id, 400 for a time out of bounds.
 */
export async function ingestPositions(
  db: Db,
  request: OsmandRequest,
  deps: { now: Date; messenger: Messenger; thresholds?: AlertThresholds },
): Promise<IngestResult> {
  const points = distinctByTime(request.points);
  const done = await db.transaction(async (tx) => {
    const found = await lockTracker(tx, request.trackingId);
    if (!found) throw unknownTracker();
    const { tracker } = found;
    checkTimes(points, deps.now, editionStart(found.startsOn), found.editionName);

    const rows = points.map((p) => ({
      at: p.at.toISOString(),
      lat: p.lat,
      lng: p.lng,
      speed: p.speed,
      bearing: p.bearing,
      altitude: p.altitude,
      accuracy: p.accuracy,
      battery: p.battery,
      charging: p.charging,
    }));
    // One statement whatever the batch: the rows travel as one JSON parameter (both drivers
    // pass it alike, and no batch nears the protocol's 65,535 parameters). A position already
    // stored (the app's resend) is the same position: nothing happens to it. The same
    // statement moves "last position" to the newest stored one, only if it is newer: a late
    // buffer flush (older than the last position) is stored, never judged, and never moves
    // it backwards.
    const previous = tracker.lastAt?.getTime() ?? Number.NEGATIVE_INFINITY;
    const inserted = rowsOf<{ ms: number | string }>(
      await tx.execute(sql`
        with ins as (
          insert into ${positions} (edition_id, user_id, at, lat, lng, speed, bearing, altitude, accuracy, battery, charging)
          select ${tracker.editionId}::uuid, ${tracker.userId}::uuid, r.at, r.lat, r.lng, r.speed, r.bearing, r.altitude,
                 r.accuracy, r.battery, r.charging
          from jsonb_to_recordset(${JSON.stringify(rows)}::jsonb) as r(
            at timestamptz, lat float8, lng float8, speed float8, bearing float8, altitude float8,
            accuracy float8, battery float8, charging boolean)
          on conflict do nothing
          returning at, lat, lng, speed, accuracy, battery, charging
        ), newest as (
          select * from ins
          where at > coalesce(${tracker.lastAt?.toISOString() ?? null}::timestamptz, '-infinity'::timestamptz)
          order by at desc limit 1
        ), moved as (
          update ${trackers} t set last_lat = n.lat, last_lng = n.lng, last_at = n.at, last_speed = n.speed,
            last_accuracy = n.accuracy, last_battery = n.battery, last_charging = n.charging,
            updated_at = ${deps.now.toISOString()}::timestamptz
          from newest n
          where t.edition_id = ${tracker.editionId}::uuid and t.user_id = ${tracker.userId}::uuid
          returning 1
        )
        select (extract(epoch from at) * 1000)::float8 as ms from ins`),
    );
    const storedAt = new Set(inserted.map((r) => Math.round(Number(r.ms))));
    const fresh = points.filter((p) => storedAt.has(p.at.getTime()) && p.at.getTime() > previous);
    const newest = fresh.at(-1);
    if (!newest) return { tracker, found, stored: storedAt.size, fresh: 0 };

    // The row as the statement left it, for the alerts.
    const last = {
      lastLat: newest.lat,
      lastLng: newest.lng,
      lastAt: newest.at,
      lastSpeed: newest.speed,
      lastAccuracy: newest.accuracy,
      lastBattery: newest.battery,
      lastCharging: newest.charging,
      updatedAt: deps.now,
    };
    const moved: TrackerRow = { ...tracker, ...last };
    const news: NewPosition[] = fresh.map((p) => ({
      at: p.at,
      lat: p.lat,
      lng: p.lng,
      speed: p.speed,
      accuracy: p.accuracy,
      battery: p.battery,
      charging: p.charging,
    }));
    const before =
      tracker.lastAt && tracker.lastLat !== null && tracker.lastLng !== null
        ? { at: tracker.lastAt, lat: tracker.lastLat, lng: tracker.lastLng }
        : null;
    const judgement = await judgeTracker(tx, moved, news, deps.now, deps.messenger, deps.thresholds, {
      category: found.category,
      before,
    });
    // One event per request, however many positions: the board redraws the rider once.
    const event: PositionEvent = {
      userId: tracker.userId,
      riderNumber: found.riderNumber,
      state: judgement.state,
      last: trackPointOf(newest),
      alongM: judgement.alongM,
    };
    await publishEvent(tx, 'position', event);
    return { tracker, found, stored: storedAt.size, fresh: fresh.length };
  });

  const alarm = points.filter((p) => p.sos).at(-1);
  if (!alarm) return { stored: done.stored, fresh: done.fresh, sos: null, sosRefused: null };
  const sos = await trackerSos(db, done.tracker, request.trackingId, alarm, deps.messenger);
  return { stored: done.stored, fresh: done.fresh, ...sos };
}

/**
 * The app's SOS button: the rider's own SOS, as the rider pass's button sends it (one
 * unresolved incident, the hourly caps, on-call push and escalation), with an id made from
 * the tracking id and the alarm's time so a resend opens nothing twice. After the positions'
 * transaction: the SOS path runs its own, and the positions are stored whatever it answers.
 */
async function trackerSos(
  db: Db,
  tracker: TrackerRow,
  trackingId: string,
  alarm: OsmandPoint,
  messenger: Messenger,
): Promise<Pick<IngestResult, 'sos' | 'sosRefused'>> {
  const [account] = await db
    .select({
      firstName: users.firstName,
      lastName: users.lastName,
      email: users.email,
      role: users.role,
      verificationStatus: verifications.status,
    })
    .from(users)
    .leftJoin(verifications, eq(verifications.userId, users.id))
    .where(eq(users.id, tracker.userId))
    .limit(1);
  if (!account) throw unknownTracker();
  const auth: AuthContext = {
    sessionId: `tracker:${tracker.editionId}`,
    userId: tracker.userId,
    role: account.role,
    firstName: account.firstName,
    lastName: account.lastName,
    email: account.email,
    verificationStatus: account.verificationStatus ?? null,
  };
  const position: Position = {
    lat: alarm.lat,
    lng: alarm.lng,
    accuracy: alarm.accuracy ?? 0,
    at: alarm.at.toISOString(),
  };
  try {
    const { incident, created } = await sendSos(
      db,
      auth,
      {
        id: trackerSosId(trackingId, alarm.at),
        kind: 'other',
        note: 'SOS from the tracker (Traccar Client)',
        position,
      },
      messenger,
      'tracker',
    );
    return { sos: { incidentId: incident.id, created }, sosRefused: null };
  } catch (err) {
    // The hourly caps (429) and an id clash (409): the phone must not keep resending the
    // position for it, so the request still succeeds and says why no SOS was opened.
    if (!(err instanceof AppError)) throw err;
    return { sos: null, sosRefused: err.message };
  }
}
