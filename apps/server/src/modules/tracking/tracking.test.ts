import { randomUUID } from 'node:crypto';
import { KNOTS_TO_MS, TRACKING_CONSENT_VERSION, trackingSetupUrl } from '@rally/shared/catalog/tracking';
import { and, asc, eq } from 'drizzle-orm';
import type { FastifyInstance } from 'fastify';
import { afterAll, beforeAll, describe, expect, it, vi } from 'vitest';
import { activities } from '../../db/schema/activities';
import { dataAccess } from '../../db/schema/data-access';
import { editions } from '../../db/schema/editions';
import { incidents } from '../../db/schema/incidents';
import { positions, trackers } from '../../db/schema/tracking';
import { publishEvent } from '../../lib/event-bus';
import { DB_KINDS, useTestApp } from '../../test/build-app';
import { type Actor, approvedRider, bearer, injectAs, registerRider } from '../../test/factories';
import { openSse, type SseConnection, waitLive } from '../../test/sse-client';
import {
  type Fix,
  fixesOf,
  OSMAND_PATH,
  readGpx,
  replayTrack,
  sendFixes,
  traccarRequest,
} from '../../test/traccar-client';
import { currentEdition } from '../editions/editions.service';

const SAYRE_HIGHWAY = new URL('../../test/fixtures/sayre-highway.gpx', import.meta.url);

/** A fix `minutesAgo` before now on the Sayre Highway near Manolo Fortich. */
function fix(minutesAgo: number, over: Partial<Fix> = {}): Fix {
  return {
    at: new Date(Math.floor((Date.now() - minutesAgo * 60_000) / 1000) * 1000),
    lat: 8.368 + minutesAgo / 10_000,
    lon: 124.864,
    speed: 12.5,
    bearing: 135,
    altitude: 640,
    accuracy: 6,
    battery: 81,
    charging: false,
    ...over,
  };
}

