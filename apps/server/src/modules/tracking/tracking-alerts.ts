// Judging a tracked rider from their newest positions (DESIGN.md §11): moving or stopped,
// on or off the route, and the alerts that open incidents on the SOS path. The state lives
// on the tracker row (anchor, streak, flags, speed), so each batch is judged from that row
// and its own positions only: O(batch) whatever the history.
import {
  COURSE_STATION_KINDS,
  type RallyRouteId,
  routeForCategory,
  type TrackerIncidentKind,
} from '@rally/shared/catalog/event-day';
import { RALLY_ROUTES } from '@rally/shared/catalog/landing';
import {
  OFF_ROUTE_POSITIONS,
  STATION_RADIUS_M,
  STOPPED_RADIUS_M,
  TRACKING_DEFAULTS,
  type TrackState,
} from '@rally/shared/catalog/tracking';
import { distanceM, type LatLng } from '@rally/shared/geo';
import { and, desc, eq, inArray, isNotNull, lt, max } from 'drizzle-orm';
import type { DbOrTx, Tx } from '../../db/client';
import { entries } from '../../db/schema/entries';
import { scans, stations } from '../../db/schema/event-day';
import { incidents } from '../../db/schema/incidents';
import { positions, type TrackerRow, trackers } from '../../db/schema/tracking';
import { inEdition } from '../../lib/edition-of';
import { listCourseStates } from '../course/course.service';
import { countsAsPassage } from '../course/passages';
import { openTrackerAlert } from '../incidents/incidents.service';
import type { Messenger } from '../messages/messenger';
import { type RouteLineForMeasure, routeLineOf } from '../route-lines/route-lines.service';
import { measure, nearWindowM } from '../route-lines/route-measure';
import { nextMovingSpeed } from '../trackers/eta';
import { trackStateOf } from '../trackers/track-state';

export interface NewPosition {
  at: Date;
  lat: number;
  lng: number;
  /** m/s */
  speed: number | null;
  accuracy: number | null;
  /** percent 0–100 */
  battery: number | null;
  charging: boolean | null;
}

export interface Judgement {
  state: TrackState;
  alongM: number | null;
  offRouteM: number | null;
}

/** The server's settings the alerts read (config.tracking): TRACKING_STOPPED_MIN, TRACKING_OFF_ROUTE_M. */
export interface AlertThresholds {
  stoppedMinutes: number;
  offRouteM: number;
}
/**
 * What the caller may already hold, saving a round trip each: the rider's category, and the
 * position before the batch (the ingest's tracker row before it moved: every stored position
 * older than the batch's fresh ones is at most that one).
 */
export interface JudgeContext {
  category?: string | null;
  before?: { at: Date; lat: number; lng: number } | null;
  /** The rider's route line, when a batch of riders read it once for all of them. */
  line?: RouteLineForMeasure | null;
  /** Takes the tracker's new alert state instead of writing it: a batch writes all of them in one statement. */
  deferWrite?: (state: TrackerAlertState) => void;
}

/** The columns of `trackers` the judging keeps up to date. */
export type TrackerAlertState = Pick<
  TrackerRow,
  | 'anchorLat'
  | 'anchorLng'
  | 'anchorAt'
  | 'stopDismissed'
  | 'offRouteStreak'
  | 'offRoute'
  | 'movingSpeed'
  | 'lastAlongM'
  | 'lastOffRouteM'
  | 'stopIncidentId'
  | 'offRouteIncidentId'
>;

export const DEFAULT_THRESHOLDS: AlertThresholds = {
  stoppedMinutes: TRACKING_DEFAULTS.stoppedMinutes,
  offRouteM: TRACKING_DEFAULTS.offRouteM,
};

const km = (m: number) => `${(m / 1000).toFixed(m < 10_000 ? 1 : 0)} km`;
const place = (p: LatLng) => `${p.lat.toFixed(4)}, ${p.lng.toFixed(4)}`;

/** "42 km along Bagani, 3.1 km from the route": what the marshal reads before calling. */
function whereOnRoute(route: RallyRouteId | null, alongM: number | null, offM: number | null): string {
  if (!route || alongM === null || offM === null) return 'no route line to measure against';
  const name = RALLY_ROUTES[route].name;
  return offM < 100
    ? `${km(alongM)} along ${name}, on the route`
    : `${km(alongM)} along ${name}, ${km(offM)} from the route`;
}

/** Any station of the edition's course on the rider's route with a position within STATION_RADIUS_M of `p`. */
async function nearStation(
  tx: DbOrTx,
  editionId: string,
  route: RallyRouteId | null,
  p: LatLng,
): Promise<string | null> {
  const rows = await tx
    .select({ name: stations.name, lat: stations.lat, lng: stations.lng, routes: stations.routes })
    .from(stations)
    .where(and(inEdition(stations.editionId, editionId), isNotNull(stations.lat), isNotNull(stations.lng)));
  for (const s of rows) {
    const serves = s.routes.length === 0 || (route !== null && s.routes.includes(route));
    if (serves && distanceM(p, { lat: s.lat as number, lng: s.lng as number }) <= STATION_RADIUS_M) return s.name;
  }
  return null;
}

