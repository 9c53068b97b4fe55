// The tracking board (DESIGN.md §11): every tracked rider's state, along, next station and
// ETA; a rider's track; dismissing is in tracking-alerts.test.ts. handle_incidents only.
import { randomUUID } from 'node:crypto';
import { distanceM } from '@rally/shared/geo';
import { eq } from 'drizzle-orm';
import { beforeEach, describe, expect, it } from 'vitest';
import { positions, trackers } from '../../db/schema/tracking';
import { DB_KINDS, useTestApp } from '../../test/build-app';
import { approvedRider, injectAs } from '../../test/factories';
import { currentEdition } from '../editions/editions.service';
import { MAX_MOVING_SPEED_MS, MIN_MOVING_SPEED_MS } from '../trackers/eta';
import {
  everyMinute,
  feed,
  KM_PER_CENTI,
  MIN,
  pass,
  putTestCourse,
  stay,
  type TestStations,
  trackedRider,
} from './tracking-test-rides';

interface Row {
  userId: string;
  state: string;
  alongM: number | null;
  offRouteM: number | null;
  movingSpeed: number | null;
  nextStation: { id: string; name: string; distanceM: number; eta: string | null } | null;
  lowBattery: boolean;
  stoppedSince: string | null;
  alert: { incidentId: string; kind: string; since: string } | null;
  last: { at: string; lat: number; lng: number; battery: number | null } | null;
  riderNumber: number | null;
}

