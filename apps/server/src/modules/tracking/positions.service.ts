// Positions in (DESIGN.md §11): one request of Traccar Client, however many positions it
// carries, is one transaction of a fixed handful of round trips: the tracker locked, every
// position in one INSERT (a JSON parameter, whatever the count), "last position" moved only
// forwards, the alerts judged on what is new, and one small event for the board. A valley
// full of riders flushing hours of buffer at once costs a statement per rider, not per point.
import { routeForCategory } from '@rally/shared/catalog/event-day';
import type { Position } from '@rally/shared/contracts/incidents';
import type { PositionEvent, TrackPoint } from '@rally/shared/contracts/tracking';
import { and, eq, inArray, sql } from 'drizzle-orm';
import type { Db, Tx } from '../../db/client';
import { editions } from '../../db/schema/editions';
import { entries } from '../../db/schema/entries';
import { positions, type TrackerRow, trackers } from '../../db/schema/tracking';
import { users } from '../../db/schema/users';
import type { AuthContext } from '../../lib/authorize';
import { AppError, NotFoundError } from '../../lib/errors';
import { publishEvents, type RallyEvent } from '../../lib/event-bus';
import { ownEntry } from '../../lib/riders';
import { rowsOf } from '../../lib/sql-text';
import { sendSos } from '../incidents/incidents.service';
import type { Messenger } from '../messages/messenger';
import { routeLineOf } from '../route-lines/route-lines.service';
import { checkTimes, type OsmandPoint, type OsmandRequest, trackerSosId } from './osmand';
import { type AlertThresholds, judgeTracker, type NewPosition, type TrackerAlertState } from './tracking-alerts';

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

/** The trackers behind these ids, enabled and of the current edition, locked in one order. */
async function lockTrackers(tx: Tx, trackingIds: readonly string[]) {
  return (
    tx
      .select({
        tracker: trackers,
        editionName: editions.name,
        startsOn: editions.startsOn,
        riderNumber: entries.riderNumber,
        category: entries.category,
      })
      .from(trackers)
      .innerJoin(editions, and(eq(editions.id, trackers.editionId), eq(editions.current, true)))
      // The number and category are the entry's, in the tracker's own edition.
      .leftJoin(entries, and(eq(entries.userId, trackers.userId), eq(entries.editionId, trackers.editionId)))
      .where(and(inArray(trackers.trackingId, [...trackingIds]), eq(trackers.enabled, true)))
      // Two instances' batches lock their riders in the same order: neither waits on the other in a circle.
      .orderBy(trackers.userId)
      .for('update', { of: trackers })
  );
}

/** A batch's points by time, one per instant (a batch may repeat one), oldest first. */
function distinctByTime(points: readonly OsmandPoint[]): OsmandPoint[] {
  const byTime = new Map<number, OsmandPoint>();
  for (const p of points) if (!byTime.has(p.at.getTime())) byTime.set(p.at.getTime(), p);
  return [...byTime.values()].sort((a, b) => a.at.getTime() - b.at.getTime());
}

const newPositionOf = (p: OsmandPoint): NewPosition => ({
  at: p.at,
  lat: p.lat,
  lng: p.lng,
  speed: p.speed,
  accuracy: p.accuracy,
  battery: p.battery,
  charging: p.charging,
});

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

type IngestDeps = { now: Date; messenger: Messenger; thresholds?: AlertThresholds };

interface Job {
  request: OsmandRequest;
  points: OsmandPoint[];
  /** The request's own clock reading and settings. */
  deps: IngestDeps;
  resolve(result: Omit<IngestResult, 'sos' | 'sosRefused'> & { tracker: TrackerRow }): void;
  reject(err: unknown): void;
}

type Locked = Awaited<ReturnType<typeof lockTrackers>>[number];
/** A batch's requests of one rider. */
interface TrackerGroup {
  found: Locked;
  jobs: Job[];
}

