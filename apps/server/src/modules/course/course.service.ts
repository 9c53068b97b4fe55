// Course reads: every verified rider's state on an event day, the control board's counts
// per station and the riders behind each count. One loader reads the day's rows (stations,
// rules, riders, passages, decisions) in a few indexed queries; everything else derives
// from them in memory (course-state.ts), at the moment the caller names (`now`). Each reads
// one edition's rows: the one a staff read names (`edition`), else the current one.
import { type BoardBucket, COURSE_STATION_KINDS, DEFAULT_OVERDUE_AFTER_MINUTES } from '@rally/shared/catalog/event-day';
import { and, asc, desc, eq, inArray, max, min, type SQL } from 'drizzle-orm';
import { PgTransaction } from 'drizzle-orm/pg-core';
import type { DbOrTx } from '../../db/client';
import { courseDecisions, courseRules } from '../../db/schema/course';
import { entries } from '../../db/schema/entries';
import { scans, stations } from '../../db/schema/event-day';
import { users } from '../../db/schema/users';
import { type EditionRead, inEdition } from '../../lib/edition-of';
import { entryIn, isVerifiedRider, namedRiderColumns } from '../../lib/riders';
import {
  bucketAt,
  type CourseRider,
  type CourseState,
  type CourseStation,
  type Decision,
  deriveState,
  type RouteRules,
} from './course-state';
import { countsAsPassage } from './passages';
import { applyTracking } from './tracking-overlay';

const onCourse = inArray(stations.kind, [...COURSE_STATION_KINDS]);

/** A scan's station: the same id in the scan's own edition (a station keeps its id across editions). */
const stationOfScan = and(eq(stations.id, scans.stationId), eq(stations.editionId, scans.editionId));

/** The event day the board opens on: the latest with a passage, else the first with stations, else 1. */
export async function currentDay(db: DbOrTx, edition?: EditionRead): Promise<number> {
  const [withPassage] = await db
    .select({ day: max(stations.day) })
    .from(scans)
    .innerJoin(stations, stationOfScan)
    .where(and(inEdition(scans.editionId, edition), countsAsPassage, onCourse));
  if (withPassage?.day != null) return withPassage.day;
  const [first] = await db
    .select({ day: min(stations.day) })
    .from(stations)
    .where(and(inEdition(stations.editionId, edition), onCourse));
  return first?.day ?? 1;
}

export async function loadRules(db: DbOrTx, edition?: EditionRead): Promise<Map<string, RouteRules>> {
  const rows = await db.select().from(courseRules).where(inEdition(courseRules.editionId, edition));
  return new Map(
    rows.map((r) => [
      r.routeId,
      { overdueAfterMinutes: r.overdueAfterMinutes, stations: new Map(r.stations.map((s) => [s.stationId, s])) },
    ]),
  );
}

export function defaultRules(): RouteRules {
  return { overdueAfterMinutes: DEFAULT_OVERDUE_AFTER_MINUTES, stations: new Map() };
}

/** The course's stations (start, checkpoints, finish), of one day or of every day, in course order. */
export async function loadCourseStations(db: DbOrTx, day?: number, edition?: EditionRead): Promise<CourseStation[]> {
  return db
    .select({
      id: stations.id,
      name: stations.name,
      kind: stations.kind,
      day: stations.day,
      order: stations.order,
      routes: stations.routes,
      required: stations.required,
    })
    .from(stations)
    .where(and(inEdition(stations.editionId, edition), day === undefined ? undefined : eq(stations.day, day), onCourse))
    .orderBy(asc(stations.day), asc(stations.order), asc(stations.name));
}

const riderColumns = { ...namedRiderColumns, category: entries.category };

async function loadRiders(db: DbOrTx, riderIds?: readonly string[], edition?: EditionRead): Promise<CourseRider[]> {
  const conditions: Array<SQL | undefined> = [isVerifiedRider, eq(users.status, 'active')];
  if (riderIds) conditions.push(inArray(users.id, [...riderIds]));
  return db
    .select(riderColumns)
    .from(users)
    .innerJoin(entries, entryIn(edition))
    .where(and(...conditions))
    .orderBy(asc(entries.riderNumber), asc(users.id));
}

async function loadPassages(db: DbOrTx, day: number, riderIds?: readonly string[], edition?: EditionRead) {
  const rows = await db
    .select({ riderId: scans.riderId, stationId: scans.stationId, scannedAt: scans.scannedAt })
    .from(scans)
    .innerJoin(stations, stationOfScan)
    .where(
      and(
        inEdition(scans.editionId, edition),
        countsAsPassage,
        eq(stations.day, day),
        onCourse,
        riderIds ? inArray(scans.riderId, [...riderIds]) : undefined,
      ),
    );
  const byRider = new Map<string, Array<{ stationId: string; scannedAt: Date }>>();
  for (const r of rows) {
    if (!r.riderId) continue;
    const list = byRider.get(r.riderId) ?? [];
    byRider.set(r.riderId, list);
    list.push({ stationId: r.stationId, scannedAt: r.scannedAt });
  }
  return byRider;
}

