import { randomUUID } from 'node:crypto';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { buildTestApp, DB_KINDS, type TestApp } from '../../test/build-app';
import { type Actor, approvedRider, bearer, staff, syncScan } from '../../test/factories';

// Every key the public tracker may carry; a key not
// listed here fails the walk below, so a field added to the payload must be added here on
// purpose.
const ALLOWED_KEYS = new Set([
  'success',
  'data',
  'meta',
  'started',
  'over',
  'routeId',
  'riders',
  'finishers',
  'dnfCount',
  'counts',
  'not_started',
  'on_course',
  'finished',
  'dnf',
  'dns',
  'riderNumber',
  'kitName',
  'category',
  'state',
  'lastStation',
  'lastSeenAt',
  'elapsedMs',
  'finishedAt',
  'rank',
]);

function keysOf(value: unknown, into = new Set<string>()): Set<string> {
  if (Array.isArray(value)) for (const v of value) keysOf(v, into);
  else if (value && typeof value === 'object') {
    for (const [k, v] of Object.entries(value)) {
      into.add(k);
      keysOf(v, into);
    }
  }
  return into;
}

// Private values the riders registered with: none may appear anywhere in the payload.
const PRIVATE = {
  phoneNumber: '09170009999',
  address: 'Purok 7 Hidden Lane',
  birthdate: '1988-02-29',
  emergencyContactName: 'Secret Kin Amihan',
  emergencyContactNumber: '09180007777',
};

