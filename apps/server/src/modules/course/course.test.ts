import { randomUUID } from 'node:crypto';
import { and, eq } from 'drizzle-orm';
import { beforeAll, describe, expect, it } from 'vitest';
import { activities } from '../../db/schema/activities';
import { entries } from '../../db/schema/entries';
import { inEdition } from '../../lib/edition-of';
import { DB_KINDS, useTestApp } from '../../test/build-app';
import { type Actor, codedRider, createStation, injectAs, syncScan } from '../../test/factories';
import { listCourseStates } from './course.service';

type Rider = Actor & { riderNumber: number; riderCode: string };
const MIN = 60_000;

// One event, two days. Day 1: start → cp1 → cp2 (required) → finish, with six riders in
// every state; day 2: start → d1 → d2 → finish, with rules that make a rider overdue and
// then DNF for a missed cutoff as the (injected) clock moves.
describe.each(DB_KINDS)('course (%s)', (kind) => {
  const t = useTestApp(kind, 'admin', 'marshall', 'officer');
  const { admin, marshall, officer } = t.staff;
  const st = {} as Record<'s1' | 'c1' | 'c2' | 'f1' | 's2' | 'd1' | 'd2' | 'f2', string>;
  const r = {} as Record<'a' | 'b' | 'c' | 'd' | 'e' | 'f', Rider>;
  // Scans sit in the past (a device clock more than a day off would be flagged).
  const base1 = Date.now() - 10 * 60 * MIN;
  const base2 = Date.now() - 5 * 60 * MIN;
  const at = (ms: number) => new Date(ms);

  const call = (actor: Actor, method: 'GET' | 'POST' | 'PUT', url: string, payload?: unknown) =>
    injectAs(t.app, actor, method, url, payload);

  const station = (body: Record<string, unknown>) => createStation(t.app, admin, body);

  const rider = (): Promise<Rider> => codedRider(t.app, t.database.db, admin);

  async function pass(who: Rider, stationId: string, ms: number) {
    return syncScan(t.app, marshall, {
      stationId,
      riderCode: who.riderCode,
      scannedAt: at(ms).toISOString(),
      deviceId: 'phone-1',
    });
  }

  const setClock = (ms: number) => {
    t.app.clock.now = () => at(ms);
  };

  async function stateOf(who: Rider, day: number) {
    const res = await call(admin, 'GET', `/api/admin/event/riders?day=${day}`);
    expect(res.statusCode, res.body).toBe(200);
    return res.json().data.riders.find((x: { riderId: string }) => x.riderId === who.userId);
  }

  const completions = async (who: Rider) =>
    t.database.db
      .select({ id: activities.id, description: activities.description })
      .from(activities)
      .where(and(eq(activities.userId, who.userId), eq(activities.type, 'rally_completion')));

  beforeAll(async () => {
    st.s1 = await station({ name: 'Flag-off', kind: 'start', day: 1, order: 0, required: true });
    st.c1 = await station({ name: 'Marilog', kind: 'checkpoint', day: 1, order: 1 });
    st.c2 = await station({ name: 'Calinan', kind: 'checkpoint', day: 1, order: 2, required: true });
    st.f1 = await station({ name: 'Finish 1', kind: 'finish', day: 1, order: 3, required: true });
    st.s2 = await station({ name: 'Day 2 flag-off', kind: 'start', day: 2, order: 0 });
    st.d1 = await station({ name: 'Koronadal', kind: 'checkpoint', day: 2, order: 1 });
    st.d2 = await station({ name: 'Bukidnon', kind: 'checkpoint', day: 2, order: 2 });
    st.f2 = await station({ name: 'Finish 2', kind: 'finish', day: 2, order: 3 });
    for (const k of ['a', 'b', 'c', 'd', 'e', 'f'] as const) r[k] = await rider();
    setClock(base1 + 6 * 60 * MIN);
  });

  it('derives not started, on course and finished from the scans', async () => {
    await pass(r.b, st.s1, base1);
    await pass(r.b, st.c1, base1 + 60 * MIN);
    await pass(r.c, st.s1, base1);
    await pass(r.c, st.c1, base1 + 50 * MIN);
    await pass(r.c, st.c2, base1 + 100 * MIN);
    await pass(r.c, st.f1, base1 + 150 * MIN);

    expect(await stateOf(r.a, 1)).toMatchObject({ state: 'not_started', lastStation: null, overdue: false });
    expect(await stateOf(r.b, 1)).toMatchObject({
      state: 'on_course',
      lastStation: { id: st.c1, name: 'Marilog' },
      lastSeenAt: at(base1 + 60 * MIN).toISOString(),
      nextStation: { id: st.c2 },
      elapsedMs: null,
    });
    const c = await stateOf(r.c, 1);
    expect(c).toMatchObject({ state: 'finished', elapsedMs: 150 * MIN, lastStation: { id: st.f1 } });
    expect(c.riderNumber).toBe(r.c.riderNumber);
    // The service other modules build on says the same.
    const states = await listCourseStates(t.database.db, { now: t.app.clock.now(), day: 1 });
    expect(states.find((s) => s.riderId === r.c.userId)?.state).toBe('finished');
    expect(states).toHaveLength(6);
  });

  it('writes rally_completion once, on the finish scan with every required station passed', async () => {
    const first = await completions(r.c);
    expect(first).toHaveLength(1);
    expect(first[0]?.description).toContain('finished day 1 in 2h 30m');
    // A re-scan at the finish (flagged) and an accepted review of it change nothing.
    const again = await pass(r.c, st.f1, base1 + 155 * MIN);
    expect(again).toMatchObject({ status: 'flagged', reason: 'rescan' });
    const [flagged] = (await call(admin, 'GET', '/api/admin/scans/flagged')).json().data.scans;
    const review = await call(admin, 'POST', `/api/admin/scans/${flagged.id}/review`, {
      decision: 'accept',
      note: 'double scan at the line',
    });
    expect(review.statusCode, review.body).toBe(200);
    expect(await completions(r.c)).toHaveLength(1);
  });

  it('makes a finish without a required station a DNF (missed a required station), with no completion', async () => {
    await pass(r.d, st.s1, base1);
    await pass(r.d, st.c1, base1 + 40 * MIN);
    await pass(r.d, st.f1, base1 + 120 * MIN);
    expect(await stateOf(r.d, 1)).toMatchObject({
      state: 'dnf',
      dnfReason: 'missed_required',
      dnfStations: [{ id: st.c2, name: 'Calinan' }],
    });
    expect(await completions(r.d)).toHaveLength(0);
  });

  it('lets manage_event staff set and clear DNF and DNS with a reason, audited', async () => {
    await pass(r.e, st.s1, base1 + 5 * MIN);
    const url = (who: Rider) => `/api/admin/event/riders/${who.userId}/decision`;
    const dnf = await call(admin, 'POST', url(r.e), {
      decision: 'dnf',
      reason: 'withdrew',
      note: 'Engine gone',
      day: 1,
    });
    expect(dnf.statusCode, dnf.body).toBe(200);
    expect(dnf.json().data).toMatchObject({ state: 'dnf', dnfReason: 'withdrew', decision: { note: 'Engine gone' } });
    const dns = await call(admin, 'POST', url(r.f), { decision: 'dns', note: 'Did not show', day: 1 });
    expect(dns.json().data).toMatchObject({ state: 'dns' });

    // Officers and marshals read the board but decide nothing.
    for (const who of [officer, marshall]) {
      const refused = await call(who, 'POST', url(r.a), { decision: 'dnf', note: 'x', day: 1 });
      expect(refused.statusCode).toBe(403);
    }
    const bad = await call(admin, 'POST', url(r.a), { decision: 'dnf', reason: 'bored', note: 'x' });
    expect(bad.statusCode).toBe(400);
    expect(bad.json().message).toMatch(/reason must be one of/);
    const nothing = await call(admin, 'POST', url(r.a), { decision: 'clear', note: 'x', day: 1 });
    expect(nothing.statusCode).toBe(409);
    const notRider = await call(admin, 'POST', `/api/admin/event/riders/${officer.userId}/decision`, {
      decision: 'dnf',
      note: 'x',
    });
    expect(notRider.statusCode).toBe(404);

    const logged = await t.database.db
      .select({ description: activities.description, details: activities.details })
      .from(activities)
      .where(and(eq(activities.type, 'course_decision'), eq(activities.userId, r.e.userId)));
    expect(logged).toHaveLength(1);
    expect(logged[0]?.description).toMatch(/marked .* DNF on day 1 \(Withdrew\)/);
    expect(logged[0]?.details).toBe('Engine gone');
  });

  it('counts the board per station, each count a click from its riders', async () => {
    const res = await call(officer, 'GET', '/api/admin/event/board?day=1');
    expect(res.statusCode, res.body).toBe(200);
    const rows = res.json().data as Array<Record<string, unknown>>;
    expect(rows.map((x) => x.stationId)).toEqual([st.s1, st.c1, st.c2, st.f1]);
    // a: not started, b: on course after cp1, c: finished, d: finish without cp2, e: DNF, f: DNS.
    expect(rows[0]).toMatchObject({ name: 'Flag-off', passed: 4, expected: 1, missed: 0, dnf: 0, dns: 1 });
    expect(rows[2]).toMatchObject({ name: 'Calinan', passed: 1, missed: 1, expected: 2, dnf: 1, dns: 1, overdue: 0 });
    expect(rows[3]).toMatchObject({ passed: 2, expected: 2, dnf: 1, dns: 1 });

    const ids = async (stationId: string, bucket: string, actor: Actor = officer) => {
      const list = await call(actor, 'GET', `/api/admin/event/board/${stationId}/riders?bucket=${bucket}`);
      expect(list.statusCode, list.body).toBe(200);
      return (list.json().data.riders as Array<{ riderId: string }>).map((x) => x.riderId).sort();
    };
    expect(await ids(st.c2, 'passed')).toEqual([r.c.userId]);
    expect(await ids(st.c2, 'missed')).toEqual([r.d.userId]);
    expect(await ids(st.c2, 'expected')).toEqual([r.a.userId, r.b.userId].sort());
    expect(await ids(st.c2, 'dnf')).toEqual([r.e.userId]);
    expect(await ids(st.c2, 'dns')).toEqual([r.f.userId]);
    expect(await ids(st.c2, 'overdue')).toEqual([]);

    const bad = await call(officer, 'GET', `/api/admin/event/board/${st.c2}/riders?bucket=lost`);
    expect(bad.statusCode).toBe(400);
    const missing = await call(officer, 'GET', `/api/admin/event/board/${randomUUID()}/riders?bucket=passed`);
    expect(missing.statusCode).toBe(404);
  });

  it('clearing a decision hands the state back to the scans', async () => {
    const res = await call(admin, 'POST', `/api/admin/event/riders/${r.e.userId}/decision`, {
      decision: 'clear',
      note: 'Fixed the engine',
      day: 1,
    });
    expect(res.statusCode, res.body).toBe(200);
    expect(res.json().data).toMatchObject({ state: 'on_course', decision: null, dnfReason: null });
  });

  it('makes a rider overdue when the clock passes the due time plus the grace, oldest first', async () => {
    const rules = await call(admin, 'PUT', '/api/admin/event/rules/bagani', {
      overdueAfterMinutes: 15,
      stations: [
        { stationId: st.d1, dueMinutes: 60 },
        { stationId: st.d2, dueMinutes: 120, cutoffAt: at(base2 + 180 * MIN).toISOString() },
        { stationId: st.f2, required: true },
      ],
    });
    expect(rules.statusCode, rules.body).toBe(200);
    expect(rules.json().data).toMatchObject({ routeId: 'bagani', overdueAfterMinutes: 15 });
    const d2 = rules.json().data.stations.find((s: { stationId: string }) => s.stationId === st.d2);
    expect(d2).toMatchObject({ dueMinutes: 120, required: false, cutoffAt: at(base2 + 180 * MIN).toISOString() });

    await pass(r.b, st.s2, base2);
    await pass(r.c, st.s2, base2 + 10 * MIN);
    setClock(base2 + 70 * MIN);
    expect(await stateOf(r.b, 2)).toMatchObject({ state: 'on_course', overdue: false, nextStation: { id: st.d1 } });

    setClock(base2 + 90 * MIN);
    const b = await stateOf(r.b, 2);
    expect(b).toMatchObject({
      overdue: true,
      overdueMs: 15 * MIN,
      dueAt: at(base2 + 60 * MIN).toISOString(),
      overdueAt: at(base2 + 75 * MIN).toISOString(),
      nextCutoffAt: at(base2 + 180 * MIN).toISOString(),
    });

    const list = await call(marshall, 'GET', '/api/admin/event/overdue?day=2');
    expect(list.statusCode, list.body).toBe(200);
    const overdue = list.json().data.riders;
    expect(overdue.map((x: { riderId: string }) => x.riderId)).toEqual([r.b.userId, r.c.userId]);
    expect(overdue[0]).toMatchObject({ lastStation: { id: st.s2, name: 'Day 2 flag-off' } });
    // The default day is the latest with a passage.
    const byDefault = await call(marshall, 'GET', '/api/admin/event/overdue');
    expect(byDefault.json().data.day).toBe(2);

    const board = (await call(officer, 'GET', '/api/admin/event/board?day=2')).json().data;
    expect(board.find((x: { stationId: string }) => x.stationId === st.d1)).toMatchObject({ overdue: 2, expected: 6 });
  });

  it('shows phone and emergency contact only to view_users or handle_incidents holders, never officers', async () => {
    for (const [who, sees] of [
      [admin, true],
      [marshall, true],
      [officer, false],
    ] as const) {
      const list = (await call(who, 'GET', '/api/admin/event/overdue?day=2')).json().data.riders;
      if (sees) {
        expect(list[0].contact).toEqual({
          phoneNumber: '09171234567',
          emergencyContactName: 'Amihan Rider',
          emergencyContactNumber: '09181234567',
        });
      } else {
        expect(list[0]).not.toHaveProperty('contact');
        expect(JSON.stringify(list)).not.toContain('09171234567');
      }
      const drill = (await call(who, 'GET', `/api/admin/event/board/${st.d1}/riders?bucket=overdue`)).json().data;
      expect('contact' in drill.riders[0]).toBe(sees);
      const timeline = (await call(who, 'GET', `/api/admin/event/riders/${r.b.userId}/timeline?day=2`)).json().data;
      expect('contact' in timeline.state).toBe(sees);
    }
  });

  it('makes a rider DNF for a missed cutoff once it has gone by', async () => {
    setClock(base2 + 200 * MIN);
    expect(await stateOf(r.b, 2)).toMatchObject({
      state: 'dnf',
      dnfReason: 'missed_cutoff',
      dnfStations: [{ id: st.d2 }],
      overdue: false,
    });
  });

  it('tells a rider’s whole story in the timeline: scans, flags, reviews, decisions, completion', async () => {
    const res = await call(officer, 'GET', `/api/admin/event/riders/${r.c.userId}/timeline?day=1`);
    expect(res.statusCode, res.body).toBe(200);
    const { state, entries } = res.json().data;
    expect(state).toMatchObject({ state: 'finished', day: 1 });
    const types = entries.map((e: { type: string }) => e.type);
    expect(types.filter((x: string) => x === 'scan')).toHaveLength(6);
    expect(types).toContain('completion');
    const flagged = entries.find((e: { status: string }) => e.status === 'flagged');
    expect(flagged).toMatchObject({ reason: 'rescan', counted: true, review: { decision: 'accept' } });

    const e = (await call(officer, 'GET', `/api/admin/event/riders/${r.e.userId}/timeline`)).json().data.entries;
    expect(
      e.filter((x: { type: string }) => x.type === 'decision').map((x: { decision: string }) => x.decision),
    ).toEqual(['dnf', 'clear']);
    const unknown = await call(officer, 'GET', `/api/admin/event/riders/${randomUUID()}/timeline`);
    expect(unknown.statusCode).toBe(404);
  });

  it('keeps rules per route, editable by manage_event only, audited', async () => {
    const list = await call(officer, 'GET', '/api/admin/event/rules');
    expect(list.statusCode).toBe(200);
    const routes = list.json().data;
    expect(routes.map((x: { routeId: string }) => x.routeId)).toEqual(['lakambini', 'lakan', 'bagani']);
    const lakan = routes.find((x: { routeId: string }) => x.routeId === 'lakan');
    expect(lakan).toMatchObject({ overdueAfterMinutes: 30, updatedAt: null });
    // Defaults: the station's own `required`.
    expect(lakan.stations.find((s: { stationId: string }) => s.stationId === st.c2)).toMatchObject({
      required: true,
      requiredOverride: null,
    });

    expect((await call(officer, 'PUT', '/api/admin/event/rules/lakan', { stations: [] })).statusCode).toBe(403);
    expect((await call(marshall, 'PUT', '/api/admin/event/rules/lakan', { stations: [] })).statusCode).toBe(403);
    const badRoute = await call(admin, 'PUT', '/api/admin/event/rules/moon', { stations: [] });
    expect(badRoute.statusCode).toBe(400);
    const notOnRoute = await call(admin, 'PUT', '/api/admin/event/rules/lakan', {
      stations: [{ stationId: randomUUID(), dueMinutes: 5 }],
    });
    expect(notOnRoute.statusCode).toBe(400);
    expect(notOnRoute.json().code).toBe('STATION_NOT_ON_ROUTE');

    const ok = await call(admin, 'PUT', '/api/admin/event/rules/lakan', {
      stations: [{ stationId: st.c2, required: false }],
    });
    expect(ok.statusCode, ok.body).toBe(200);
    expect(ok.json().data.stations.find((s: { stationId: string }) => s.stationId === st.c2)).toMatchObject({
      required: false,
      requiredOverride: false,
      stationRequired: true,
    });
    const audit = await t.database.db
      .select({ description: activities.description })
      .from(activities)
      .where(eq(activities.type, 'course_rules_updated'));
    expect(audit.map((a) => a.description).some((d) => d.includes('lakan route'))).toBe(true);
  });
  it('exports the finishers with their times and every DNF and DNS with why, as the board derives them', async () => {
    const t0 = base1 + 200 * MIN;
    const finisher = await rider();
    const quitter = await rider();
    await pass(finisher, st.s1, t0);
    await pass(finisher, st.c2, t0 + 60 * MIN);
    await pass(finisher, st.f1, t0 + 95 * MIN + 7_000);
    await pass(quitter, st.s1, t0);
    const decided = await call(admin, 'POST', `/api/admin/event/riders/${quitter.userId}/decision`, {
      decision: 'dnf',
      reason: 'withdrew',
      note: '=HYPERLINK("x") flat tyre',
      day: 1,
    });
    expect(decided.statusCode, decided.body).toBe(200);

    const number = async (who: Rider) =>
      (
        await t.database.db
          .select({ n: entries.riderNumber })
          .from(entries)
          .where(and(eq(entries.userId, who.userId), inEdition(entries.editionId)))
      )[0]?.n;
    const finishers = await call(admin, 'GET', '/api/admin/exports/finishers.csv');
    expect(finishers.statusCode, finishers.body).toBe(200);
    const finisherNumber = await number(finisher);
    const quitterNumber = await number(quitter);
    const finisherLine = finishers.body.split('\r\n').find((l) => l.includes(`,${finisherNumber},`));
    expect(finisherLine).toContain('1:35:07');
    expect(finishers.body).not.toContain(`,${quitterNumber},`);

    const dnf = await call(admin, 'GET', '/api/admin/exports/dnf.csv');
    expect(dnf.statusCode, dnf.body).toBe(200);
    const quitterLine = dnf.body.split('\r\n').find((l) => l.includes(`,${quitterNumber},`));
    expect(quitterLine).toContain('Withdrew');
    // The note a staff member typed cannot run as a formula in a spreadsheet.
    expect(quitterLine).toContain(`"'=HYPERLINK(""x"") flat tyre"`);
    expect((await call(officer, 'GET', '/api/admin/exports/dnf.csv')).statusCode).toBe(403);
  });
});