/** Requests waiting for the next batch, per database handle; one batch at a time runs. */
interface Queue {
  waiting: Job[];
  running: boolean;
}
const queues = new WeakMap<Db, Queue>();
/** Requests per batch: enough to share the round trips, few enough to keep a batch short. */
const MAX_BATCH = 200;

/**
 * Stores a request's positions (all or, for a malformed one, none) and answers what it did.
 * Throws 404 for an unknown or disabled id, 400 for a time out of bounds.
 *
 * Group commit: Traccar Client's Android app sends one position per request, also when it
 * empties hours of buffer, and a valley of riders coming back into coverage does it at once.
 * Requests that arrive while a batch is being written wait for the next one, and a batch is
 * one transaction of a fixed handful of statements (the trackers locked, every position in
 * one INSERT, every last position moved in one UPDATE, the events in one NOTIFY) plus one
 * statement per rider for the alerts' state. A lone request is a batch of one at once: no
 * waiting is added. Each request keeps its own answer: an unknown id or a bad time refuses
 * that request only.
 */
export async function ingestPositions(db: Db, request: OsmandRequest, deps: IngestDeps): Promise<IngestResult> {
  const points = distinctByTime(request.points);
  const done = await new Promise<Omit<IngestResult, 'sos' | 'sosRefused'> & { tracker: TrackerRow }>(
    (resolve, reject) => {
      let queue = queues.get(db);
      if (!queue) {
        queue = { waiting: [], running: false };
        queues.set(db, queue);
      }
      queue.waiting.push({ request, points, deps, resolve, reject });
      if (!queue.running) void drain(db, queue);
    },
  );
  const alarm = points.filter((p) => p.sos).at(-1);
  if (!alarm) return { stored: done.stored, fresh: done.fresh, sos: null, sosRefused: null };
  const sos = await trackerSos(db, done.tracker, request.trackingId, alarm, deps.messenger);
  return { stored: done.stored, fresh: done.fresh, ...sos };
}

async function drain(db: Db, queue: Queue): Promise<void> {
  queue.running = true;
  try {
    while (queue.waiting.length > 0) {
      // Let the requests already on the wire be read first: the embedded database runs a
      // transaction without giving way to the network, so without this turn every batch
      // would hold the one request that started it.
      await new Promise((turn) => setImmediate(turn));
      const jobs = queue.waiting.splice(0, MAX_BATCH);
      try {
        await writeBatch(db, jobs);
      } catch (err) {
        if (jobs.length === 1) {
          (jobs[0] as Job).reject(err);
          continue;
        }
        // One request's trouble (or the database's) must not answer for the others: each
        // is tried again alone and gets its own answer.
        for (const job of jobs) await writeBatch(db, [job]).catch((e) => job.reject(e));
      }
    }
  } finally {
    queue.running = false;
  }
}

