// The overdue list fed by trackers (DESIGN.md §11): a rider moving along the route is due
// when their ETA says, not when a default did; a rider whose stop raised the alert is
// overdue at once. Riders without a tracker keep the scans' due times.
import { beforeEach, describe, expect, it } from 'vitest';
import { DB_KINDS, useTestApp } from '../../test/build-app';
import { injectAs } from '../../test/factories';
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
} from '../tracking/tracking-test-rides';

interface Overdue {
  riderId: string;
  overdue: boolean;
  dueAt: string | null;
  overdueAt: string | null;
  overdueMs: number;
}

describe.each(DB_KINDS)('overdue list with trackers (%s)', (kind) => {
  const t = useTestApp(kind, 'admin', 'marshall');
  const { admin, marshall } = t.staff;
  const st = {} as TestStations;
  let ready: Promise<void> | null = null;
  beforeEach(() => {
    t.app.clock.now = () => new Date();
  });

  /** Due at Valencia CP 30 minutes after the start, overdue 30 minutes later. */
  function course() {
    ready ??= (async () => {
      Object.assign(st, await putTestCourse(t.app, t.database.db, admin));
      const rules = await injectAs(t.app, admin, 'PUT', '/api/admin/event/rules/bagani', {
        overdueAfterMinutes: 30,
        stations: [{ stationId: st.cp, dueMinutes: 30 }],
      });
      expect(rules.statusCode, rules.body).toBe(200);
    })();
    return ready;
  }

  async function rider(minutesAgo: number, now: number) {
    const r = await trackedRider(t.app, t.database.db, admin);
    const start = now - minutesAgo * MIN;
    await pass(t.app, marshall, r, st.start, new Date(start));
    return { ...r, start };
  }

  async function overdueList(): Promise<Overdue[]> {
    const res = await injectAs(t.app, marshall, 'GET', '/api/admin/event/overdue');
    expect(res.statusCode, res.body).toBe(200);
    return res.json().data.riders;
  }
  async function stateOf(riderId: string): Promise<Overdue> {
    const res = await injectAs(t.app, marshall, 'GET', '/api/admin/event/riders');
    return res.json().data.riders.find((r: Overdue) => r.riderId === riderId);
  }

  it('takes a moving rider’s ETA (+ the window) as their due time, so steady progress is not overdue', async () => {
    await course();
    const now = Date.now();
    t.app.clock.now = () => new Date(now);
    // Both left 90 minutes ago: due at +30, overdue since +60 by the rules.
    const steady = await rider(90, now);
    const untracked = await rider(90, now);
    // The tracked one rides on, 10 centi-degrees along, 20 to go at 18 m/s.
    const m0 = now - 6 * MIN;
    await feed(t.database.db, t.app, steady.userId, everyMinute(m0, [125.05, 125.06, 125.07, 125.08, 125.09, 125.1]));

    const list = await overdueList();
    const ids = list.map((r) => r.riderId);
    expect(ids).toContain(untracked.userId);
    expect(ids).not.toContain(steady.userId);
    const s = await stateOf(steady.userId);
    const eta = m0 + 5 * MIN + ((20 * KM_PER_CENTI) / (KM_PER_CENTI / 60)) * 1000;
    expect(Math.abs(Date.parse(s.dueAt as string) - eta)).toBeLessThan(5_000);
    expect(Date.parse(s.overdueAt as string) - Date.parse(s.dueAt as string)).toBe(30 * MIN);
    expect(s).toMatchObject({ overdue: false, overdueMs: 0 });
    // The untracked rider keeps the scans' due time.
    expect(await stateOf(untracked.userId)).toMatchObject({
      overdue: true,
      dueAt: new Date(untracked.start + 30 * MIN).toISOString(),
    });

    // Their phone goes quiet for long (no signal): back to what the scans say.
    t.app.clock.now = () => new Date(now + 15 * MIN);
    expect((await overdueList()).map((r) => r.riderId)).toContain(steady.userId);
  });

  it('makes a rider stopped away from a station overdue as soon as the stop alert fires', async () => {
    await course();
    const now = Date.now();
    t.app.clock.now = () => new Date(now);
    // Left 20 minutes ago: by the rules not due for 10 minutes, not overdue for 40.
    const stuck = await rider(20, now);
    const waiting = await rider(20, now);
    const t0 = stuck.start + 1 * MIN;
    await feed(t.database.db, t.app, stuck.userId, everyMinute(t0, [125.02, 125.03]));
    await feed(t.database.db, t.app, stuck.userId, stay(t0 + 2 * MIN, 125.04, 10));
    // Stopped 10 minutes: no alert, not overdue.
    expect((await overdueList()).map((r) => r.riderId)).not.toContain(stuck.userId);
    await feed(t.database.db, t.app, stuck.userId, stay(t0 + 13 * MIN, 125.04, 5));
    const [alerted] = (await injectAs(t.app, marshall, 'GET', '/api/admin/incidents?status=open'))
      .json()
      .data.filter((i: { rider: { id: string }; kind: string }) => i.rider.id === stuck.userId);
    expect(alerted?.kind).toBe('stopped');

    const list = await overdueList();
    const row = list.find((r) => r.riderId === stuck.userId);
    expect(row).toMatchObject({ overdue: true });
    expect(row?.overdueAt).toBe(alerted?.createdAt);
    expect(list.map((r) => r.riderId)).not.toContain(waiting.userId);
    // The board's count agrees: Valencia CP has them overdue.
    const board = (await injectAs(t.app, marshall, 'GET', '/api/admin/event/board')).json().data as Array<{
      stationId: string;
      overdue: number;
    }>;
    expect(board.find((b) => b.stationId === st.cp)?.overdue).toBeGreaterThanOrEqual(1);
    const bucket = await injectAs(t.app, marshall, 'GET', `/api/admin/event/board/${st.cp}/riders?bucket=overdue`);
    expect(bucket.json().data.riders.map((r: { riderId: string }) => r.riderId)).toContain(stuck.userId);

    // Dismissed ("fuel stop at a sari-sari store"): no longer overdue by the tracker.
    const dismissed = await injectAs(t.app, marshall, 'POST', `/api/admin/tracking/alerts/${alerted?.id}/dismiss`, {
      reason: 'Fuel stop at a sari-sari store',
    });
    expect(dismissed.statusCode, dismissed.body).toBe(200);
    expect((await overdueList()).map((r) => r.riderId)).not.toContain(stuck.userId);
  });
});