/**
 * Whether the rider is out on the course (started, not finished, DNF or DNS), on the day of
 * their own latest passage: the board's current day is the latest anyone passed, and a rider
 * is judged on the stage they ride.
 */
async function onCourse(tx: Tx, editionId: string, userId: string, now: Date): Promise<boolean> {
  const [latest] = await tx
    .select({ day: max(stations.day) })
    .from(scans)
    .innerJoin(stations, and(eq(stations.id, scans.stationId), eq(stations.editionId, scans.editionId)))
    .where(
      and(
        eq(scans.riderId, userId),
        inEdition(scans.editionId, editionId),
        countsAsPassage,
        inArray(stations.kind, [...COURSE_STATION_KINDS]),
      ),
    );
  if (latest?.day == null) return false;
  const [state] = await listCourseStates(tx, { now, riderIds: [userId], tracking: false, day: latest.day });
  return state?.state === 'on_course';
}

const positionOf = (p: NewPosition) => ({
  lat: p.lat,
  lng: p.lng,
  accuracy: p.accuracy ?? 0,
  at: p.at.toISOString(),
});

/**
 * Called by the ingest inside its transaction, the tracker row locked (FOR UPDATE), after the
 * positions were stored and `trackers.last_*` moved to the newest. `fresh`: the stored
 * positions newer than the previous last position, ascending by time (a late buffer flush
 * of older ones is stored but not judged). Updates the tracker's alert state and opens
 * incidents through the SOS path.
 *
 * The alerts judge where the batch leaves the rider, not each position on the way: a buffer
 * flushed after an hour in a valley that shows a stop and then riding on raises nothing.
 * Only a rider on course is alerted for: before their start scan the phone may be tracking
 * a hotel car park, after the finish a ride home.
 */
