// A rider's state on one event day, derived from their
// passages, their route's rules and the latest staff decision, at a given moment. Pure:
// the loader reads the rows once (course.service.ts) and every read (board, overdue list,
// timeline, the public tracker) derives from the same function, so none disagrees.
import type { CourseStateName, DnfReasonName, RallyRouteId, StationKindName } from '@rally/shared/catalog/event-day';
import { DEFAULT_OVERDUE_AFTER_MINUTES, routeForCategory } from '@rally/shared/catalog/event-day';
import type { StationRule } from '../../db/schema/course';

export interface CourseStation {
  id: string;
  name: string;
  kind: StationKindName;
  day: number;
  order: number;
  /** Empty: every route. */
  routes: readonly string[];
  required: boolean;
}

export interface RouteRules {
  overdueAfterMinutes: number;
  stations: Map<string, StationRule>;
}

export interface CourseRider {
  id: string;
  riderNumber: number | null;
  kitName: string | null;
  firstName: string;
  lastName: string;
  category: string | null;
}

export interface Decision {
  decision: 'dnf' | 'dns' | 'clear';
  reason: DnfReasonName | null;
  note: string;
  decidedAt: Date;
  decidedByName: string | null;
}

export interface StationRef {
  id: string;
  name: string;
}

export interface CourseState {
  riderId: string;
  riderNumber: number | null;
  kitName: string | null;
  firstName: string;
  lastName: string;
  category: string | null;
  route: RallyRouteId | null;
  day: number;
  state: CourseStateName;
  lastStation: StationRef | null;
  lastSeenAt: Date | null;
  startedAt: Date | null;
  finishedAt: Date | null;
  /** Finishers: finish time minus start time. */
  elapsedMs: number | null;
  /** DNF and DNS: why (staff decisions carry one; DNS has none). */
  dnfReason: DnfReasonName | null;
  /** The station whose cutoff was missed, or the required stations missed. */
  dnfStations: StationRef[];
  /** A staff decision in force: its note, who and when. */
  decision: Omit<Decision, 'decision'> | null;
  /** On course: the next station and when the rider was due there (start + the rule's minutes). */
  nextStation: StationRef | null;
  dueAt: Date | null;
  /** When the rider turns overdue (due + grace): a board flips them then, without asking again. */
  overdueAt: Date | null;
  /** On course: the earliest cutoff still ahead of the rider (they turn DNF then unless they pass it). */
  nextCutoffAt: Date | null;
  overdue: boolean;
  /** How long past due + grace; 0 unless overdue. */
  overdueMs: number;
  /** Station ids with a passage (the earliest time at each). */
  passed: Map<string, Date>;
  /** The highest `order` among the day's stations passed; null before the first passage. */
  highestOrder: number | null;
}

export const ref = (s: CourseStation): StationRef => ({ id: s.id, name: s.name });

/** The day's stations a route rides, in order. */
export function stationsOfRoute(stations: readonly CourseStation[], route: string | null): CourseStation[] {
  return stations
    .filter((s) => s.routes.length === 0 || (route !== null && s.routes.includes(route)))
    .sort((a, b) => a.order - b.order || a.name.localeCompare(b.name));
}

export function effectiveRequired(station: CourseStation, rules: RouteRules | undefined): boolean {
  return rules?.stations.get(station.id)?.required ?? station.required;
}

function cutoffOf(station: CourseStation, rules: RouteRules | undefined): Date | null {
  const at = rules?.stations.get(station.id)?.cutoffAt;
  return at ? new Date(at) : null;
}