describe.each(DB_KINDS)('live tracking: positions in, the rider’s opt-in (%s)', (kind) => {
  const t = useTestApp(kind, 'admin', 'officer');
  let app: FastifyInstance;
  beforeAll(() => {
    app = t.app;
  });

  /** A verified rider who turned tracking on: their tracking id. */
  async function trackedRider(): Promise<Actor & { trackingId: string; riderNumber: number }> {
    const rider = await approvedRider(app, t.staff.admin);
    const res = await injectAs(app, rider, 'PUT', '/api/my/tracking', {
      enabled: true,
      consentVersion: TRACKING_CONSENT_VERSION,
    });
    expect(res.statusCode, res.body).toBe(200);
    return { ...rider, trackingId: res.json().data.trackingId };
  }

  const stored = (userId: string) =>
    t.database.db.select().from(positions).where(eq(positions.userId, userId)).orderBy(asc(positions.at));
  const trackerOf = async (userId: string) => {
    const [row] = await t.database.db.select().from(trackers).where(eq(trackers.userId, userId));
    return row;
  };

  it('opts a verified rider in with the current consent, out at once, and in again with a new id', async () => {
    const rider = await approvedRider(app, t.staff.admin);
    const before = await injectAs(app, rider, 'GET', '/api/my/tracking');
    expect(before.json().data).toEqual({
      enabled: false,
      trackingId: null,
      setupUrl: null,
      consentVersion: null,
      consentedAt: null,
      lastPosition: null,
    });

    const stale = await injectAs(app, rider, 'PUT', '/api/my/tracking', {
      enabled: true,
      consentVersion: '2020-01-01',
    });
    expect(stale.statusCode).toBe(409);
    expect(stale.json()).toMatchObject({ code: 'CONSENT_REQUIRED' });
    expect(stale.json().message).toContain(TRACKING_CONSENT_VERSION);
    const none = await injectAs(app, rider, 'PUT', '/api/my/tracking', { enabled: true });
    expect(none.statusCode).toBe(400);
    expect(none.json().message).toBe('consentVersion is required to turn tracking on');
    expect(await trackerOf(rider.userId)).toBeUndefined();

    const on = await injectAs(app, rider, 'PUT', '/api/my/tracking', {
      enabled: true,
      consentVersion: TRACKING_CONSENT_VERSION,
    });
    expect(on.statusCode, on.body).toBe(200);
    const first = on.json().data;
    expect(first).toMatchObject({ enabled: true, consentVersion: TRACKING_CONSENT_VERSION });
    expect(first.trackingId).toMatch(/^[A-Za-z0-9_-]{24}$/);
    expect(first.setupUrl).toBe(trackingSetupUrl('http://rally.test', first.trackingId));
    expect(first.setupUrl).toBe(
      `http://rally.test/api/tracking/osmand?id=${first.trackingId}&interval=60&distance=100&accuracy=high&buffer=true`,
    );
    // Saying "on" again keeps the id the phone already has.
    const again = await injectAs(app, rider, 'PUT', '/api/my/tracking', {
      enabled: true,
      consentVersion: TRACKING_CONSENT_VERSION,
    });
    expect(again.json().data.trackingId).toBe(first.trackingId);
    expect((await sendFixes(app, 'android', first.trackingId, [fix(3)])).statusCode).toBe(200);

    const off = await injectAs(app, rider, 'PUT', '/api/my/tracking', { enabled: false });
    expect(off.statusCode).toBe(200);
    expect(off.json().data).toMatchObject({ enabled: false, trackingId: null, setupUrl: null });
    expect((await trackerOf(rider.userId))?.withdrawnAt).toBeInstanceOf(Date);
    const refused = await sendFixes(app, 'android', first.trackingId, [fix(2)]);
    expect(refused.statusCode).toBe(404);
    expect(refused.json().code).toBe('TRACKER_NOT_FOUND');

    const back = await injectAs(app, rider, 'PUT', '/api/my/tracking', {
      enabled: true,
      consentVersion: TRACKING_CONSENT_VERSION,
    });
    const second = back.json().data.trackingId;
    expect(second).not.toBe(first.trackingId);
    expect((await sendFixes(app, 'android', first.trackingId, [fix(1)])).statusCode).toBe(404);
    expect((await sendFixes(app, 'android', second, [fix(1)])).statusCode).toBe(200);

    const log = await t.database.db
      .select({ description: activities.description })
      .from(activities)
      .where(and(eq(activities.userId, rider.userId), eq(activities.type, 'tracking_consent')))
      .orderBy(asc(activities.createdAt));
    expect(log.map((a) => a.description)).toEqual([
      expect.stringContaining('turned live tracking on'),
      expect.stringContaining('turned live tracking off'),
      expect.stringContaining('turned live tracking on'),
    ]);
  });

  it('keeps tracking to verified riders, and the id to the rider', async () => {
    const unverified = await registerRider(app);
    const res = await injectAs(app, unverified, 'PUT', '/api/my/tracking', {
      enabled: true,
      consentVersion: TRACKING_CONSENT_VERSION,
    });
    expect(res.statusCode).toBe(403);
    expect(res.json().code).toBe('NOT_VERIFIED');
    const anonymous = await app.inject({ method: 'GET', url: '/api/my/tracking' });
    expect(anonymous.statusCode).toBe(401);
    // The OsmAnd route's form parser is its own: other routes still refuse a form.
    const rider = await approvedRider(app, t.staff.admin);
    const form = await app.inject({
      method: 'PUT',
      url: '/api/my/tracking',
      headers: { ...bearer(rider.token), 'content-type': 'application/x-www-form-urlencoded' },
      payload: `enabled=true&consentVersion=${TRACKING_CONSENT_VERSION}`,
    });
    expect(form.statusCode).toBe(415);
  });

  it('stores each of Traccar Client’s forms in the product’s units and reads the last one back', async () => {
    const rider = await trackedRider();
    const android = fix(10, { speed: 10, battery: 64, accuracy: 0 });
    const json = fix(8, { speed: 12, battery: 63.5, charging: true, bearing: 200 });
    const batch = [fix(6, { speed: 0 }), fix(5, { speed: 13.5, altitude: 701.5 })];
    const form = fix(4, { speed: 9, battery: 62 });
    for (const [f, fixes] of [
      ['android', [android]],
      ['json', [json]],
      ['array', batch],
      ['form', [form]],
    ] as const) {
      const res = await sendFixes(app, f, rider.trackingId, fixes);
      expect(res.statusCode, `${f}: ${res.body}`).toBe(200);
      expect(res.json().data).toMatchObject({ stored: fixes.length, fresh: fixes.length, sos: null });
    }
    const rows = await stored(rider.userId);
    expect(rows.map((r) => r.at.toISOString())).toEqual([android, json, ...batch, form].map((f) => f.at.toISOString()));
    const [a, j, b0, b1, fo] = rows;
    // The Android app's knots (its own factor, 1.943844) back to m/s, to the centimetre.
    expect(a?.speed).toBeCloseTo(10 * 1.943844 * KNOTS_TO_MS, 6);
    expect(a?.speed).toBeCloseTo(10, 2);
    expect(a).toMatchObject({ lat: android.lat, lng: android.lon, battery: 64, accuracy: 0, charging: false });
    // App 9.x: m/s as it is, battery 0–1 as a percentage, heading as bearing.
    expect(j).toMatchObject({ speed: 12, battery: 63.5, charging: true, bearing: 200, altitude: 640 });
    expect(b0?.speed).toBe(0);
    expect(b1?.speed).toBeCloseTo(13.5, 2);
    expect(b1?.altitude).toBe(701.5);
    expect(fo?.speed).toBeCloseTo(9, 2);
    expect(fo?.battery).toBe(62);

    const mine = await injectAs(app, rider, 'GET', '/api/my/tracking');
    expect(mine.json().data.lastPosition).toMatchObject({
      lat: form.lat,
      lng: form.lon,
      at: form.at.toISOString(),
      battery: 62,
      charging: false,
    });
  });

  it('reads timestamps in seconds, milliseconds and ISO 8601, and GET as well as POST', async () => {
    const rider = await trackedRider();
    const at = new Date(Math.floor(Date.now() / 1000) * 1000 - 30 * 60_000);
    const times = [
      String(at.getTime() / 1000),
      String(at.getTime() + 60_000),
      new Date(at.getTime() + 120_000).toISOString(),
      new Date(at.getTime() + 180_000).toISOString().replace('.000Z', '+08:00').replace('T', ' '),
    ];
    for (const [i, timestamp] of times.entries()) {
      const res = await app.inject({
        method: i % 2 === 0 ? 'GET' : 'POST',
        url: `${OSMAND_PATH}?deviceid=${rider.trackingId}&lat=8.1${i}&lon=125.1&timestamp=${encodeURIComponent(timestamp)}`,
      });
      expect(res.statusCode, res.body).toBe(200);
    }
    const rows = await stored(rider.userId);
    expect(rows.map((r) => r.at.getTime())).toEqual([
      at.getTime() - 8 * 3_600_000 + 180_000,
      at.getTime(),
      at.getTime() + 60_000,
      at.getTime() + 120_000,
    ]);
  });

  it('answers 200 to a resend and stores nothing twice', async () => {
    const rider = await trackedRider();
    const batch = [fix(9), fix(8), fix(7)];
    expect((await sendFixes(app, 'array', rider.trackingId, batch)).json().data.stored).toBe(3);
    const resend = await sendFixes(app, 'array', rider.trackingId, batch);
    expect(resend.statusCode).toBe(200);
    expect(resend.json()).toMatchObject({ message: 'Already stored', data: { stored: 0, fresh: 0 } });
    const single = await sendFixes(app, 'android', rider.trackingId, [batch[1] as Fix]);
    expect(single.statusCode).toBe(200);
    expect(single.json().data.stored).toBe(0);
    expect(await stored(rider.userId)).toHaveLength(3);
  });

  it('refuses a malformed position with its reason and stores nothing of the request', async () => {
    const rider = await trackedRider();
    const id = rider.trackingId;
    const ts = Math.floor(Date.now() / 1000) - 60;
    const cases: Array<[string, RegExp]> = [
      [`id=${id}&lat=91&lon=125&timestamp=${ts}`, /lat must be between -90 and 90, got 91/],
      [`id=${id}&lat=8&lon=-180.5&timestamp=${ts}`, /lon must be between -180 and 180/],
      [`id=${id}&lat=NaN&lon=125&timestamp=${ts}`, /lat must be a number/],
      [`id=${id}&lat=eight&lon=125&timestamp=${ts}`, /lat must be a number, got "eight"/],
      [`id=${id}&lon=125&timestamp=${ts}`, /lat is required/],
      [`id=${id}&lat=8&lon=125`, /timestamp is required/],
      [`id=${id}&lat=8&lon=125&timestamp=yesterday`, /timestamp must be Unix seconds/],
      [`id=${id}&lat=8&lon=125&timestamp=${ts + 25 * 3600}`, /more than 24 hours ahead/],
      [`id=${id}&lat=8&lon=125&timestamp=${ts}&speed=fast`, /speed must be a number/],
      [`id=${id}&lat=8&lon=125&timestamp=${ts}&batt=140`, /batt must be a percentage/],
      [`lat=8&lon=125&timestamp=${ts}`, /id is required/],
    ];
    for (const [query, reason] of cases) {
      const res = await app.inject({ method: 'POST', url: `${OSMAND_PATH}?${query}` });
      expect(res.statusCode, query).toBe(400);
      expect(res.json().message, query).toMatch(reason);
    }
    // One bad point in a flush: none of it is stored.
    const batch = traccarRequest('array', id, [fix(5), fix(4)]);
    const body = JSON.parse(String(batch.payload)) as Array<Record<string, unknown>>;
    (body[1] as Record<string, unknown>).lat = 91;
    const bad = await app.inject({ ...batch, payload: JSON.stringify(body) });
    expect(bad.statusCode).toBe(400);
    expect(bad.json().message).toBe('[1].lat must be between -90 and 90, got 91');
    const mixed = await app.inject({
      ...batch,
      payload: JSON.stringify([body[0], { ...body[0], id: 'someone-else' }]),
    });
    expect(mixed.statusCode).toBe(400);
    const notJson = await app.inject({ ...batch, payload: '{"location":' });
    expect(notJson.statusCode).toBe(400);
    expect(await stored(rider.userId)).toHaveLength(0);
    expect((await trackerOf(rider.userId))?.lastAt).toBeNull();
  });

  it('refuses a position from before the edition started', async () => {
    const rider = await trackedRider();
    const edition = await currentEdition(t.database.db);
    const yesterday = new Date(Date.now() - 24 * 3_600_000).toISOString().slice(0, 10);
    await t.database.db.update(editions).set({ startsOn: yesterday }).where(eq(editions.id, edition.id));
    try {
      const res = await sendFixes(app, 'json', rider.trackingId, [fix(3 * 24 * 60)]);
      expect(res.statusCode).toBe(400);
      expect(res.json().message).toMatch(/is before .* started/);
      expect((await sendFixes(app, 'json', rider.trackingId, [fix(1)])).statusCode).toBe(200);
      expect(await stored(rider.userId)).toHaveLength(1);
    } finally {
      await t.database.db.update(editions).set({ startsOn: edition.startsOn }).where(eq(editions.id, edition.id));
    }
  });

  it('answers 404 to an unknown id and to another edition’s tracker', async () => {
    const unknown = await sendFixes(app, 'android', 'x'.repeat(24), [fix(1)]);
    expect(unknown.statusCode).toBe(404);
    expect(unknown.json().message).toMatch(/Unknown tracking id/);

    const rider = await approvedRider(app, t.staff.admin);
    const [past] = await t.database.db
      .insert(editions)
      .values({ name: `Past ${randomUUID().slice(0, 8)}`, year: 2020, current: false })
      .returning();
    if (!past) throw new Error('no edition');
    const pastId = `past-${randomUUID()}`;
    await t.database.db
      .insert(trackers)
      .values({ editionId: past.id, userId: rider.userId, trackingId: pastId, enabled: true });
    const res = await sendFixes(app, 'json', pastId, [fix(1)]);
    expect(res.statusCode).toBe(404);
    expect(await stored(rider.userId)).toHaveLength(0);
  });

  it('opens exactly one SOS for the app’s alarm, however often it is resent', async () => {
    const rider = await trackedRider();
    const alarm = fix(2, { sos: true, accuracy: 12 });
    const first = await sendFixes(app, 'android', rider.trackingId, [alarm]);
    expect(first.statusCode, first.body).toBe(200);
    expect(first.json().data.sos).toMatchObject({ created: true });
    const again = await sendFixes(app, 'android', rider.trackingId, [alarm]);
    expect(again.statusCode).toBe(200);
    expect(again.json().data.sos).toEqual({ incidentId: first.json().data.sos.incidentId, created: false });
    const opened = await t.database.db.select().from(incidents).where(eq(incidents.riderId, rider.userId));
    expect(opened).toHaveLength(1);
    expect(opened[0]).toMatchObject({
      source: 'tracker',
      kind: 'other',
      status: 'open',
      lat: alarm.lat,
      lng: alarm.lon,
      accuracy: 12,
      note: 'SOS from the tracker (Traccar Client)',
    });
    // App 9.x's SOS (extras.alarm) joins the rider's open incident, as a second press does.
    const json = await sendFixes(app, 'json', rider.trackingId, [fix(1, { sos: true })]);
    expect(json.json().data.sos).toMatchObject({ incidentId: opened[0]?.id, created: false });
    expect(await t.database.db.select().from(incidents).where(eq(incidents.riderId, rider.userId))).toHaveLength(1);
  });

  it('stores an out-of-order flush without moving the last position backwards', async () => {
    const rider = await trackedRider();
    const now = fix(1);
    expect((await sendFixes(app, 'json', rider.trackingId, [now])).statusCode).toBe(200);
    const valley = [fix(130), fix(125), fix(120)];
    const flush = await sendFixes(app, 'array', rider.trackingId, valley);
    expect(flush.statusCode).toBe(200);
    expect(flush.json().data).toMatchObject({ stored: 3, fresh: 0 });
    expect(await stored(rider.userId)).toHaveLength(4);
    const tracker = await trackerOf(rider.userId);
    expect(tracker?.lastAt?.toISOString()).toBe(now.at.toISOString());
    expect(tracker?.lastLat).toBe(now.lat);
  });

  describe('on the staff event stream', () => {
    const open: SseConnection[] = [];
    let url: string;
    beforeAll(async () => {
      await app.listen({ port: 0, host: '127.0.0.1' });
      const address = app.server.address();
      if (!address || typeof address === 'string') throw new Error('no port');
      url = `http://127.0.0.1:${address.port}/api/admin/event/stream`;
    });
    afterAll(() => {
      for (const c of open) c.close();
    });

    it('sends one small position event per request, to handle_incidents holders only', async () => {
      const admin = await openSse(url, t.staff.admin.token);
      const officer = await openSse(url, t.staff.officer.token);
      open.push(admin, officer);
      await Promise.all([waitLive(admin), waitLive(officer)]);
      const rider = await trackedRider();
      const batch = [fix(4), fix(3), fix(2)];
      expect((await sendFixes(app, 'array', rider.trackingId, batch)).statusCode).toBe(200);
      const event = await admin.waitFor((e) => e.event === 'position' && JSON.parse(e.data).userId === rider.userId);
      const data = JSON.parse(event.data);
      expect(data).toMatchObject({
        userId: rider.userId,
        riderNumber: rider.riderNumber,
        last: { lat: batch[2]?.lat, lng: batch[2]?.lon, at: batch[2]?.at.toISOString() },
      });
      expect(Object.keys(data).sort()).toEqual(['alongM', 'last', 'riderNumber', 'state', 'userId']);
      // A marker after it: the officer's stream has had its chance to carry the position.
      const marker = randomUUID();
      await t.database.db.transaction((tx) =>
        publishEvent(tx, 'course', { change: marker, riderId: null, riderNumber: null, kitName: null }),
      );
      await officer.waitFor((e) => e.event === 'course' && e.data.includes(marker));
      await admin.waitFor((e) => e.event === 'course' && e.data.includes(marker));
      expect(officer.events.some((e) => e.event === 'position')).toBe(false);
      expect(admin.events.filter((e) => e.event === 'position' && e.data.includes(rider.userId))).toHaveLength(1);
      // The rider's secret never travels.
      expect(admin.events.some((e) => e.data.includes(rider.trackingId))).toBe(false);
      // Who looked: the admin's stream carried the rider's position, one line for the stream
      // however many positions follow; the officer's carried none.
      const lines = () =>
        t.database.db
          .select({ staffId: dataAccess.staffId, fields: dataAccess.fields, source: dataAccess.source })
          .from(dataAccess)
          .where(eq(dataAccess.riderId, rider.userId));
      await vi.waitFor(async () => expect(await lines()).toHaveLength(1), { timeout: 5_000 });
      expect(await lines()).toEqual([
        { staffId: t.staff.admin.userId, fields: ['position'], source: 'live board stream' },
      ]);
      const later = fix(1);
      expect((await sendFixes(app, 'array', rider.trackingId, [later])).statusCode).toBe(200);
      await admin.waitFor((e) => e.event === 'position' && e.data.includes(later.at.toISOString()));
      const marker2 = randomUUID();
      await t.database.db.transaction((tx) =>
        publishEvent(tx, 'course', { change: marker2, riderId: null, riderNumber: null, kitName: null }),
      );
      await admin.waitFor((e) => e.event === 'course' && e.data.includes(marker2));
      expect(await lines()).toHaveLength(1);
    });
  });

  it('replays the Sayre Highway track through every form and ends on its last point', async () => {
    const rider = await trackedRider();
    const points = readGpx(SAYRE_HIGHWAY);
    expect(points.length).toBeGreaterThan(200);
    const span = (points.at(-1)?.at.getTime() ?? 0) - (points[0]?.at.getTime() ?? 0);
    const start = new Date(Math.floor((Date.now() - span - 60_000) / 1000) * 1000);
    const replay = await replayTrack(app, rider.trackingId, points, start);
    expect(replay.statuses.every((s) => s === 200)).toBe(true);
    expect(replay.held.length).toBeGreaterThan(30);
    const rows = await stored(rider.userId);
    expect(rows).toHaveLength(points.length);
    const fixes = fixesOf(points, start);
    const last = fixes.at(-1) as Fix;
    const tracker = await trackerOf(rider.userId);
    expect(tracker).toMatchObject({ lastLat: last.lat, lastLng: last.lon, lastAt: last.at });
    // The 20-minute stop reads as stopped fixes; the detour is stored as sent.
    expect(rows.filter((r) => (r.speed ?? 1) < 0.3).length).toBeGreaterThanOrEqual(15);
    // A second replay (every answer lost) changes nothing.
    await replayTrack(app, rider.trackingId, points, start);
    expect(await stored(rider.userId)).toHaveLength(points.length);
    expect((await injectAs(app, rider, 'GET', '/api/my/tracking')).json().data.lastPosition.at).toBe(
      last.at.toISOString(),
    );
  });

  it('answers each request of a burst on its own: many riders at once, one unknown id, one bad time', async () => {
    const riders = await Promise.all([trackedRider(), trackedRider(), trackedRider()]);
    // A valley back in coverage: every rider's buffer, one position a request, all in flight
    // at once (the Android app's form), with a resend racing its original.
    // The times are made once: `fix` reads the clock, and a second ticking between the send
    // and the check would compare different instants.
    const times = new Map([30, 29, 28, 27].map((m) => [m, fix(m).at]));
    const at = (m: number) => times.get(m) as Date;
    const sends = riders.flatMap((r) =>
      [30, 29, 28, 27, 27].map((m) => ({ rider: r, fix: fix(m, { lat: 8.3 + m / 1000, at: at(m) }) })),
    );
    const unknown = fix(5);
    const future = fix(-25 * 60);
    const answers = await Promise.all([
      ...sends.map(({ rider, fix: f }) => app.inject(traccarRequest('android', rider.trackingId, [f]))),
      app.inject(traccarRequest('android', 'no-such-tracking-id-000000', [unknown])),
      app.inject(traccarRequest('android', (riders[0] as (typeof riders)[number]).trackingId, [future])),
    ]);
    expect(answers.slice(0, sends.length).map((a) => a.statusCode)).toEqual(sends.map(() => 200));
    expect(answers[sends.length]?.statusCode).toBe(404);
    expect(answers[sends.length + 1]?.statusCode).toBe(400);
    // Each rider: four positions stored once, the last the newest, the resend stored nothing twice.
    const storedCounts = answers.slice(0, sends.length).reduce((n, a) => n + (a.json().data.stored as number), 0);
    expect(storedCounts).toBe(riders.length * 4);
    for (const r of riders) {
      const rows = await stored(r.userId);
      expect(rows.map((p) => p.at.toISOString())).toEqual([30, 29, 28, 27].map((m) => at(m).toISOString()));
      expect((await trackerOf(r.userId))?.lastAt?.toISOString()).toBe(at(27).toISOString());
    }
  });
});