export async function judgeTracker(
  tx: Tx,
  tracker: TrackerRow,
  fresh: readonly NewPosition[],
  now: Date,
  messenger: Messenger,
  thresholds: AlertThresholds = DEFAULT_THRESHOLDS,
  context: JudgeContext = {},
): Promise<Judgement> {
  const last = fresh.at(-1);
  if (!last) {
    return { state: trackStateOf(tracker, now), alongM: tracker.lastAlongM, offRouteM: tracker.lastOffRouteM };
  }
  const category =
    context.category !== undefined
      ? context.category
      : // The category is the entry's, in the tracker's own edition.
        (
          await tx
            .select({ category: entries.category })
            .from(entries)
            .where(and(eq(entries.userId, tracker.userId), eq(entries.editionId, tracker.editionId)))
            .limit(1)
        )[0]?.category;
  const route = routeForCategory(category);
  const line =
    context.line !== undefined ? context.line : route ? await routeLineOf(tx, tracker.editionId, route) : null;
  const usable = line && line.points.length > 0 ? line : null;

  // The position before the batch: the first step's speed is measured from it.
  const [before] =
    context.before !== undefined
      ? context.before
        ? [context.before]
        : []
      : await tx
          .select({ at: positions.at, lat: positions.lat, lng: positions.lng })
          .from(positions)
          .where(
            and(
              eq(positions.editionId, tracker.editionId),
              eq(positions.userId, tracker.userId),
              lt(positions.at, (fresh[0] as NewPosition).at),
            ),
          )
          .orderBy(desc(positions.at))
          .limit(1);

  const s = {
    anchorLat: tracker.anchorLat,
    anchorLng: tracker.anchorLng,
    anchorAt: tracker.anchorAt,
    stopDismissed: tracker.stopDismissed,
    offRouteStreak: tracker.offRouteStreak,
    offRoute: tracker.offRoute,
    movingSpeed: tracker.movingSpeed,
    lastAlongM: tracker.lastAlongM,
    lastOffRouteM: tracker.lastOffRouteM,
  };
  let moved = false;
  let prev: { at: Date; p: LatLng; along: number | null } | null = null;
  if (before) {
    const p = { lat: before.lat, lng: before.lng };
    const along = usable ? measure(p, usable, s.lastAlongM, nearWindowM(null), thresholds.offRouteM).alongM : null;
    prev = { at: before.at, p, along };
  }

  for (const pos of fresh) {
    const p = { lat: pos.lat, lng: pos.lng };
    const dtMs = prev ? pos.at.getTime() - prev.at.getTime() : null;
    let along: number | null = null;
    if (usable) {
      const m = measure(p, usable, prev?.along ?? s.lastAlongM, nearWindowM(dtMs), thresholds.offRouteM);
      along = m.alongM;
      s.lastAlongM = m.alongM;
      s.lastOffRouteM = m.offM;
      // Off route after OFF_ROUTE_POSITIONS beyond the distance in a row; back only below half
      // of it, so a rider riding along the edge of the distance does not flap in and out.
      if (m.offM > thresholds.offRouteM) {
        s.offRouteStreak += 1;
        if (s.offRouteStreak >= OFF_ROUTE_POSITIONS) s.offRoute = true;
      } else if (m.offM < thresholds.offRouteM / 2) {
        s.offRouteStreak = 0;
        s.offRoute = false;
      } else if (!s.offRoute) {
        s.offRouteStreak = 0;
      }
    }
    const anchor = s.anchorLat !== null && s.anchorLng !== null ? { lat: s.anchorLat, lng: s.anchorLng } : null;
    if (!anchor || !s.anchorAt || distanceM(anchor, p) > STOPPED_RADIUS_M) {
      // Moving on: a new place to measure the next stop from, and a dismissal is spent.
      s.anchorLat = p.lat;
      s.anchorLng = p.lng;
      s.anchorAt = pos.at;
      s.stopDismissed = false;
      moved = true;
    }
    if (prev && dtMs !== null) {
      const progressM = along !== null && prev.along !== null ? along - prev.along : distanceM(prev.p, p);
      s.movingSpeed = nextMovingSpeed(s.movingSpeed, { dtMs, movedM: distanceM(prev.p, p), progressM });
    }
    prev = { at: pos.at, p, along };
  }

  // The alerts on record: an unresolved one is never opened twice.
  const ids = [tracker.stopIncidentId, tracker.offRouteIncidentId].filter((x): x is string => x !== null);
  const statuses = new Map(
    ids.length === 0
      ? []
      : (
          await tx
            .select({ id: incidents.id, status: incidents.status })
            .from(incidents)
            .where(and(inArray(incidents.id, ids), inEdition(incidents.editionId, tracker.editionId)))
        ).map((r) => [r.id, r.status]),
  );
  const unresolved = (id: string | null) => id !== null && statuses.has(id) && statuses.get(id) !== 'resolved';
  let stopIncidentId = tracker.stopIncidentId;
  let offRouteIncidentId = tracker.offRouteIncidentId;
  // A stop alert belongs to its stop: once the rider rides on, the next stop may alert again
  // (unless this one still waits for someone: one alert of a kind at a time). A resolved one
  // kept while the rider stays put means "handled": no new alert for the same stop.
  if ((moved && !unresolved(stopIncidentId)) || (stopIncidentId && !statuses.has(stopIncidentId)))
    stopIncidentId = null;
  if ((!s.offRoute && !unresolved(offRouteIncidentId)) || (offRouteIncidentId && !statuses.has(offRouteIncidentId)))
    offRouteIncidentId = null;

  const lastP = { lat: last.lat, lng: last.lng };
  const stillMs = s.anchorAt ? last.at.getTime() - s.anchorAt.getTime() : 0;
  const wantsStop = stillMs >= thresholds.stoppedMinutes * 60_000 && !s.stopDismissed && stopIncidentId === null;
  const wantsOffRoute = s.offRoute && offRouteIncidentId === null;
  if (wantsStop || wantsOffRoute) {
    const racing = await onCourse(tx, tracker.editionId, tracker.userId, now);
    const where = whereOnRoute(route, s.lastAlongM, s.lastOffRouteM);
    // A stop before the start, after the finish or at a station is no alert, and is not
    // looked at again until the rider moves (a night at the hotel is hundreds of positions).
    const quiet = wantsStop && (!racing || (await nearStation(tx, tracker.editionId, route, lastP)) !== null);
    if (quiet) s.stopDismissed = true;
    if (racing && wantsStop && !quiet) {
      const minutes = Math.floor(stillMs / 60_000);
      const alert = await openTrackerAlert(
        tx,
        tracker.userId,
        'stopped',
        `No movement for ${minutes} min at ${place(lastP)}, ${where}`,
        positionOf(last),
        messenger,
      );
      stopIncidentId = alert.id;
    }
    if (racing && wantsOffRoute) {
      const alert = await openTrackerAlert(
        tx,
        tracker.userId,
        'off_route' satisfies TrackerIncidentKind,
        `Off the route for ${s.offRouteStreak} positions at ${place(lastP)}, ${where}`,
        positionOf(last),
        messenger,
      );
      offRouteIncidentId = alert.id;
    }
  }

  const state = { ...s, stopIncidentId, offRouteIncidentId };
  if (context.deferWrite) context.deferWrite(state);
  else
    await tx
      .update(trackers)
      .set(state)
      .where(and(eq(trackers.editionId, tracker.editionId), eq(trackers.userId, tracker.userId)));
  return {
    state: trackStateOf({ lastAt: last.at, anchorAt: s.anchorAt, offRoute: s.offRoute }, now),
    alongM: usable ? s.lastAlongM : null,
    offRouteM: usable ? s.lastOffRouteM : null,
  };
}