export function deriveState(input: {
  rider: CourseRider;
  day: number;
  /** The day's course stations (every route). */
  stations: readonly CourseStation[];
  rules: Map<string, RouteRules>;
  passages: ReadonlyArray<{ stationId: string; scannedAt: Date }>;
  decision: Decision | null;
  now: Date;
}): CourseState {
  const { rider, day, now } = input;
  const route = routeForCategory(rider.category);
  const own = stationsOfRoute(input.stations, route);
  const byId = new Map(input.stations.map((s) => [s.id, s]));
  const rules = route ? input.rules.get(route) : undefined;

  const passed = new Map<string, Date>();
  let last: { station: CourseStation; at: Date } | null = null;
  for (const p of input.passages) {
    const station = byId.get(p.stationId);
    if (!station) continue;
    const first = passed.get(station.id);
    if (!first || p.scannedAt < first) passed.set(station.id, p.scannedAt);
    if (!last || p.scannedAt > last.at || (+p.scannedAt === +last.at && station.order > last.station.order)) {
      last = { station, at: p.scannedAt };
    }
  }
  const passedStations = [...passed.keys()].flatMap((id) => byId.get(id) ?? []);
  const startStation = passedStations.find((s) => s.kind === 'start');
  const startedAt = startStation
    ? (passed.get(startStation.id) ?? null)
    : passed.size > 0
      ? new Date(Math.min(...[...passed.values()].map(Number)))
      : null;
  const finishStation = passedStations.find((s) => s.kind === 'finish');
  const finishedAt = finishStation ? (passed.get(finishStation.id) ?? null) : null;

  const state: CourseState = {
    riderId: rider.id,
    riderNumber: rider.riderNumber,
    kitName: rider.kitName,
    firstName: rider.firstName,
    lastName: rider.lastName,
    category: rider.category,
    route,
    day,
    state: 'not_started',
    lastStation: last ? ref(last.station) : null,
    lastSeenAt: last?.at ?? null,
    startedAt,
    finishedAt: null,
    elapsedMs: null,
    dnfReason: null,
    dnfStations: [],
    decision: null,
    nextStation: null,
    dueAt: null,
    overdueAt: null,
    nextCutoffAt: null,
    overdue: false,
    overdueMs: 0,
    passed,
    highestOrder: passedStations.length > 0 ? Math.max(...passedStations.map((s) => s.order)) : null,
  };

  const decision = input.decision;
  if (decision && decision.decision !== 'clear') {
    const { decision: kind, ...rest } = decision;
    state.decision = rest;
    state.state = kind;
    state.dnfReason = kind === 'dnf' ? (decision.reason ?? 'staff') : decision.reason;
    return state;
  }
  if (passed.size === 0) return state;

  // A passage after its station's cutoff, or a cutoff gone by before the rider got there.
  const highestOrder = state.highestOrder ?? Number.NEGATIVE_INFINITY;
  for (const station of own) {
    const cutoff = cutoffOf(station, rules);
    if (!cutoff) continue;
    const at = passed.get(station.id);
    const late = at ? at > cutoff : now > cutoff && station.order > highestOrder && !finishedAt;
    if (late) {
      state.state = 'dnf';
      state.dnfReason = 'missed_cutoff';
      state.dnfStations = [ref(station)];
      return state;
    }
  }

  if (finishedAt) {
    const missing = own.filter((s) => effectiveRequired(s, rules) && !passed.has(s.id));
    if (missing.length > 0) {
      state.state = 'dnf';
      state.dnfReason = 'missed_required';
      state.dnfStations = missing.map(ref);
      return state;
    }
    state.state = 'finished';
    state.finishedAt = finishedAt;
    state.elapsedMs = startedAt ? finishedAt.getTime() - startedAt.getTime() : null;
    return state;
  }

  state.state = 'on_course';
  for (const station of own) {
    const cutoff = cutoffOf(station, rules);
    if (cutoff && station.order > highestOrder && (!state.nextCutoffAt || cutoff < state.nextCutoffAt)) {
      state.nextCutoffAt = cutoff;
    }
  }
  const next = own.find((s) => s.order > highestOrder && !passed.has(s.id));
  if (next) {
    state.nextStation = ref(next);
    const dueMinutes = rules?.stations.get(next.id)?.dueMinutes;
    if (dueMinutes != null && startedAt) {
      state.dueAt = new Date(startedAt.getTime() + dueMinutes * 60_000);
      const grace = (rules?.overdueAfterMinutes ?? DEFAULT_OVERDUE_AFTER_MINUTES) * 60_000;
      state.overdueAt = new Date(state.dueAt.getTime() + grace);
      const past = now.getTime() - state.overdueAt.getTime();
      if (past > 0) {
        state.overdue = true;
        state.overdueMs = past;
      }
    }
  }
  return state;
}

/** Where a rider stands at one station of the board. */
export function bucketAt(state: CourseState, station: CourseStation) {
  if (state.passed.has(station.id)) return 'passed' as const;
  const beyond = state.state === 'finished' || (state.highestOrder !== null && state.highestOrder > station.order);
  if (beyond) return 'missed' as const;
  if (state.state === 'dnf') return 'dnf' as const;
  if (state.state === 'dns') return 'dns' as const;
  return 'expected' as const;
}
