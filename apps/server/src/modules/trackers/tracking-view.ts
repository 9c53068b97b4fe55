// What the tracker rows say about each tracked rider right now (DESIGN.md §11): their state,
// where they are along the route, the next station and the arrival estimate there, the
// battery, the alert open. The board lists it; the course's overdue list reads the ETA and
// the stop alert from it. It knows nothing of the course itself: the caller passes each
// rider's course state and next station (course.service reads this module, not the reverse).
import { COURSE_STATION_KINDS, type RallyRouteId, routeForCategory } from '@rally/shared/catalog/event-day';
import { LOW_BATTERY_PERCENT, type TrackState } from '@rally/shared/catalog/tracking';
import { and, eq, inArray, isNotNull } from 'drizzle-orm';
import type { DbOrTx } from '../../db/client';
import { entries } from '../../db/schema/entries';
import { stations } from '../../db/schema/event-day';
import { incidents } from '../../db/schema/incidents';
import { type TrackerRow, trackers } from '../../db/schema/tracking';
import { users } from '../../db/schema/users';
import { type EditionRead, inEdition } from '../../lib/edition-of';
import { currentEdition } from '../editions/editions.service';
import { routeLineOf } from '../route-lines/route-lines.service';
import { etaAt, nextStationAhead, type StationOnLine, stationsOnLine } from './eta';
import { trackStateOf } from './track-state';

export interface CourseHint {
  /** The course state's name (finished and dnf win over anything the tracker says). */
  state: string;
  /** The station the scans say is next, if any. */
  nextStationId: string | null;
}

export interface TrackingView {
  tracker: TrackerRow;
  rider: {
    id: string;
    riderNumber: number | null;
    kitName: string | null;
    firstName: string;
    lastName: string;
    role: string;
  };
  route: RallyRouteId | null;
  state: TrackState;
  alongM: number | null;
  offRouteM: number | null;
  nextStation: { id: string; name: string; distanceM: number; eta: Date | null } | null;
  lowBattery: boolean;
  stoppedSince: Date | null;
  /** The tracker's unresolved alert (a stop before an off-route: the more urgent to call about). */
  alert: { incidentId: string; kind: 'stopped' | 'off_route'; since: Date } | null;
}

/**
 * Every enabled tracker of `edition` (the past one a staff read names; undefined: the current
 * one), or only `riderIds`'. `day`: the event day whose stations the next station is chosen from.
 */
export async function loadTrackingViews(
  db: DbOrTx,
  opts: {
    now: Date;
    day: number;
    riderIds?: readonly string[];
    course: ReadonlyMap<string, CourseHint>;
    edition?: EditionRead;
  },
): Promise<TrackingView[]> {
  if (opts.riderIds && opts.riderIds.length === 0) return [];
  const editionId = opts.edition ?? (await currentEdition(db)).id;
  const rows = await db
    .select({
      tracker: trackers,
      rider: {
        id: users.id,
        riderNumber: entries.riderNumber,
        kitName: users.kitName,
        firstName: users.firstName,
        lastName: users.lastName,
        role: users.role,
        category: entries.category,
      },
    })
    .from(trackers)
    .innerJoin(users, eq(users.id, trackers.userId))
    // The number and category are the rider's entry in the tracker's edition.
    .leftJoin(entries, and(eq(entries.userId, trackers.userId), eq(entries.editionId, trackers.editionId)))
    .where(
      and(
        eq(trackers.editionId, editionId),
        eq(trackers.enabled, true),
        opts.riderIds ? inArray(trackers.userId, [...opts.riderIds]) : undefined,
      ),
    )
    .orderBy(entries.riderNumber, users.id);
  if (rows.length === 0) return [];

  const alertIds = rows.flatMap((r) =>
    [r.tracker.stopIncidentId, r.tracker.offRouteIncidentId].filter((x): x is string => x !== null),
  );
  const alerts = new Map(
    alertIds.length === 0
      ? []
      : (
          await db
            .select({ id: incidents.id, status: incidents.status, createdAt: incidents.createdAt })
            .from(incidents)
            .where(inArray(incidents.id, alertIds))
        ).map((a) => [a.id, a]),
  );

  // Each route's line and where the day's stations fall on it, once per read, not per rider.
  const dayStations = await db
    .select({ id: stations.id, name: stations.name, lat: stations.lat, lng: stations.lng, routes: stations.routes })
    .from(stations)
    .where(
      and(
        inEdition(stations.editionId, editionId),
        eq(stations.day, opts.day),
        inArray(stations.kind, [...COURSE_STATION_KINDS]),
        isNotNull(stations.lat),
        isNotNull(stations.lng),
      ),
    );
  const onLine = new Map<RallyRouteId, StationOnLine[] | null>();
  for (const r of rows) {
    const route = routeForCategory(r.rider.category);
    if (!route || onLine.has(route)) continue;
    const line = await routeLineOf(db, editionId, route);
    onLine.set(
      route,
      line && line.points.length > 1
        ? stationsOnLine(
            dayStations.filter((s) => s.routes.length === 0 || s.routes.includes(route)),
            line,
          )
        : null,
    );
  }

  return rows.map(({ tracker: t, rider: { category, ...rider } }) => {
    const route = routeForCategory(category);
    const course = opts.course.get(t.userId);
    const state = trackStateOf(t, opts.now, course?.state);
    const line = route ? (onLine.get(route) ?? null) : null;
    const alongM = line ? t.lastAlongM : null;
    let nextStation: TrackingView['nextStation'] = null;
    if (line && alongM !== null && state !== 'finished' && state !== 'dnf') {
      const ahead = nextStationAhead(line, alongM, course?.nextStationId ?? null);
      if (ahead) {
        // From where the rider was last seen riding; a stopped rider still has it all to ride from now.
        const from = state === 'stopped' || !t.lastAt ? opts.now : t.lastAt;
        nextStation = {
          id: ahead.id,
          name: ahead.name,
          distanceM: Math.round(ahead.distanceM),
          eta: etaAt(from, ahead.distanceM, t.movingSpeed),
        };
      }
    }
    const open = (id: string | null) => {
      const a = id ? alerts.get(id) : undefined;
      return a && a.status !== 'resolved' ? a : null;
    };
    const stop = open(t.stopIncidentId);
    const off = open(t.offRouteIncidentId);
    const alert = stop
      ? { incidentId: stop.id, kind: 'stopped' as const, since: stop.createdAt }
      : off
        ? { incidentId: off.id, kind: 'off_route' as const, since: off.createdAt }
        : null;
    return {
      tracker: t,
      rider,
      route,
      state,
      alongM,
      offRouteM: line ? t.lastOffRouteM : null,
      nextStation,
      lowBattery: t.lastBattery !== null && t.lastBattery <= LOW_BATTERY_PERCENT && t.lastCharging !== true,
      stoppedSince: state === 'stopped' ? t.anchorAt : null,
      alert,
    };
  });
}
