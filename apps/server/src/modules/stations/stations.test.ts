import { randomUUID } from 'node:crypto';
import { and, eq } from 'drizzle-orm';
import { describe, expect, it } from 'vitest';
import { activities } from '../../db/schema/activities';
import { editions } from '../../db/schema/editions';
import { scans, stations } from '../../db/schema/event-day';
import { DB_KINDS, useTestApp } from '../../test/build-app';
import { type Actor, approvedRider, injectAs } from '../../test/factories';
import { defaultStations } from './stations.service';

describe.each(DB_KINDS)('stations (%s)', (kind) => {
  const t = useTestApp(kind, 'admin', 'marshall', 'officer');
  const { admin, marshall, officer } = t.staff;

  const call = (actor: Actor, method: 'GET' | 'POST' | 'PATCH' | 'DELETE', url: string, payload?: unknown) =>
    injectAs(t.app, actor, method, url, payload);

  it('seeds the default set once from the route catalog, start and finish required', async () => {
    const res = await call(admin, 'POST', '/api/admin/stations/seed-defaults');
    expect(res.statusCode, res.body).toBe(201);
    const list = res.json().data as Array<{
      name: string;
      kind: string;
      routes: string[];
      required: boolean;
      order: number;
    }>;
    expect(list.map((s) => s.name)).toEqual(defaultStations().map((s) => s.name));
    expect(list[0]).toMatchObject({ kind: 'start', required: true, routes: [] });
    expect(list.at(-1)).toMatchObject({ kind: 'finish', required: true, routes: [] });
    const checkpoints = list.filter((s) => s.kind === 'checkpoint');
    expect(checkpoints.map((s) => s.name)).toEqual(['Marilog', 'Calinan', 'Toril', 'General Santos', 'Zamboanga']);
    expect(checkpoints.every((s) => !s.required)).toBe(true);
    // General Santos lies on lakan (a major stop) and bagani (a checkpoint).
    expect(checkpoints.find((s) => s.name === 'General Santos')?.routes).toEqual(['lakan', 'bagani']);
    expect(checkpoints.find((s) => s.name === 'Marilog')?.routes).toEqual(['lakambini']);
    expect(list.map((s) => s.order)).toEqual(list.map((_, i) => i));

    const again = await call(admin, 'POST', '/api/admin/stations/seed-defaults');
    expect(again.statusCode).toBe(409);
    expect(again.json().code).toBe('STATIONS_EXIST');
    const logged = await t.database.db.select().from(activities).where(eq(activities.type, 'station_updated'));
    expect(logged.some((a) => a.description.includes('default stations'))).toBe(true);
  });

  it('lists for scanners and the console, sorted by day then order', async () => {
    await call(admin, 'POST', '/api/admin/stations', { name: 'Kit hall', kind: 'kit', day: 1, order: 0 });
    await call(admin, 'POST', '/api/admin/stations', { name: 'Day two start', kind: 'start', day: 2 });
    for (const actor of [marshall, officer, admin]) {
      const res = await call(actor, 'GET', '/api/admin/stations');
      expect(res.statusCode, res.body).toBe(200);
      const list = res.json().data as Array<{ day: number; order: number }>;
      const sorted = [...list].sort((a, b) => a.day - b.day || a.order - b.order);
      expect(list.map((s) => [s.day, s.order])).toEqual(sorted.map((s) => [s.day, s.order]));
    }
    // Officers see the Event Day tab but do not change stations.
    const refused = await call(officer, 'POST', '/api/admin/stations', { name: 'X', kind: 'checkpoint' });
    expect(refused.statusCode).toBe(403);
    const byMarshall = await call(marshall, 'POST', '/api/admin/stations', { name: 'X', kind: 'checkpoint' });
    expect(byMarshall.statusCode).toBe(403);
  });

  it('creates with the defaults (day 1, all routes, last in order), edits, closes and audits each change', async () => {
    const res = await call(admin, 'POST', '/api/admin/stations', { name: '  Maragusan  ', kind: 'checkpoint', day: 3 });
    expect(res.statusCode, res.body).toBe(201);
    const created = res.json().data;
    expect(created).toMatchObject({
      name: 'Maragusan',
      day: 3,
      routes: [],
      order: 0,
      required: false,
      closed: false,
      opensAt: null,
      closesAt: null,
      lat: null,
      scanCount: 0,
    });
    const second = await call(admin, 'POST', '/api/admin/stations', { name: 'Mati', kind: 'checkpoint', day: 3 });
    expect(second.json().data.order).toBe(1);

    const patch = await call(admin, 'PATCH', `/api/admin/stations/${created.id}`, {
      routes: ['bagani', 'bagani', 'lakan'],
      opensAt: '2026-11-15T06:00:00+08:00',
      closesAt: '2026-11-15T18:00:00+08:00',
      lat: 7.3,
      lng: 126.1,
      required: true,
    });
    expect(patch.statusCode, patch.body).toBe(200);
    expect(patch.json().data).toMatchObject({
      routes: ['bagani', 'lakan'],
      opensAt: '2026-11-14T22:00:00.000Z',
      required: true,
      lat: 7.3,
    });
    const closed = await call(admin, 'PATCH', `/api/admin/stations/${created.id}`, { closed: true });
    expect(closed.json().data.closed).toBe(true);
    const log = await t.database.db
      .select()
      .from(activities)
      .where(and(eq(activities.type, 'station_updated'), eq(activities.location, 'Maragusan')));
    expect(log.map((a) => a.description)).toEqual(
      expect.arrayContaining([
        expect.stringContaining('created the station Maragusan'),
        expect.stringContaining('updated the station Maragusan'),
        expect.stringContaining('closed the station Maragusan'),
      ]),
    );

    const badWindow = await call(admin, 'PATCH', `/api/admin/stations/${created.id}`, {
      closesAt: '2026-11-14T00:00:00Z',
    });
    expect(badWindow.statusCode).toBe(400);
    const badRoute = await call(admin, 'POST', '/api/admin/stations', {
      name: 'Y',
      kind: 'checkpoint',
      routes: ['moon'],
    });
    expect(badRoute.statusCode).toBe(400);
    const nul = await call(admin, 'POST', '/api/admin/stations', { name: 'Y\u0000', kind: 'checkpoint' });
    expect(nul.statusCode).toBe(400);
    const missing = await call(admin, 'PATCH', `/api/admin/stations/${randomUUID()}`, { closed: true });
    expect(missing.statusCode).toBe(404);
  });

  it('gives each station a unique code: generated by kind or set, upper-cased; a clash is 409, a bad one 400', async () => {
    const create = (body: Record<string, unknown>) => call(admin, 'POST', '/api/admin/stations', { day: 6, ...body });
    const first = (await create({ name: 'Bike check A', kind: 'bike-check' })).json().data;
    const n = Number(/^BC(\d+)$/.exec(first.code)?.[1]);
    expect(n, first.code).toBeGreaterThan(0);
    const second = (await create({ name: 'Bike check B', kind: 'bike-check' })).json().data;
    expect(second.code).toBe(`BC${n + 1}`);
    const own = await create({ name: 'Bridge', kind: 'checkpoint', code: 'zx9' });
    expect(own.statusCode, own.body).toBe(201);
    expect(own.json().data.code).toBe('ZX9');

    const clash = await create({ name: 'Copy', kind: 'checkpoint', code: first.code.toLowerCase() });
    expect(clash.statusCode).toBe(409);
    expect(clash.json()).toMatchObject({
      code: 'STATION_CODE_TAKEN',
      message: expect.stringContaining('Bike check A'),
    });
    const patchClash = await call(admin, 'PATCH', `/api/admin/stations/${second.id}`, { code: 'ZX9' });
    expect(patchClash.statusCode).toBe(409);
    expect(patchClash.json().message).toContain('Bridge');
    const renamed = await call(admin, 'PATCH', `/api/admin/stations/${second.id}`, { code: 'bc77' });
    expect(renamed.statusCode, renamed.body).toBe(200);
    expect(renamed.json().data.code).toBe('BC77');
    const same = await call(admin, 'PATCH', `/api/admin/stations/${second.id}`, { code: 'BC77', name: 'Bike check 2' });
    expect(same.statusCode, same.body).toBe(200);

    for (const code of ['CP-3', '3CP', 'sos', 'ABCDEFGHI', '', ' CP4']) {
      const bad = await call(admin, 'PATCH', `/api/admin/stations/${second.id}`, { code });
      expect(bad.statusCode, `${code}: ${bad.body}`).toBe(400);
      const badCreate = await create({ name: 'Bad', kind: 'checkpoint', code });
      expect(badCreate.statusCode, `${code}: ${badCreate.body}`).toBe(400);
    }
    const [stored] = await t.database.db.select().from(stations).where(eq(stations.id, second.id));
    expect(stored?.code).toBe('BC77');
    expect(await t.database.db.select().from(stations).where(eq(stations.name, 'Bad'))).toHaveLength(0);
  });

  it('reorders one day, refusing strays and gaps', async () => {
    const day = 4;
    const ids: string[] = [];
    for (const name of ['A', 'B', 'C']) {
      ids.push((await call(admin, 'POST', '/api/admin/stations', { name, kind: 'checkpoint', day })).json().data.id);
    }
    const res = await call(admin, 'POST', '/api/admin/stations/reorder', { day, ids: [ids[2], ids[0], ids[1]] });
    expect(res.statusCode, res.body).toBe(200);
    expect(res.json().data.map((s: { name: string }) => s.name)).toEqual(['C', 'A', 'B']);
    const partial = await call(admin, 'POST', '/api/admin/stations/reorder', { day, ids: [ids[0]] });
    expect(partial.statusCode).toBe(400);
    const stray = await call(admin, 'POST', '/api/admin/stations/reorder', { day: 1, ids });
    expect(stray.statusCode).toBe(400);
  });

  it('deletes a station without scans; one with scans answers 409 and says to close it', async () => {
    const empty = (
      await call(admin, 'POST', '/api/admin/stations', { name: 'Spare', kind: 'checkpoint', day: 5 })
    ).json().data;
    const del = await call(admin, 'DELETE', `/api/admin/stations/${empty.id}`);
    expect(del.statusCode, del.body).toBe(200);
    expect(await t.database.db.select().from(stations).where(eq(stations.id, empty.id))).toHaveLength(0);

    const used = (await call(admin, 'POST', '/api/admin/stations', { name: 'Busy', kind: 'checkpoint', day: 5 })).json()
      .data;
    const rider = await approvedRider(t.app, admin);
    const scan = await call(marshall, 'POST', '/api/admin/scans', {
      scans: [
        {
          id: randomUUID(),
          stationId: used.id,
          riderNumber: rider.riderNumber,
          scannedAt: new Date().toISOString(),
          deviceId: 'phone-1',
          source: 'manual',
        },
      ],
    });
    expect(scan.statusCode, scan.body).toBe(200);
    const refused = await call(admin, 'DELETE', `/api/admin/stations/${used.id}`);
    expect(refused.statusCode).toBe(409);
    expect(refused.json().message).toMatch(/close it instead/);
    const list = (await call(admin, 'GET', '/api/admin/stations')).json().data;
    expect(list.find((s: { id: string }) => s.id === used.id).scanCount).toBe(1);
  });

  it('keeps to the current edition: a past copy of a station (same id and code) and its scans are not seen', async () => {
    const db = t.database.db;
    const day = 7;
    const current = (
      await call(admin, 'POST', '/api/admin/stations', { name: 'Now', kind: 'checkpoint', day, code: 'PE1' })
    ).json().data;
    const [past] = await db
      .insert(editions)
      .values({ name: `Past ${randomUUID().slice(0, 8)}`, year: 2020, current: false })
      .returning();
    if (!past) throw new Error('no edition');
    // Last year's course, as a copy leaves it: the same id, and codes of its own.
    const pastOnly = randomUUID();
    await db.insert(stations).values([
      { editionId: past.id, id: current.id, name: 'Then', code: 'PE1', kind: 'checkpoint', day, order: 0 },
      { editionId: past.id, id: pastOnly, name: 'Gone', code: 'OLD1', kind: 'checkpoint', day, order: 1 },
    ]);
    await db.insert(scans).values({
      id: randomUUID(),
      editionId: past.id,
      stationId: current.id,
      riderNumber: 1,
      scannedAt: new Date('2020-11-15T01:00:00Z'),
      deviceId: 'old-phone',
      source: 'manual',
      status: 'accepted',
    });

    const list = (await call(admin, 'GET', '/api/admin/stations')).json().data as Array<{
      id: string;
      name: string;
      scanCount: number;
    }>;
    expect(list.filter((s) => s.id === current.id)).toEqual([expect.objectContaining({ name: 'Now', scanCount: 0 })]);
    expect(list.some((s) => s.id === pastOnly)).toBe(false);

    // Last year's codes hold nothing this year; this year's still do.
    const reused = await call(admin, 'POST', '/api/admin/stations', {
      name: 'New',
      kind: 'checkpoint',
      day,
      code: 'OLD1',
    });
    expect(reused.statusCode, reused.body).toBe(201);
    const patched = await call(admin, 'PATCH', `/api/admin/stations/${current.id}`, { name: 'Now renamed' });
    expect(patched.json().data).toMatchObject({ name: 'Now renamed', scanCount: 0 });
    expect((await call(admin, 'PATCH', `/api/admin/stations/${pastOnly}`, { closed: true })).statusCode).toBe(404);
    const reorder = await call(admin, 'POST', '/api/admin/stations/reorder', {
      day,
      ids: [reused.json().data.id, current.id],
    });
    expect(reorder.statusCode, reorder.body).toBe(200);

    const scan = await call(marshall, 'POST', '/api/admin/scans', {
      scans: [
        {
          id: randomUUID(),
          stationId: pastOnly,
          riderNumber: 1,
          scannedAt: new Date().toISOString(),
          deviceId: 'phone-1',
          source: 'manual',
        },
      ],
    });
    expect(scan.json().data.results[0]).toMatchObject({ status: 'invalid', message: 'Unknown station' });

    // Its past copy's scans do not keep this year's station: it goes, the copy stays.
    expect((await call(admin, 'DELETE', `/api/admin/stations/${current.id}`)).statusCode).toBe(200);
    const left = await db.select().from(stations).where(eq(stations.id, current.id));
    expect(left.map((s) => [s.editionId, s.name])).toEqual([[past.id, 'Then']]);
  });
});