describe.each(DB_KINDS)('tracking board (%s)', (kind) => {
  const t = useTestApp(kind, 'admin', 'marshall', 'officer');
  const { admin, marshall, officer } = t.staff;
  const st = {} as TestStations;
  let ready: Promise<void> | null = null;
  // Each test on the real clock unless it fixes its own.
  beforeEach(() => {
    t.app.clock.now = () => new Date();
  });

  /** The line and the stations, once per database (each test makes its own riders). */
  function course() {
    ready ??= (async () => {
      Object.assign(st, await putTestCourse(t.app, t.database.db, admin));
    })();
    return ready;
  }

  async function rider(minutesAgo: number) {
    const r = await trackedRider(t.app, t.database.db, admin);
    const start = Date.now() - minutesAgo * MIN;
    await pass(t.app, marshall, r, st.start, new Date(start));
    return { ...r, start };
  }

  async function board(): Promise<Row[]> {
    const res = await injectAs(t.app, marshall, 'GET', '/api/admin/tracking/riders');
    expect(res.statusCode, res.body).toBe(200);
    return res.json().data;
  }

  it('lists each tracked rider: state, distance along, the next station and its ETA, battery, the alert', async () => {
    await course();
    const now = Date.now();
    t.app.clock.now = () => new Date(now);

    // Moving east at 0.01° a minute, last seen a minute ago 10 centi-degrees along.
    const moving = await rider(60);
    const m0 = now - 6 * MIN;
    await feed(t.database.db, t.app, moving.userId, everyMinute(m0, [125.05, 125.06, 125.07, 125.08, 125.09, 125.1]));
    // Stopped 8 minutes (no alert yet), battery low.
    const stopped = await rider(60);
    const s0 = now - 10 * MIN;
    await feed(t.database.db, t.app, stopped.userId, everyMinute(s0, [125.15, 125.16]));
    await feed(
      t.database.db,
      t.app,
      stopped.userId,
      stay(s0 + 2 * MIN, 125.17, 8).map((f) => ({ ...f, battery: 12 })),
    );
    // Last heard from 25 minutes ago.
    const quiet = await rider(60);
    await feed(t.database.db, t.app, quiet.userId, everyMinute(now - 27 * MIN, [125.2, 125.21, 125.22]));
    // Three positions 900 m off the line.
    const lost = await rider(60);
    await feed(t.database.db, t.app, lost.userId, everyMinute(now - 4 * MIN, [125.23, 125.24, 125.25], 8.008));
    // Finished (scans), and DNF (staff).
    const done = await rider(120);
    await pass(t.app, marshall, done, st.cp, new Date(done.start + 40 * MIN));
    await pass(t.app, marshall, done, st.finish, new Date(done.start + 80 * MIN));
    await feed(t.database.db, t.app, done.userId, everyMinute(now - 3 * MIN, [125.5, 125.51]));
    const out = await rider(60);
    await feed(t.database.db, t.app, out.userId, everyMinute(now - 3 * MIN, [125.12, 125.13]));
    const dnf = await injectAs(t.app, admin, 'POST', `/api/admin/event/riders/${out.userId}/decision`, {
      decision: 'dnf',
      reason: 'withdrew',
      note: 'Engine seized',
    });
    expect(dnf.statusCode, dnf.body).toBe(200);
    // Tracking switched off: not on the board. A rider who never opted in: neither.
    const off = await rider(60);
    await t.database.db.update(trackers).set({ enabled: false }).where(eq(trackers.userId, off.userId));
    const never = await approvedRider(t.app, admin);

    const rows = await board();
    const byId = new Map(rows.map((r) => [r.userId, r]));
    expect(byId.has(off.userId)).toBe(false);
    expect(byId.has(never.userId)).toBe(false);

    const m = byId.get(moving.userId) as Row;
    const speed = KM_PER_CENTI / 60;
    const lastAt = m0 + 5 * MIN;
    expect(m).toMatchObject({ state: 'moving', riderNumber: moving.riderNumber, lowBattery: false, alert: null });
    expect(m.last).toMatchObject({ at: new Date(lastAt).toISOString(), lat: 8, lng: 125.1, battery: 80 });
    expect(m.alongM).toBeCloseTo(10 * KM_PER_CENTI, -1);
    expect(m.offRouteM).toBe(0);
    expect(m.movingSpeed).toBeCloseTo(speed, 0);
    // 20 centi-degrees to Valencia CP at 18.4 m/s: 20 minutes after the last position.
    expect(m.nextStation).toMatchObject({ id: st.cp, name: 'Valencia CP' });
    expect(m.nextStation?.distanceM).toBeCloseTo(20 * KM_PER_CENTI, -1);
    expect(Math.abs(Date.parse(m.nextStation?.eta as string) - (lastAt + 20 * MIN))).toBeLessThan(5_000);

    const s = byId.get(stopped.userId) as Row;
    expect(s).toMatchObject({ state: 'stopped', lowBattery: true, alert: null });
    // Stopped since its first position at the spot.
    expect(Date.parse(s.stoppedSince as string)).toBe(s0 + 2 * MIN);
    // A stopped rider's ETA runs from now: they have it all still to ride.
    expect(
      Math.abs(Date.parse(s.nextStation?.eta as string) - (now + ((13 * KM_PER_CENTI) / speed) * 1000)),
    ).toBeLessThan(5_000);

    expect(byId.get(quiet.userId)?.state).toBe('no_signal');
    const l = byId.get(lost.userId) as Row;
    expect(l.state).toBe('off_route');
    expect(l.offRouteM).toBeGreaterThan(850);
    expect(l.alert).toMatchObject({ kind: 'off_route' });
    expect(byId.get(done.userId)).toMatchObject({ state: 'finished', nextStation: null });
    expect(byId.get(out.userId)).toMatchObject({ state: 'dnf', nextStation: null });
  });

  it('answers a rider’s track oldest first, since a time, the newest 2,000 at most', async () => {
    await course();
    const r = await rider(60);
    const t0 = Date.now() - 40 * MIN;
    await feed(t.database.db, t.app, r.userId, everyMinute(t0, [125.01, 125.02, 125.03, 125.04]));
    const url = `/api/admin/tracking/riders/${r.userId}/track`;
    const all = await injectAs(t.app, marshall, 'GET', url);
    expect(all.statusCode, all.body).toBe(200);
    expect(all.json().data.userId).toBe(r.userId);
    expect(all.json().data.points.map((p: { lng: number }) => p.lng)).toEqual([125.01, 125.02, 125.03, 125.04]);
    expect(all.json().data.points[0]).toMatchObject({
      lat: 8,
      at: new Date(t0).toISOString(),
      battery: 80,
      charging: false,
    });
    const since = await injectAs(t.app, marshall, 'GET', `${url}?since=${new Date(t0 + 2 * MIN).toISOString()}`);
    expect(since.json().data.points.map((p: { lng: number }) => p.lng)).toEqual([125.03, 125.04]);
    expect((await injectAs(t.app, marshall, 'GET', `${url}?since=yesterday`)).statusCode).toBe(400);

    // A long day: 2,005 positions, the newest 2,000 answered.
    const busy = await rider(60);
    const edition = await currentEdition(t.database.db);
    const b0 = Date.now() - 3 * 24 * 60 * MIN;
    await t.database.db.insert(positions).values(
      Array.from({ length: 2005 }, (_, i) => ({
        editionId: edition.id,
        userId: busy.userId,
        at: new Date(b0 + i * 30_000),
        lat: 8,
        lng: 125 + i * 0.0001,
      })),
    );
    const long = (await injectAs(t.app, marshall, 'GET', `/api/admin/tracking/riders/${busy.userId}/track`)).json().data
      .points as Array<{ at: string }>;
    expect(long).toHaveLength(2000);
    expect(long[0]?.at).toBe(new Date(b0 + 5 * 30_000).toISOString());
    expect(long.at(-1)?.at).toBe(new Date(b0 + 2004 * 30_000).toISOString());

    // A rider without a tracker: 404.
    const untracked = await approvedRider(t.app, admin);
    const none = await injectAs(t.app, marshall, 'GET', `/api/admin/tracking/riders/${untracked.userId}/track`);
    expect(none.statusCode).toBe(404);
    expect(none.json().code).toBe('TRACKER_NOT_FOUND');
  });

  it('shows positions to handle_incidents only: officers, riders and strangers are refused', async () => {
    await course();
    const r = await rider(30);
    await feed(t.database.db, t.app, r.userId, everyMinute(Date.now() - 3 * MIN, [125.01, 125.02]));
    const urls = ['/api/admin/tracking/riders', `/api/admin/tracking/riders/${r.userId}/track`];
    for (const url of urls) {
      expect((await injectAs(t.app, officer, 'GET', url)).statusCode, url).toBe(403);
      expect((await injectAs(t.app, r, 'GET', url)).statusCode, url).toBe(403);
      expect((await injectAs(t.app, null, 'GET', url)).statusCode, url).toBe(401);
      expect((await injectAs(t.app, admin, 'GET', url)).statusCode, url).toBe(200);
    }
  });

  it('keeps the moving speed within a motorcycle’s', async () => {
    await course();
    // A GPS jump of 20 km in a minute, then a crawl at walking pace.
    const r = await rider(30);
    const t0 = Date.now() - 6 * MIN;
    await feed(t.database.db, t.app, r.userId, everyMinute(t0, [125.01, 125.19]));
    const fast = (await board()).find((x) => x.userId === r.userId);
    expect(fast?.movingSpeed).toBeCloseTo(MAX_MOVING_SPEED_MS, 1);
    const slow = await rider(30);
    await feed(t.database.db, t.app, slow.userId, everyMinute(t0, [125.01, 125.0111, 125.0122, 125.0133]));
    const crawl = (await board()).find((x) => x.userId === slow.userId);
    expect(crawl?.movingSpeed).toBeCloseTo(MIN_MOVING_SPEED_MS, 1);
    expect(distanceM({ lat: 8, lng: 125.01 }, { lat: 8, lng: 125.0111 })).toBeGreaterThan(90);
  });

  it('reads the trackers of the edition asked for (`?edition=`), never another’s', async () => {
    await course();
    const r = await rider(30);
    await feed(t.database.db, t.app, r.userId, everyMinute(Date.now() - 3 * MIN, [125.01, 125.02]));
    const made = await injectAs(t.app, admin, 'POST', '/api/admin/editions', {
      name: `Warriors ${randomUUID().slice(0, 8)}`,
      year: 2031,
      startsOn: '2031-03-14',
      endsOn: '2031-03-16',
    });
    expect(made.statusCode, made.body).toBe(201);
    const other = made.json().data.edition.id as string;
    // The same rider tracked in the other edition too, with a position of its own.
    await t.database.db.insert(trackers).values({
      editionId: other,
      userId: r.userId,
      trackingId: randomUUID(),
      enabled: true,
      lastLat: 7,
      lastLng: 124,
      lastAt: new Date(),
    });
    await t.database.db
      .insert(positions)
      .values({ editionId: other, userId: r.userId, at: new Date(), lat: 7, lng: 124 });

    const current = (await board()).filter((x) => x.userId === r.userId);
    expect(current.map((x) => x.last?.lng)).toEqual([125.02]);
    const track = await injectAs(t.app, marshall, 'GET', `/api/admin/tracking/riders/${r.userId}/track`);
    expect(track.json().data.points.map((p: { lng: number }) => p.lng)).toEqual([125.01, 125.02]);
    // The other edition's read: its own tracker and positions, none of this edition's.
    const past = await injectAs(t.app, marshall, 'GET', `/api/admin/tracking/riders?edition=${other}`);
    expect(past.statusCode, past.body).toBe(200);
    const pastLast = past.json().data.map((x: Row) => x.last?.lng);
    expect(pastLast).not.toContain(125.02);
    expect(pastLast).toContain(124);
    const pastTrack = await injectAs(
      t.app,
      marshall,
      'GET',
      `/api/admin/tracking/riders/${r.userId}/track?edition=${other}`,
    );
    expect(pastTrack.statusCode, pastTrack.body).toBe(200);
    expect(pastTrack.json().data.points.map((p: { lng: number }) => p.lng)).toEqual([124]);
    // Dismissing in a past edition is a write: refused.
    const write = await injectAs(
      t.app,
      marshall,
      'POST',
      `/api/admin/tracking/alerts/${randomUUID()}/dismiss?edition=${other}`,
      {
        reason: 'Fuel stop',
      },
    );
    expect(write.statusCode).toBe(409);
  });
});