describe.each(DB_KINDS)('public live tracker (%s)', (kind) => {
  let t: TestApp;
  let admin: Actor;
  let marshall: Actor;
  const riders: Array<Actor & { riderNumber: number }> = [];
  const station = {} as Record<'start' | 'cp' | 'finish', string>;

  const live = (headers: Record<string, string> = {}) => t.app.inject({ method: 'GET', url: '/api/live', headers });

  async function makeStation(body: Record<string, unknown>) {
    const res = await t.app.inject({
      method: 'POST',
      url: '/api/admin/stations',
      headers: bearer(admin.token),
      payload: body,
    });
    expect(res.statusCode, res.body).toBe(201);
    return res.json().data.id as string;
  }

  async function sync(stationId: string, riderNumber: number, scannedAt: string) {
    const res = await syncScan(t.app, marshall, {
      stationId,
      riderNumber,
      scannedAt,
      deviceId: 'phone-L',
      source: 'manual',
    });
    expect(res.status, res.reason).toBe('accepted');
  }

  beforeAll(async () => {
    t = await buildTestApp(kind);
    admin = await staff(t.app, t.database.db, 'admin');
    marshall = await staff(t.app, t.database.db, 'marshall');
    for (const [i, category] of ['lakan', 'lakan', 'bagani'].entries()) {
      riders.push(
        await approvedRider(t.app, admin, {
          category,
          kitName: `IRON HAWK ${i}`,
          email: `live.${i}.${randomUUID()}@example.com`,
          ...PRIVATE,
        }),
      );
    }
    station.start = await makeStation({ name: 'Flag-off Plaza', kind: 'start', order: 0 });
    station.cp = await makeStation({ name: 'Secret Ridge', kind: 'checkpoint', order: 1 });
    station.finish = await makeStation({ name: 'Victory Arch', kind: 'finish', order: 2 });
  });
  afterAll(async () => t?.close());

  it('answers without sign-in and keeps the route classified before the start', async () => {
    const res = await live();
    expect(res.statusCode, res.body).toBe(200);
    const body = res.json();
    expect(body.meta).toEqual({ started: false, over: false });
    const lakan = body.data.find((r: { routeId: string }) => r.routeId === 'lakan');
    expect(lakan.riders).toHaveLength(2);
    expect(lakan.riders[0]).toMatchObject({ state: 'not_started', lastStation: null, lastSeenAt: null });
    for (const name of ['Flag-off Plaza', 'Secret Ridge', 'Victory Arch']) expect(res.body).not.toContain(name);
  });

  it('shows the last station, the finishers with elapsed time, and nothing private', async () => {
    const [a, b, c] = riders as [Actor & { riderNumber: number }, Actor & { riderNumber: number }, (typeof riders)[0]];
    const t0 = Date.now() - 3 * 3600_000;
    const at = (minutes: number) => new Date(t0 + minutes * 60_000).toISOString();
    await sync(station.start, a.riderNumber, at(0));
    await sync(station.cp, a.riderNumber, at(60));
    await sync(station.finish, a.riderNumber, at(150));
    await sync(station.start, b.riderNumber, at(1));
    await sync(station.cp, b.riderNumber, at(70));

    const res = await live();
    expect(res.statusCode).toBe(200);
    const body = res.json();
    expect(body.meta.started).toBe(true);
    const lakan = body.data.find((r: { routeId: string }) => r.routeId === 'lakan');
    const byNumber = (n: number) => lakan.riders.find((r: { riderNumber: number }) => r.riderNumber === n);
    expect(byNumber(a.riderNumber)).toMatchObject({
      state: 'finished',
      lastStation: 'Victory Arch',
      lastSeenAt: at(150),
      elapsedMs: 150 * 60_000,
      kitName: 'IRON HAWK 0',
      category: 'lakan',
    });
    expect(byNumber(b.riderNumber)).toMatchObject({ state: 'on_course', lastStation: 'Secret Ridge' });
    expect(byNumber(b.riderNumber)).not.toHaveProperty('elapsedMs');
    expect(lakan.finishers).toEqual([
      {
        riderNumber: a.riderNumber,
        kitName: 'IRON HAWK 0',
        category: 'lakan',
        elapsedMs: 150 * 60_000,
        finishedAt: at(150),
        rank: 1,
      },
    ]);
    expect(lakan.counts).toMatchObject({ finished: 1, on_course: 1 });
    const bagani = body.data.find((r: { routeId: string }) => r.routeId === 'bagani');
    expect(bagani.riders.map((r: { riderNumber: number }) => r.riderNumber)).toEqual([c.riderNumber]);

    // The public profile carries the course's finisher mark.
    const profileOf = async (id: string) => (await t.app.inject({ url: `/api/users/${id}/profile` })).json().data;
    expect((await profileOf(a.userId)).finisher).toBe(true);
    expect((await profileOf(b.userId)).finisher).toBe(false);

    // The walk: every key is a public one, and no private value appears anywhere.
    const unexpected = [...keysOf(body)].filter((k) => !ALLOWED_KEYS.has(k));
    expect(unexpected).toEqual([]);
    for (const value of Object.values(PRIVATE)) expect(res.body).not.toContain(value);
    for (const r of riders) {
      expect(res.body).not.toContain(r.email);
      expect(res.body).not.toContain(r.userId);
    }
  });

  it('sends an ETag and a short max-age, and answers 304 to If-None-Match', async () => {
    const first = await live();
    const etag = first.headers.etag as string;
    expect(etag).toMatch(/^W\/"[\w-]+"$/);
    expect(first.headers['cache-control']).toBe('public, max-age=10, must-revalidate');
    const again = await live({ 'if-none-match': etag });
    expect(again.statusCode).toBe(304);
    expect(again.body).toBe('');
    expect(again.headers.etag).toBe(etag);

    // Phones get the same answer compressed, under the same (weak) tag.
    const { gunzipSync, brotliDecompressSync } = await import('node:zlib');
    const gz = await live({ 'accept-encoding': 'gzip' });
    expect(gz.headers['content-encoding']).toBe('gzip');
    expect(gz.headers.etag).toBe(etag);
    expect(JSON.parse(gunzipSync(gz.rawPayload).toString())).toEqual(first.json());
    const br = await live({ 'accept-encoding': 'gzip, deflate, br' });
    expect(br.headers['content-encoding']).toBe('br');
    expect(JSON.parse(brotliDecompressSync(br.rawPayload).toString())).toEqual(first.json());

    // A synced scan changes the answer at once in this process: the old tag no longer matches.
    const [, , c] = riders as [unknown, unknown, Actor & { riderNumber: number }];
    await sync(station.start, c.riderNumber, new Date().toISOString());
    const changed = await live({ 'if-none-match': etag });
    expect(changed.statusCode).toBe(200);
    expect(changed.headers.etag).not.toBe(etag);
  });

  it('counts staff DNF decisions and keeps their notes private', async () => {
    const [, b] = riders as [unknown, Actor & { riderNumber: number }];
    const note = 'Crashed near the ridge, ambulance called';
    const decided = await t.app.inject({
      method: 'POST',
      url: `/api/admin/event/riders/${b.userId}/decision`,
      headers: bearer(admin.token),
      payload: { decision: 'dnf', reason: 'withdrew', note },
    });
    expect(decided.statusCode, decided.body).toBe(200);
    const res = await live();
    const lakan = res.json().data.find((r: { routeId: string }) => r.routeId === 'lakan');
    expect(lakan.dnfCount).toBe(1);
    expect(lakan.riders.find((r: { riderNumber: number }) => r.riderNumber === b.riderNumber).state).toBe('dnf');
    expect(res.body).not.toContain(note);
    expect(res.body).not.toContain('withdrew');
    expect([...keysOf(res.json())].filter((k) => !ALLOWED_KEYS.has(k))).toEqual([]);
  });
});