/** One transaction for the batch; resolves or rejects every job once it has committed. */
async function writeBatch(db: Db, jobs: readonly Job[]): Promise<void> {
  // The batch's clock is its newest request's; its settings are the same for every request.
  const deps: IngestDeps = {
    ...(jobs[0] as Job).deps,
    now: new Date(Math.max(...jobs.map((j) => j.deps.now.getTime()))),
  };
  const answers = await db.transaction(async (tx) => {
    const found = new Map(
      (await lockTrackers(tx, [...new Set(jobs.map((j) => j.request.trackingId))])).map((f) => [
        f.tracker.trackingId,
        f,
      ]),
    );
    // Each job's own verdict first: an unknown id or a time out of bounds refuses it alone.
    const refused = new Map<Job, unknown>();
    const trackerOf = new Map<Job, TrackerRow>();
    const byTracker = new Map<string, TrackerGroup>();
    for (const job of jobs) {
      const f = found.get(job.request.trackingId);
      if (!f) {
        refused.set(job, unknownTracker());
        continue;
      }
      try {
        checkTimes(job.points, job.deps.now, editionStart(f.startsOn), f.editionName);
      } catch (err) {
        refused.set(job, err);
        continue;
      }
      trackerOf.set(job, f.tracker);
      const group = byTracker.get(f.tracker.trackingId) ?? { found: f, jobs: [] };
      group.jobs.push(job);
      byTracker.set(f.tracker.trackingId, group);
    }
    if (byTracker.size === 0)
      return { refused, trackerOf, stored: new Map<Job, number>(), fresh: new Map<Job, number>() };

    const rows = [...byTracker.values()].flatMap(({ found: f, jobs: js }) =>
      distinctByTime(js.flatMap((j) => j.points)).map((p) => ({
        e: f.tracker.editionId,
        u: f.tracker.userId,
        at: p.at.toISOString(),
        lat: p.lat,
        lng: p.lng,
        speed: p.speed,
        bearing: p.bearing,
        altitude: p.altitude,
        accuracy: p.accuracy,
        battery: p.battery,
        charging: p.charging,
      })),
    );
    // One statement whatever the batch: the rows travel as one JSON parameter (both drivers
    // pass it alike, and no batch nears the protocol's 65,535 parameters). A position already
    // stored (the app's resend) is the same position: nothing happens to it.
    const inserted = rowsOf<{ u: string; ms: number | string }>(
      await tx.execute(sql`
        insert into ${positions} (edition_id, user_id, at, lat, lng, speed, bearing, altitude, accuracy, battery, charging)
        select r.e, r.u, r.at, r.lat, r.lng, r.speed, r.bearing, r.altitude, r.accuracy, r.battery, r.charging
        from jsonb_to_recordset(${JSON.stringify(rows)}::jsonb) as r(
          e uuid, u uuid, at timestamptz, lat float8, lng float8, speed float8, bearing float8, altitude float8,
          accuracy float8, battery float8, charging boolean)
        on conflict do nothing
        returning user_id::text as u, (extract(epoch from at) * 1000)::float8 as ms`),
    );
    const storedOf = new Map<string, Set<number>>();
    for (const r of inserted) {
      const set = storedOf.get(r.u) ?? new Set<number>();
      set.add(Math.round(Number(r.ms)));
      storedOf.set(r.u, set);
    }

    // Each rider's fresh positions (newer than their last: a late buffer flush is stored, never
    // judged, and never moves the last position backwards), their last moved in one statement.
    const stored = new Map<Job, number>();
    const fresh = new Map<Job, number>();
    const moves: Array<{ group: TrackerGroup; news: OsmandPoint[] }> = [];
    for (const group of byTracker.values()) {
      const { tracker } = group.found;
      const got = storedOf.get(tracker.userId) ?? new Set<number>();
      const previous = tracker.lastAt?.getTime() ?? Number.NEGATIVE_INFINITY;
      const claimed = new Set<number>();
      for (const job of group.jobs) {
        // A position two requests of one batch carry (a resend racing its original) is the first's.
        const mine = job.points.filter((p) => got.has(p.at.getTime()) && !claimed.has(p.at.getTime()));
        for (const p of mine) claimed.add(p.at.getTime());
        stored.set(job, mine.length);
        fresh.set(job, mine.filter((p) => p.at.getTime() > previous).length);
      }
      const news = distinctByTime(group.jobs.flatMap((j) => j.points)).filter(
        (p) => got.has(p.at.getTime()) && p.at.getTime() > previous,
      );
      if (news.length > 0) moves.push({ group, news });
    }
    if (moves.length === 0) return { refused, trackerOf, stored, fresh };
    // The alerts, rider by rider (their state is on each tracker row); each route line read once.
    const lines = new Map<string, Awaited<ReturnType<typeof routeLineOf>>>();
    const events: RallyEvent[] = [];
    const rowsAfter: Record<string, unknown>[] = [];
    for (const { group, news } of moves) {
      const { tracker, category, riderNumber } = group.found;
      const route = routeForCategory(category);
      const key = `${tracker.editionId}:${route}`;
      if (route && !lines.has(key)) lines.set(key, await routeLineOf(tx, tracker.editionId, route));
      const newest = news.at(-1) as OsmandPoint;
      const moved: TrackerRow = {
        ...tracker,
        lastLat: newest.lat,
        lastLng: newest.lng,
        lastAt: newest.at,
        lastSpeed: newest.speed,
        lastAccuracy: newest.accuracy,
        lastBattery: newest.battery,
        lastCharging: newest.charging,
        updatedAt: deps.now,
      };
      const before =
        tracker.lastAt && tracker.lastLat !== null && tracker.lastLng !== null
          ? { at: tracker.lastAt, lat: tracker.lastLat, lng: tracker.lastLng }
          : null;
      // The alert state as the judging leaves it (as it was, should it leave it alone).
      let state: TrackerAlertState = tracker;
      const judgement = await judgeTracker(
        tx,
        moved,
        news.map(newPositionOf),
        deps.now,
        deps.messenger,
        deps.thresholds,
        {
          category,
          before,
          line: route ? (lines.get(key) ?? null) : null,
          deferWrite: (judged) => {
            state = judged;
          },
        },
      );
      // One event per rider per batch, however many positions: the board redraws them once.
      const event: PositionEvent = {
        userId: tracker.userId,
        riderNumber,
        state: judgement.state,
        last: trackPointOf(newest),
        alongM: judgement.alongM,
      };
      events.push({ type: 'position', data: event as unknown as Record<string, unknown> });
      rowsAfter.push({
        e: tracker.editionId,
        u: tracker.userId,
        at: newest.at.toISOString(),
        lat: newest.lat,
        lng: newest.lng,
        speed: newest.speed,
        accuracy: newest.accuracy,
        battery: newest.battery,
        charging: newest.charging,
        anchor_lat: state.anchorLat,
        anchor_lng: state.anchorLng,
        anchor_at: state.anchorAt?.toISOString() ?? null,
        stop_dismissed: state.stopDismissed,
        off_route_streak: state.offRouteStreak,
        off_route: state.offRoute,
        moving_speed: state.movingSpeed,
        along: state.lastAlongM,
        off_m: state.lastOffRouteM,
        stop_incident: state.stopIncidentId,
        off_route_incident: state.offRouteIncidentId,
      });
    }
    // Every rider's last position and alert state in one statement.
    await tx.execute(sql`
      update ${trackers} t set last_lat = n.lat, last_lng = n.lng, last_at = n.at, last_speed = n.speed,
        last_accuracy = n.accuracy, last_battery = n.battery, last_charging = n.charging,
        anchor_lat = n.anchor_lat, anchor_lng = n.anchor_lng, anchor_at = n.anchor_at,
        stop_dismissed = n.stop_dismissed, off_route_streak = n.off_route_streak, off_route = n.off_route,
        moving_speed = n.moving_speed, last_along_m = n.along, last_off_route_m = n.off_m,
        stop_incident_id = n.stop_incident, off_route_incident_id = n.off_route_incident,
        updated_at = ${deps.now.toISOString()}::timestamptz
      from jsonb_to_recordset(${JSON.stringify(rowsAfter)}::jsonb) as n(
        e uuid, u uuid, at timestamptz, lat float8, lng float8, speed float8, accuracy float8, battery float8,
        charging boolean, anchor_lat float8, anchor_lng float8, anchor_at timestamptz, stop_dismissed boolean,
        off_route_streak int, off_route boolean, moving_speed float8, along float8, off_m float8,
        stop_incident uuid, off_route_incident uuid)
      where t.edition_id = n.e and t.user_id = n.u`);
    await publishEvents(tx, events);
    return { refused, trackerOf, stored, fresh };
  });
  for (const job of jobs) {
    const tracker = answers.trackerOf.get(job);
    if (answers.refused.has(job) || !tracker) job.reject(answers.refused.get(job) ?? unknownTracker());
    else job.resolve({ stored: answers.stored.get(job) ?? 0, fresh: answers.fresh.get(job) ?? 0, tracker });
  }
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
      verificationStatus: entries.status,
    })
    .from(users)
    .leftJoin(entries, ownEntry)
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
