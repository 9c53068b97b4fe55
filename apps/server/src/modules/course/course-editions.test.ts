import { randomUUID } from 'node:crypto';
import { DEFAULT_OVERDUE_AFTER_MINUTES, RALLY_ROUTE_IDS } from '@rally/shared/catalog/event-day';
import { and, eq } from 'drizzle-orm';
import { beforeAll, describe, expect, it } from 'vitest';
import { courseDecisions, courseRules } from '../../db/schema/course';
import { editions } from '../../db/schema/editions';
import { entries } from '../../db/schema/entries';
import { scans, stations } from '../../db/schema/event-day';
import { inEdition } from '../../lib/edition-of';
import { DB_KINDS, useTestApp } from '../../test/build-app';
import { type Actor, codedRider, createStation, injectAs, syncScan } from '../../test/factories';
import { eventStarted } from '../live/live.service';
import { listRouteRules } from './course-rules.service';
import { recomputeCheckpoints } from './passages';

type Rider = Actor & { riderCode: string };
const MIN = 60_000;

// The event day's tables hold every edition's rows side by side, and a station keeps its id
// from one edition to the next. A past edition's stations, scans, decisions and rules (the
// same station ids, a busier day 2) must change nothing of what the current edition reads.
describe.each(DB_KINDS)('course across editions (%s)', (kind) => {
  const t = useTestApp(kind, 'admin', 'marshall');
  const { admin, marshall } = t.staff;
  const st = {} as Record<'s1' | 'c1' | 'f1' | 's2' | 'f2', string>;
  const r = {} as Record<'a' | 'b', Rider>;
  const base = Date.now() - 6 * 60 * MIN;

  const call = (method: 'GET' | 'PUT', url: string, payload?: unknown) => injectAs(t.app, admin, method, url, payload);

  const station = (body: Record<string, unknown>) => createStation(t.app, admin, body);

  const rider = (): Promise<Rider> => codedRider(t.app, t.database.db, admin);

  beforeAll(async () => {
    const { db } = t.database;
    st.s1 = await station({ name: 'Flag-off', kind: 'start', day: 1, order: 0 });
    st.c1 = await station({ name: 'Marilog', kind: 'checkpoint', day: 1, order: 1 });
    st.f1 = await station({ name: 'Finish 1', kind: 'finish', day: 1, order: 2 });
    st.s2 = await station({ name: 'Day 2 flag-off', kind: 'start', day: 2, order: 0 });
    st.f2 = await station({ name: 'Finish 2', kind: 'finish', day: 2, order: 1 });
    r.a = await rider();
    r.b = await rider();
    // This year: a has started day 1, b has not.
    const started = await syncScan(t.app, marshall, {
      stationId: st.s1,
      riderCode: r.a.riderCode,
      scannedAt: new Date(base).toISOString(),
    });
    expect(started.status).toBe('accepted');

    // Last year: the same course (the same station ids), b rode both days, a was a DNF,
    // and one route had its own rules.
    const [past] = await db
      .insert(editions)
      .values({ name: 'Rally 2000', year: 2000, closedAt: new Date() })
      .returning({ id: editions.id });
    const editionId = past?.id as string;
    const course = await db.select().from(stations);
    await db.insert(stations).values(course.map((s) => ({ ...s, editionId })));
    const passage = (stationId: string, ms: number) => ({
      id: randomUUID(),
      editionId,
      stationId,
      riderId: r.b.userId,
      riderCode: r.b.riderCode,
      scannedAt: new Date(ms),
      deviceId: 'old-phone',
      source: 'camera' as const,
      status: 'accepted' as const,
    });
    await db
      .insert(scans)
      .values([
        passage(st.s1, base - 400 * MIN),
        passage(st.c1, base - 350 * MIN),
        passage(st.f1, base - 300 * MIN),
        passage(st.s2, base - 100 * MIN),
        passage(st.f2, base - 50 * MIN),
      ]);
    await db
      .insert(courseDecisions)
      .values({ editionId, riderId: r.a.userId, day: 1, decision: 'dnf', reason: 'staff', note: 'last year' });
    await db.insert(courseRules).values({
      editionId,
      routeId: RALLY_ROUTE_IDS[0],
      overdueAfterMinutes: 1,
      stations: [{ stationId: st.c1, cutoffAt: null, required: true, dueMinutes: 5 }],
    });
    t.app.clock.now = () => new Date(base + 30 * MIN);
  });

  it('counts the board and the riders of the current edition only', async () => {
    // No day named: the latest day with a passage is this year's day 1, not last year's day 2.
    const board = await call('GET', '/api/admin/event/board');
    expect(board.statusCode, board.body).toBe(200);
    const rows = board.json().data as Array<Record<string, unknown>>;
    expect(rows.map((x) => x.stationId)).toEqual([st.s1, st.c1, st.f1]);
    expect(rows[0]).toMatchObject({ passed: 1, expected: 1, dnf: 0 });
    expect(rows[2]).toMatchObject({ passed: 0 });

    const passed = await call('GET', `/api/admin/event/board/${st.s1}/riders?bucket=passed`);
    expect(passed.statusCode, passed.body).toBe(200);
    expect(passed.json().data.station).toEqual({ id: st.s1, name: 'Flag-off', day: 1 });
    expect(passed.json().data.riders.map((x: { riderId: string }) => x.riderId)).toEqual([r.a.userId]);

    const riders = (await call('GET', '/api/admin/event/riders?day=1')).json().data.riders as Array<{
      riderId: string;
      state: string;
    }>;
    expect(riders.find((x) => x.riderId === r.a.userId)?.state).toBe('on_course');
    expect(riders.find((x) => x.riderId === r.b.userId)?.state).toBe('not_started');
  });

  it('keeps last year out of a rider’s timeline, passages and checkpoint count', async () => {
    const timeline = await call('GET', `/api/admin/event/riders/${r.b.userId}/timeline`);
    expect(timeline.statusCode, timeline.body).toBe(200);
    expect(timeline.json().data.entries).toEqual([]);
    const ofA = (await call('GET', `/api/admin/event/riders/${r.a.userId}/timeline`)).json().data.entries as Array<{
      type: string;
    }>;
    expect(ofA.map((e) => e.type)).toEqual(['scan']);

    await recomputeCheckpoints(t.database.db, [r.b.userId]);
    const [b] = await t.database.db
      .select({ checkpoints: entries.checkpoints })
      .from(entries)
      .where(and(eq(entries.userId, r.b.userId), inEdition(entries.editionId)));
    expect(b?.checkpoints).toBe(0);

    const profile = await injectAs(t.app, admin, 'GET', `/api/users/${r.b.userId}/profile`);
    expect(profile.statusCode, profile.body).toBe(200);
    expect(profile.json().data.lastStation).toBeNull();
  });

  it('reads and replaces the current edition’s route rules beside last year’s', async () => {
    const before = await listRouteRules(t.database.db);
    for (const route of before)
      expect(route).toMatchObject({ updatedAt: null, overdueAfterMinutes: DEFAULT_OVERDUE_AFTER_MINUTES });
    const routeId = RALLY_ROUTE_IDS[0];
    const put = await call('PUT', `/api/admin/event/rules/${routeId}`, { overdueAfterMinutes: 45, stations: [] });
    expect(put.statusCode, put.body).toBe(200);
    expect(put.json().data).toMatchObject({ routeId, overdueAfterMinutes: 45 });
    const rows = await t.database.db.select().from(courseRules).where(eq(courseRules.routeId, routeId));
    expect(rows.map((x) => x.overdueAfterMinutes).sort()).toEqual([1, 45]);
  });

  it('says the event has started from this year’s start scans only', async () => {
    expect(await eventStarted(t.database.db)).toBe(true);
    await t.database.db.delete(scans).where(eq(scans.deviceId, 'phone'));
    // Last year's flag-off is still there, but this year's event has not started.
    expect(await eventStarted(t.database.db)).toBe(false);
  });
});
