// Tracker alerts (DESIGN.md §11): a stop away from a station and leaving the route open
// incidents on the SOS path (board event, on-call push, escalation by text until someone
// acknowledges); a stop at a station, a finished rider and a dismissed stop do not.
import { randomUUID } from 'node:crypto';
import { and, eq } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { activities } from '../../db/schema/activities';
import { incidents } from '../../db/schema/incidents';
import { incidentEscalations, notificationSettings, outboxMessages } from '../../db/schema/messages';
import { users } from '../../db/schema/users';
import { buildTestApp, DB_KINDS, type TestApp } from '../../test/build-app';
import { type Actor, injectAs, staff } from '../../test/factories';
import { addPushDevice } from '../../test/push-devices';
import { sendFixes, type Fix as TraccarFix } from '../../test/traccar-client';
import { writeOnlyMessages } from '../../test/write-only-messages';
import { openTrackerAlert } from '../incidents/incidents.service';
import { escalationJob } from '../messages/escalation';
import {
  everyMinute,
  feed,
  MIN,
  pass,
  putTestCourse,
  stay,
  type TestStations,
  type TrackedRider,
  trackedRider,
  trackerOf,
} from './tracking-test-rides';

const ESCALATE_S = 60;

describe.each(DB_KINDS)('tracker alerts (%s)', (kind) => {
  let t: TestApp;
  let admin: Actor;
  let marshall: Actor;
  let officer: Actor;
  let marshallDevice: string;
  const st = {} as TestStations;

  beforeAll(async () => {
    t = await buildTestApp(kind, {
      messages: writeOnlyMessages({ SOS_ESCALATE_AFTER_S: String(ESCALATE_S) }),
    });
    admin = await staff(t.app, t.database.db, 'admin');
    marshall = await staff(t.app, t.database.db, 'marshall');
    officer = await staff(t.app, t.database.db, 'officer');
    // The on-call marshal: a phone for the texts, a browser for the push.
    await t.database.db.update(users).set({ phoneNumber: '0918 765 4321' }).where(eq(users.id, marshall.userId));
    await t.database.db.insert(notificationSettings).values({ userId: marshall.userId, onCall: true });
    marshallDevice = await addPushDevice(t.database.db, marshall);
    Object.assign(st, await putTestCourse(t.app, t.database.db, admin));
  });
  afterAll(async () => t?.close());

  /** A rider who left the flag-off `minutesAgo` minutes ago (a real scan): on course. */
  async function rider(minutesAgo = 120): Promise<TrackedRider & { start: number }> {
    const r = await trackedRider(t.app, t.database.db, admin);
    const start = Date.now() - minutesAgo * MIN;
    await pass(t.app, marshall, r, st.start, new Date(start));
    return { ...r, start };
  }

  const alertsOf = (userId: string) =>
    t.database.db
      .select()
      .from(incidents)
      .where(and(eq(incidents.riderId, userId), eq(incidents.source, 'tracker')))
      .orderBy(incidents.createdAt);

  it('opens exactly one `stopped` incident after 15 minutes still away from a station, and it reaches the on-call', async () => {
    const r = await rider();
    const t0 = r.start + 5 * MIN;
    // Riding east at 1.1 km a minute, then still 11 km along (a ravine road, nothing near).
    await feed(t.database.db, t.app, r.userId, everyMinute(t0, [125.05, 125.06, 125.07, 125.08, 125.09, 125.1]));
    const stopAt = t0 + 6 * MIN;
    const early = await feed(t.database.db, t.app, r.userId, stay(stopAt, 125.1, 10));
    expect(early.state).toBe('stopped');
    expect(await alertsOf(r.userId)).toHaveLength(0);

    // Past 15 minutes (the default threshold).
    const judged = await feed(t.database.db, t.app, r.userId, stay(stopAt + 11 * MIN, 125.1, 6));
    expect(judged.state).toBe('stopped');
    expect(judged.alongM).toBeGreaterThan(10_900);
    expect(judged.alongM).toBeLessThan(11_200);
    const [alert, ...more] = await alertsOf(r.userId);
    expect(more).toHaveLength(0);
    expect(alert).toMatchObject({ kind: 'stopped', source: 'tracker', status: 'open', muted: false });
    expect(alert?.note).toMatch(/^No movement for 18 min at 8\.0000, 125\.0998, 11 km along Bagani, on the route$/);
    expect(alert?.lat).toBeCloseTo(8, 3);
    expect(alert?.lastStationName).toBe('Flag-off');
    expect((await trackerOf(t.database.db, r.userId)).stopIncidentId).toBe(alert?.id);

    // The on-call marshal's browser is pushed at once; the escalation clock runs.
    const pushed = await t.database.db
      .select()
      .from(outboxMessages)
      .where(and(eq(outboxMessages.incidentId, alert?.id as string), eq(outboxMessages.template, 'incident_opened')));
    expect(pushed.map((m) => [m.channel, m.address])).toEqual([['push', marshallDevice]]);
    expect(pushed[0]?.data).toMatchObject({ kindLabel: 'Stopped', riderNumber: r.riderNumber });
    expect(
      await t.database.db
        .select()
        .from(incidentEscalations)
        .where(eq(incidentEscalations.incidentId, alert?.id as string)),
    ).toHaveLength(1);
    // The audit log has it, high priority.
    const [logged] = await t.database.db
      .select()
      .from(activities)
      .where(and(eq(activities.userId, r.userId), eq(activities.type, 'sos_call')));
    expect(logged).toMatchObject({ priority: 'high' });
    expect(logged?.description).toContain('Tracker alert for');

    // The incident list: its place for handle_incidents only (an officer reads the alert without it).
    const seen = async (who: Actor) =>
      (await injectAs(t.app, who, 'GET', '/api/admin/incidents?status=open'))
        .json()
        .data.find((i: { id: string }) => i.id === alert?.id);
    expect(await seen(marshall)).toMatchObject({ note: alert?.note, position: { lat: alert?.lat, lng: alert?.lng } });
    expect(await seen(officer)).toMatchObject({
      kind: 'stopped',
      note: 'No movement for 18 min, 11 km along Bagani, on the route',
      position: null,
    });

    // Still there, more positions: still one alert.
    await feed(t.database.db, t.app, r.userId, stay(stopAt + 18 * MIN, 125.1, 5));
    expect(await alertsOf(r.userId)).toHaveLength(1);

    // Nobody acknowledges: the on-call phone is texted when the period is up.
    const later = Date.now() + (ESCALATE_S + 5) * 1000;
    await escalationJob(t.database.db, t.app.messenger).run(new Date(later));
    const texts = await t.database.db
      .select()
      .from(outboxMessages)
      .where(
        and(eq(outboxMessages.incidentId, alert?.id as string), eq(outboxMessages.template, 'incident_escalated')),
      );
    expect(texts.map((m) => [m.channel, m.address]).sort()).toEqual([
      ['push', marshallDevice],
      ['sms', '+639187654321'],
    ]);

    // A person acknowledges: the rounds stop. The rider pressed nothing, so is told nothing.
    const ack = await injectAs(t.app, marshall, 'POST', `/api/admin/incidents/${alert?.id}/acknowledge`);
    expect(ack.statusCode, ack.body).toBe(200);
    expect(
      await t.database.db
        .select()
        .from(incidentEscalations)
        .where(eq(incidentEscalations.incidentId, alert?.id as string)),
    ).toHaveLength(0);
    const toRider = await t.database.db
      .select()
      .from(outboxMessages)
      .where(and(eq(outboxMessages.userId, r.userId), eq(outboxMessages.template, 'sos_acknowledged')));
    expect(toRider).toHaveLength(0);
  });

  it('opens one alert of a kind while it is unresolved, whatever the tracker row says', async () => {
    const r = await rider();
    const open = () =>
      t.database.db.transaction((tx) =>
        openTrackerAlert(tx, r.userId, 'off_route', 'Off the route', undefined, t.app.messenger),
      );
    const first = await open();
    const second = await open();
    expect(first.created).toBe(true);
    expect(second).toMatchObject({ id: first.id, created: false });
    const res = await injectAs(t.app, marshall, 'POST', `/api/admin/incidents/${first.id}/resolve`, { note: 'Detour' });
    expect(res.statusCode).toBe(200);
    const third = await open();
    expect(third.created).toBe(true);
    expect(third.id).not.toBe(first.id);
  });

  it('never joins the rider’s own SOS to a tracker alert, nor counts alerts toward the SOS caps', async () => {
    const r = await rider();
    const t0 = r.start + 5 * MIN;
    await feed(t.database.db, t.app, r.userId, everyMinute(t0, [125.05, 125.06]));
    await feed(t.database.db, t.app, r.userId, stay(t0 + 2 * MIN, 125.07, 16));
    expect(await alertsOf(r.userId)).toHaveLength(1);
    // Off route too (a second kind may be open beside the first).
    await feed(t.database.db, t.app, r.userId, everyMinute(t0 + 19 * MIN, [125.08, 125.09, 125.1], 8.01));
    expect(await alertsOf(r.userId)).toHaveLength(2);
    // The rider's own presses open their own incidents (never joined to the tracker's), and
    // the cap of 3 new incidents an hour counts only those: with the alerts counted, the
    // second press would be refused.
    for (let i = 0; i < 3; i++) {
      const sos = await injectAs(t.app, r, 'POST', '/api/my/sos', { id: randomUUID(), kind: 'crash' });
      expect(sos.statusCode, sos.body).toBe(201);
      expect(sos.json().data.joined).toBeUndefined();
      const id = sos.json().data.incident.id as string;
      const done = await injectAs(t.app, marshall, 'POST', `/api/admin/incidents/${id}/resolve`, {
        note: 'Called: ok',
      });
      expect(done.statusCode, done.body).toBe(200);
    }
    const fourth = await injectAs(t.app, r, 'POST', '/api/my/sos', { id: randomUUID(), kind: 'crash' });
    expect(fourth.statusCode).toBe(429);
    // The alerts are untouched by all that.
    expect((await alertsOf(r.userId)).map((a) => a.status)).toEqual(['open', 'open']);
  });

  it('opens none for a stop at a station (fuel, food, a check)', async () => {
    const r = await rider();
    const t0 = r.start + 5 * MIN;
    await feed(t.database.db, t.app, r.userId, everyMinute(t0, [125.27, 125.28, 125.29]));
    // 150 m from the checkpoint, for 25 minutes.
    const judged = await feed(t.database.db, t.app, r.userId, stay(t0 + 3 * MIN, 125.2986, 25));
    expect(judged.state).toBe('stopped');
    expect(await alertsOf(r.userId)).toHaveLength(0);
    // Moving on and stopping 20 minutes later, away from it: that one alerts.
    await feed(t.database.db, t.app, r.userId, everyMinute(t0 + 29 * MIN, [125.31, 125.32, 125.33]));
    await feed(t.database.db, t.app, r.userId, stay(t0 + 32 * MIN, 125.34, 16));
    expect(await alertsOf(r.userId)).toHaveLength(1);
  });

  it('lets staff dismiss a stop with a reason; it does not alert again until the rider moves', async () => {
    const r = await rider();
    const t0 = r.start + 5 * MIN;
    await feed(t.database.db, t.app, r.userId, everyMinute(t0, [125.11, 125.12]));
    await feed(t.database.db, t.app, r.userId, stay(t0 + 2 * MIN, 125.13, 16));
    const [alert] = await alertsOf(r.userId);
    const url = `/api/admin/tracking/alerts/${alert?.id}/dismiss`;

    // Refused without a reason, for an officer, and for an incident that is no tracker alert.
    const empty = await injectAs(t.app, marshall, 'POST', url, { reason: ' ' });
    expect(empty.statusCode).toBe(400);
    expect(empty.json().message).toContain('reason');
    expect((await injectAs(t.app, officer, 'POST', url, { reason: 'Fuel stop' })).statusCode).toBe(403);
    const sos = await injectAs(t.app, r, 'POST', '/api/my/sos', { id: randomUUID(), kind: 'mechanical' });
    const notAlert = await injectAs(
      t.app,
      marshall,
      'POST',
      `/api/admin/tracking/alerts/${sos.json().data.incident.id}/dismiss`,
      {
        reason: 'Fuel stop',
      },
    );
    expect(notAlert.statusCode).toBe(409);
    expect(notAlert.json().code).toBe('NOT_A_TRACKER_ALERT');
    expect((await alertsOf(r.userId))[0]?.status).toBe('open');

    const res = await injectAs(t.app, marshall, 'POST', url, { reason: 'Lunch in Malaybalay' });
    expect(res.statusCode, res.body).toBe(200);
    expect(res.json().data).toMatchObject({ id: alert?.id, status: 'resolved', kind: 'stopped' });
    const [resolved] = await alertsOf(r.userId);
    expect(resolved).toMatchObject({
      status: 'resolved',
      resolutionNote: 'Lunch in Malaybalay',
      resolvedBy: marshall.userId,
    });
    expect(
      await t.database.db
        .select()
        .from(incidentEscalations)
        .where(eq(incidentEscalations.incidentId, alert?.id as string)),
    ).toHaveLength(0);
    const log = await t.database.db
      .select()
      .from(activities)
      .where(and(eq(activities.userId, r.userId), eq(activities.type, 'incident_updated')));
    expect(log.map((a) => a.details)).toContain('Lunch in Malaybalay');
    expect((await trackerOf(t.database.db, r.userId)).stopDismissed).toBe(true);
    // Twice: the incident is resolved already.
    expect((await injectAs(t.app, marshall, 'POST', url, { reason: 'again' })).statusCode).toBe(409);

    // Lunch goes on for 40 minutes: no new alert.
    await feed(t.database.db, t.app, r.userId, stay(t0 + 19 * MIN, 125.13, 40));
    expect(await alertsOf(r.userId)).toHaveLength(1);
    // Rides on 2 km and stops again for 16 minutes: a new stop, a new alert.
    await feed(t.database.db, t.app, r.userId, everyMinute(t0 + 60 * MIN, [125.14, 125.15]));
    expect((await trackerOf(t.database.db, r.userId)).stopDismissed).toBe(false);
    await feed(t.database.db, t.app, r.userId, stay(t0 + 62 * MIN, 125.15, 16));
    const all = await alertsOf(r.userId);
    expect(all.map((a) => [a.kind, a.status])).toEqual([
      ['stopped', 'resolved'],
      ['stopped', 'open'],
    ]);
  });

  it('raises `off_route` after three positions beyond the distance, not two, and clears it only below half', async () => {
    const r = await rider();
    const t0 = r.start + 5 * MIN;
    await feed(t.database.db, t.app, r.userId, everyMinute(t0, [125.01, 125.02]));
    // 0.008° of latitude is ~885 m north of the line: two positions, then back.
    const two = await feed(t.database.db, t.app, r.userId, everyMinute(t0 + 2 * MIN, [125.03, 125.04], 8.008));
    expect(two.offRouteM).toBeGreaterThan(800);
    expect(two.state).toBe('moving');
    await feed(t.database.db, t.app, r.userId, everyMinute(t0 + 4 * MIN, [125.05]));
    expect(await alertsOf(r.userId)).toHaveLength(0);
    expect((await trackerOf(t.database.db, r.userId)).offRouteStreak).toBe(0);

    const three = await feed(
      t.database.db,
      t.app,
      r.userId,
      everyMinute(t0 + 5 * MIN, [125.06, 125.07, 125.08], 8.008),
    );
    expect(three.state).toBe('off_route');
    const [alert, ...more] = await alertsOf(r.userId);
    expect(more).toHaveLength(0);
    expect(alert).toMatchObject({ kind: 'off_route', source: 'tracker', status: 'open' });
    expect(alert?.note).toMatch(
      /^Off the route for 3 positions at 8\.0080, 125\.0800, 8\.8 km along Bagani, 0\.9 km from the route$/,
    );

    // 330 m off: above half the distance, still off route (no flapping back and forth).
    const between = await feed(t.database.db, t.app, r.userId, everyMinute(t0 + 8 * MIN, [125.09], 8.003));
    expect(between.state).toBe('off_route');
    // 110 m: back on the route.
    const back = await feed(t.database.db, t.app, r.userId, everyMinute(t0 + 9 * MIN, [125.1], 8.001));
    expect(back.state).toBe('moving');
    expect((await trackerOf(t.database.db, r.userId)).offRoute).toBe(false);
    // Off again while the first alert waits for someone: no second one.
    await feed(t.database.db, t.app, r.userId, everyMinute(t0 + 10 * MIN, [125.11, 125.12, 125.13], 8.008));
    expect(await alertsOf(r.userId)).toHaveLength(1);
    expect((await trackerOf(t.database.db, r.userId)).offRoute).toBe(true);
  });

  it('raises nothing for a finished rider, and reads the thresholds it is given', async () => {
    const done = await rider(180);
    await pass(t.app, marshall, done, st.cp, new Date(done.start + 60 * MIN));
    await pass(t.app, marshall, done, st.finish, new Date(done.start + 120 * MIN));
    const t0 = done.start + 125 * MIN;
    await feed(t.database.db, t.app, done.userId, everyMinute(t0, [125.6, 125.61]));
    await feed(t.database.db, t.app, done.userId, stay(t0 + 2 * MIN, 125.62, 30));
    await feed(t.database.db, t.app, done.userId, everyMinute(t0 + 40 * MIN, [125.63, 125.64, 125.65], 8.05));
    expect(await alertsOf(done.userId)).toHaveLength(0);

    // TRACKING_STOPPED_MIN=5: a 6-minute stop alerts; TRACKING_OFF_ROUTE_M=2000: 885 m is on route.
    const r = await rider();
    const thresholds = { stoppedMinutes: 5, offRouteM: 2000 };
    const t1 = r.start + 5 * MIN;
    await feed(t.database.db, t.app, r.userId, everyMinute(t1, [125.2, 125.21, 125.22, 125.23], 8.008), { thresholds });
    expect((await trackerOf(t.database.db, r.userId)).offRoute).toBe(false);
    await feed(t.database.db, t.app, r.userId, stay(t1 + 4 * MIN, 125.24, 6, 8.008), { thresholds });
    expect((await alertsOf(r.userId)).map((a) => a.kind)).toEqual(['stopped']);
  });

  it('alerts end to end: Traccar Client’s buffered upload of a ride and a 16-minute stop rings the on-call', async () => {
    const r = await rider();
    const { trackingId } = await trackerOf(t.database.db, r.userId);
    const t0 = r.start + 5 * MIN;
    const fix = (at: number, lon: number, speed: number): TraccarFix => ({
      at: new Date(at),
      lat: 8,
      lon,
      speed,
      bearing: 90,
      altitude: 420,
      accuracy: 6,
      battery: 64,
      charging: false,
    });
    const riding = [125.41, 125.42, 125.43].map((lon, i) => fix(t0 + i * MIN, lon, 18));
    const first = await sendFixes(t.app, 'array', trackingId, riding);
    expect(first.statusCode, first.body).toBe(200);
    // The phone in a valley for 16 minutes, still; its buffer flushed in one upload.
    const still = Array.from({ length: 17 }, (_, i) => fix(t0 + (3 + i) * MIN, 125.4302 + (i % 2) * 0.0002, 0));
    const flushed = await sendFixes(t.app, 'array', trackingId, still);
    expect(flushed.statusCode, flushed.body).toBe(200);
    const [alert, ...more] = await alertsOf(r.userId);
    expect(more).toHaveLength(0);
    expect(alert).toMatchObject({ kind: 'stopped', source: 'tracker', status: 'open' });
    expect(alert?.note).toMatch(/^No movement for 1[67] min at 8\.0000, 125\.430\d, 47 km along Bagani, on the route$/);
    const pushed = await t.database.db
      .select()
      .from(outboxMessages)
      .where(and(eq(outboxMessages.incidentId, alert?.id as string), eq(outboxMessages.template, 'incident_opened')));
    expect(pushed.map((m) => m.address)).toEqual([marshallDevice]);
  });
});