/** The decision in force per rider: the latest of the day. */
export async function loadDecisions(db: DbOrTx, day: number, riderIds?: readonly string[], edition?: EditionRead) {
  const rows = await db
    .selectDistinctOn([courseDecisions.riderId], {
      riderId: courseDecisions.riderId,
      decision: courseDecisions.decision,
      reason: courseDecisions.reason,
      note: courseDecisions.note,
      decidedAt: courseDecisions.decidedAt,
      decidedByName: courseDecisions.decidedByName,
    })
    .from(courseDecisions)
    .where(
      and(
        inEdition(courseDecisions.editionId, edition),
        eq(courseDecisions.day, day),
        riderIds ? inArray(courseDecisions.riderId, [...riderIds]) : undefined,
      ),
    )
    .orderBy(courseDecisions.riderId, desc(courseDecisions.recordedAt), desc(courseDecisions.id));
  return new Map<string, Decision>(rows.map(({ riderId, ...d }) => [riderId, d]));
}

/**
 * Runs independent reads side by side on the pool; inside a transaction (one connection)
 * one after the other, as node-postgres deprecates overlapping queries on a client.
 */
async function queries<T extends readonly unknown[]>(
  db: DbOrTx,
  thunks: { readonly [K in keyof T]: () => Promise<T[K]> },
): Promise<T> {
  if (!(db instanceof PgTransaction)) return (await Promise.all(thunks.map((f) => f()))) as unknown as T;
  const out: unknown[] = [];
  for (const f of thunks) out.push(await f());
  return out as unknown as T;
}

export interface CourseSnapshot {
  day: number;
  stations: CourseStation[];
  rules: Map<string, RouteRules>;
  states: CourseState[];
}

/**
 * The day's course: its stations and every verified rider's state at `now` (or only the
 * riders named). The one read the board, the overdue list, the timeline and the public
 * tracker build on.
 */
export async function courseSnapshot(db: DbOrTx, opts: SnapshotOptions): Promise<CourseSnapshot> {
  const { edition } = opts;
  const day = opts.day ?? (await currentDay(db, edition));
  const [stationsOfDay, rulesOfRoutes, riderRows, passages, decisions] = await queries(db, [
    () => loadCourseStations(db, day, edition),
    () => loadRules(db, edition),
    () => loadRiders(db, opts.riderIds, edition),
    () => loadPassages(db, day, opts.riderIds, edition),
    () => loadDecisions(db, day, opts.riderIds, edition),
  ] as const);
  const states = riderRows.map((rider) =>
    deriveState({
      rider,
      day,
      stations: stationsOfDay,
      rules: rulesOfRoutes,
      passages: passages.get(rider.id) ?? [],
      decision: decisions.get(rider.id) ?? null,
      now: opts.now,
    }),
  );
  // Trackers move due times (the ETA) and make a stopped rider overdue at once
  // (tracking-overlay.ts). They say where riders are now: an earlier day is the scans' alone.
  if (opts.tracking !== false && (opts.day === undefined || opts.day === (await currentDay(db, edition))))
    await applyTracking(db, { day, rules: rulesOfRoutes, states }, opts.now, edition);
  return { day, stations: stationsOfDay, rules: rulesOfRoutes, states };
}

export interface SnapshotOptions {
  now: Date;
  day?: number;
  riderIds?: readonly string[];
  /** false: the scans alone, without what trackers say (the tracker alerts ask this). */
  tracking?: boolean;
  /** The edition read: a past one a staff read names, or undefined for the current one. */
  edition?: EditionRead;
}

/** Every verified rider's course state on the day (default: the current day), by rider number. */
export async function listCourseStates(db: DbOrTx, opts: SnapshotOptions): Promise<CourseState[]> {
  return (await courseSnapshot(db, opts)).states;
}

export interface BoardRow {
  stationId: string;
  name: string;
  kind: CourseStation['kind'];
  day: number;
  order: number;
  routes: string[];
  expected: number;
  passed: number;
  missed: number;
  overdue: number;
  dnf: number;
  dns: number;
}

function servedBy(station: CourseStation, state: CourseState): boolean {
  return station.routes.length === 0 || (state.route !== null && station.routes.includes(state.route));
}

/** Counts per station: each rider the station serves is in one of passed, missed, dnf, dns, expected; overdue ⊂ expected. */
export function boardOf(snapshot: CourseSnapshot): BoardRow[] {
  return snapshot.stations.map((station) => {
    const row: BoardRow = {
      stationId: station.id,
      name: station.name,
      kind: station.kind,
      day: station.day,
      order: station.order,
      routes: [...station.routes],
      expected: 0,
      passed: 0,
      missed: 0,
      overdue: 0,
      dnf: 0,
      dns: 0,
    };
    for (const state of snapshot.states) {
      if (!servedBy(station, state)) continue;
      const bucket = bucketAt(state, station);
      row[bucket]++;
      if (bucket === 'expected' && state.overdue && state.nextStation?.id === station.id) row.overdue++;
    }
    return row;
  });
}

/** The riders behind one count of the board. */
export function ridersInBucket(snapshot: CourseSnapshot, stationId: string, bucket: BoardBucket): CourseState[] {
  const station = snapshot.stations.find((s) => s.id === stationId);
  if (!station) return [];
  return snapshot.states.filter((state) => {
    if (!servedBy(station, state)) return false;
    const at = bucketAt(state, station);
    if (bucket === 'overdue') return at === 'expected' && state.overdue && state.nextStation?.id === station.id;
    return at === bucket;
  });
}

/** Overdue riders, the longest overdue first: the list a marshal calls down. */
export function overdueOf(states: readonly CourseState[]): CourseState[] {
  return states
    .filter((s) => s.overdue)
    .sort(
      (a, b) => (a.dueAt?.getTime() ?? 0) - (b.dueAt?.getTime() ?? 0) || (a.riderNumber ?? 0) - (b.riderNumber ?? 0),
    );
}
