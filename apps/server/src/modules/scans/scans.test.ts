import { randomUUID } from 'node:crypto';
import { and, eq, sql } from 'drizzle-orm';
import { beforeAll, describe, expect, it } from 'vitest';
import { activities } from '../../db/schema/activities';
import { entries } from '../../db/schema/entries';
import { scans } from '../../db/schema/event-day';
import { inEdition } from '../../lib/edition-of';
import { DB_KINDS, useTestApp } from '../../test/build-app';
import { type Actor, codedRider, injectAs, registerRider } from '../../test/factories';

type Rider = Actor & { riderNumber: number; riderCode: string };

describe.each(DB_KINDS)('scans (%s)', (kind) => {
  const t = useTestApp(kind, 'admin', 'marshall', 'officer');
  const { admin, marshall, officer } = t.staff;
  let rider: Actor;
  // Filled in beforeAll.
  const station = {} as Record<'start' | 'cp1' | 'cp2' | 'finish' | 'lakambini' | 'later' | 'over', string>;

  const call = (actor: Actor, method: 'GET' | 'POST' | 'PATCH', url: string, payload?: unknown) =>
    injectAs(t.app, actor, method, url, payload);

  const verifiedRider = (overrides: Record<string, string> = {}): Promise<Rider> =>
    codedRider(t.app, t.database.db, admin, overrides);

  async function makeStation(body: Record<string, unknown>): Promise<string> {
    const res = await call(admin, 'POST', '/api/admin/stations', body);
    expect(res.statusCode, res.body).toBe(201);
    return res.json().data.id;
  }

  const scan = (
    stationId: string,
    who: { riderCode?: string; riderNumber?: number },
    extra: Record<string, unknown> = {},
  ) => ({
    id: randomUUID(),
    stationId,
    ...who,
    scannedAt: new Date().toISOString(),
    deviceId: 'phone-A',
    source: who.riderCode ? 'camera' : 'manual',
    ...extra,
  });

  async function sync(items: unknown[], actor: Actor = marshall) {
    const res = await call(actor, 'POST', '/api/admin/scans', { scans: items });
    expect(res.statusCode, res.body).toBe(200);
    return res.json().data.results as Array<{
      id: string;
      status: string;
      reason?: string;
      original?: string;
      message?: string;
      rider?: { id: string };
    }>;
  }

  const stored = async (id: string) => (await t.database.db.select().from(scans).where(eq(scans.id, id)))[0];
  const countScans = async () =>
    Number((await t.database.db.select({ n: sql<number>`count(*)::int` }).from(scans))[0]?.n);
  const checkpointsOf = async (id: string) =>
    (
      await t.database.db
        .select({ n: entries.checkpoints })
        .from(entries)
        .where(and(eq(entries.userId, id), inEdition(entries.editionId)))
    )[0]?.n;

  beforeAll(async () => {
    rider = await registerRider(t.app);
    // Day 1: start(0) → cp1(1) → cp2(2) → finish(3); a lakambini-only checkpoint; time windows.
    station.start = await makeStation({ name: 'Flag-off', kind: 'start', day: 1, order: 0 });
    station.cp1 = await makeStation({ name: 'Marilog', kind: 'checkpoint', day: 1, order: 1 });
    station.cp2 = await makeStation({ name: 'Calinan', kind: 'checkpoint', day: 1, order: 2 });
    station.finish = await makeStation({ name: 'Finish', kind: 'finish', day: 1, order: 3 });
    station.lakambini = await makeStation({
      name: 'Toril',
      kind: 'checkpoint',
      day: 2,
      order: 0,
      routes: ['lakambini'],
    });
    station.later = await makeStation({
      name: 'Opens tomorrow',
      kind: 'checkpoint',
      day: 3,
      opensAt: new Date(Date.now() + 3_600_000).toISOString(),
    });
    station.over = await makeStation({
      name: 'Closed an hour ago',
      kind: 'checkpoint',
      day: 3,
      closesAt: new Date(Date.now() - 3_600_000).toISOString(),
    });
  });

  it('accepts a first scan by code or number, names the rider and logs the passage', async () => {
    const a = await verifiedRider();
    const b = await verifiedRider();
    const items = [
      scan(station.start, { riderCode: a.riderCode }),
      scan(station.start, { riderNumber: b.riderNumber }),
    ];
    const results = await sync(items);
    expect(results.map((r) => r.status)).toEqual(['accepted', 'accepted']);
    expect(results[0]?.rider).toMatchObject({ id: a.userId, riderNumber: a.riderNumber });
    expect(results[1]?.rider?.id).toBe(b.userId);
    const row = await stored(items[0]?.id as string);
    expect(row).toMatchObject({
      riderId: a.userId,
      riderCode: a.riderCode,
      submittedBy: marshall.userId,
      recordedBy: marshall.userId,
      deviceId: 'phone-A',
      status: 'accepted',
      reason: null,
    });
    expect(row?.receivedAt).toBeInstanceOf(Date);
    const logged = await t.database.db
      .select()
      .from(activities)
      .where(and(eq(activities.type, 'checkpoint_scan'), eq(activities.userId, a.userId)));
    expect(logged).toHaveLength(1);
    expect(logged[0]).toMatchObject({ location: 'Flag-off', actorId: marshall.userId });
  });

  it('accepts a first scan at a later station with no earlier ones (Missed is the board’s business)', async () => {
    const r = await verifiedRider();
    const [res] = await sync([scan(station.cp2, { riderCode: r.riderCode })]);
    expect(res?.status).toBe('accepted');
  });

  it('flags every doubtful scan with its reason and keeps it', async () => {
    const r = await verifiedRider({ category: 'bagani' });
    const pending = await registerRider(t.app);
    const cases: Array<[string, ReturnType<typeof scan>]> = [
      ['unknown_rider', scan(station.cp1, { riderCode: 'NOT-A-CODE' })],
      ['unknown_rider', scan(station.cp1, { riderNumber: 0 })],
      ['not_verified', scan(station.cp1, { riderNumber: (pending as Actor & { riderNumber: number }).riderNumber })],
      ['wrong_route', scan(station.lakambini, { riderCode: r.riderCode })],
      ['before_opening', scan(station.later, { riderCode: r.riderCode })],
      ['after_closing', scan(station.over, { riderCode: r.riderCode })],
      [
        'clock_skew',
        scan(
          station.cp1,
          { riderCode: r.riderCode },
          { scannedAt: new Date(Date.now() - 26 * 3_600_000).toISOString() },
        ),
      ],
    ];
    const results = await sync(cases.map(([, item]) => item));
    expect(results.map((x) => x.status)).toEqual(cases.map(() => 'flagged'));
    expect(results.map((x) => x.reason)).toEqual(cases.map(([reason]) => reason));
    expect(results.every((x) => typeof x.message === 'string' && x.message.length > 0)).toBe(true);
    for (const [reason, item] of cases)
      expect(await stored(item.id), reason).toMatchObject({ status: 'flagged', reason });
    expect((await stored(cases[0]?.[1].id as string))?.riderId).toBeNull();

    // Out of order: already passed cp2, then scanned at cp1 the same day. Re-scan: cp2 again.
    const first = await sync([scan(station.cp2, { riderCode: r.riderCode })]);
    expect(first[0]?.status).toBe('accepted');
    const late = await sync([
      scan(station.cp1, { riderCode: r.riderCode }),
      scan(station.cp2, { riderNumber: r.riderNumber }),
    ]);
    expect(late.map((x) => x.reason)).toEqual(['out_of_order', 'rescan']);

    // A closed station flags after_closing; a lakambini rider passes the lakambini station.
    const closedStation = await makeStation({ name: 'Shut', kind: 'checkpoint', day: 9 });
    await call(admin, 'PATCH', `/api/admin/stations/${closedStation}`, { closed: true });
    const lk = await verifiedRider({ category: 'lakambini', gender: 'female' });
    const mg = await verifiedRider({ category: 'lakambini', gender: 'male' });
    const more = await sync([
      scan(closedStation, { riderCode: r.riderCode }),
      scan(station.lakambini, { riderCode: lk.riderCode }),
      scan(station.lakambini, { riderCode: mg.riderCode }),
    ]);
    expect(more.map((x) => x.reason ?? x.status)).toEqual(['after_closing', 'accepted', 'accepted']);
  });

  it('derives the checkpoint count from distinct accepted checkpoint stations', async () => {
    const r = await verifiedRider();
    await sync([scan(station.start, { riderCode: r.riderCode })]);
    expect(await checkpointsOf(r.userId)).toBe(0);
    await sync([scan(station.cp1, { riderCode: r.riderCode })]);
    await sync([scan(station.cp1, { riderCode: r.riderCode })]); // re-scan: not counted twice
    expect(await checkpointsOf(r.userId)).toBe(1);
    // A wrong number typed into the entry's checkpoints is corrected by the next passage.
    await t.database.db
      .update(entries)
      .set({ checkpoints: 99 })
      .where(and(eq(entries.userId, r.userId), inEdition(entries.editionId)));
    await sync([scan(station.cp2, { riderCode: r.riderCode }), scan(station.finish, { riderCode: r.riderCode })]);
    expect(await checkpointsOf(r.userId)).toBe(2);

    const passages = await call(r, 'GET', '/api/my/passages');
    expect(passages.statusCode).toBe(200);
    expect(
      passages.json().data.map((p: { stationName: string; kind: string }) => `${p.kind}:${p.stationName}`),
    ).toEqual(['start:Flag-off', 'checkpoint:Marilog', 'checkpoint:Calinan', 'finish:Finish']);
    const profile = await t.app.inject({ method: 'GET', url: `/api/users/${r.userId}/profile` });
    expect(profile.json().data.lastStation).toMatchObject({ name: 'Finish' });
    const none = await t.app.inject({ method: 'GET', url: `/api/users/${rider.userId}/profile` });
    expect(none.json().data.lastStation).toBeNull();
  });

  it('replays a batch three times without changing anything, answering duplicate with the original', async () => {
    const r = await verifiedRider();
    const batch = [
      scan(station.start, { riderCode: r.riderCode }),
      scan(station.cp1, { riderCode: r.riderCode }),
      scan(station.cp1, { riderCode: 'UNKNOWN-ONE' }),
    ];
    const first = await sync(batch);
    expect(first.map((x) => x.status)).toEqual(['accepted', 'accepted', 'flagged']);
    const before = {
      scans: await countScans(),
      log: await t.database.db.select().from(activities),
      cp: await checkpointsOf(r.userId),
    };
    for (let i = 0; i < 3; i++) {
      const again = await sync(batch);
      expect(again.map((x) => [x.status, x.original, x.reason])).toEqual([
        ['duplicate', 'accepted', undefined],
        ['duplicate', 'accepted', undefined],
        ['duplicate', 'flagged', 'unknown_rider'],
      ]);
      expect(again[0]?.rider?.id).toBe(r.userId);
    }
    expect(await countScans()).toBe(before.scans);
    expect(await t.database.db.select().from(activities)).toHaveLength(before.log.length);
    expect(await checkpointsOf(r.userId)).toBe(before.cp);
  });

  it('stores a concurrently replayed batch once', async () => {
    const riders = await Promise.all([verifiedRider(), verifiedRider(), verifiedRider()]);
    const batch = riders.map((r) => scan(station.cp1, { riderCode: r.riderCode }));
    const before = await countScans();
    const answers = await Promise.all([sync(batch), sync(batch), sync(batch)]);
    expect(await countScans()).toBe(before + 3);
    for (const [i] of batch.entries()) {
      const statuses = answers.map((a) => a[i]?.status).sort();
      expect(statuses).toEqual(['accepted', 'duplicate', 'duplicate']);
    }
  });

  it('two devices syncing the same rider at the same station at once: one accepted, one re-scan', async () => {
    const r = await verifiedRider();
    const fromA = scan(station.cp2, { riderCode: r.riderCode }, { deviceId: 'phone-A' });
    const fromB = scan(station.cp2, { riderNumber: r.riderNumber }, { deviceId: 'phone-B' });
    const [a, b] = await Promise.all([sync([fromA]), sync([fromB], admin)]);
    const outcomes = [a[0]?.reason ?? a[0]?.status, b[0]?.reason ?? b[0]?.status].sort();
    expect(outcomes).toEqual(['accepted', 'rescan']);
    expect(await checkpointsOf(r.userId)).toBe(1);
  });

  it('answers a repeated id inside one batch as a duplicate of the first', async () => {
    const r = await verifiedRider();
    const item = scan(station.start, { riderCode: r.riderCode });
    const results = await sync([item, item]);
    expect(results.map((x) => [x.status, x.original])).toEqual([
      ['accepted', undefined],
      ['duplicate', 'accepted'],
    ]);
  });

  it('refuses a body that is no batch (400) and makes bad items invalid while storing their neighbours', async () => {
    const r = await verifiedRider();
    for (const payload of [
      {},
      { scans: 'x' },
      { scans: {} },
      { scans: [] },
      { scans: Array.from({ length: 501 }, () => ({})) },
    ]) {
      const res = await call(marshall, 'POST', '/api/admin/scans', payload);
      expect(res.statusCode, JSON.stringify(payload).slice(0, 50)).toBe(400);
      expect(res.json().success).toBe(false);
    }
    const before = await countScans();
    const good1 = scan(station.start, { riderCode: r.riderCode });
    const good2 = scan(station.cp1, { riderNumber: r.riderNumber });
    const badId = { ...scan(station.cp1, { riderCode: r.riderCode }), id: 'not-a-uuid' };
    const unknownStation = scan(randomUUID(), { riderCode: r.riderCode });
    const nulCode = scan(station.cp1, { riderCode: `${r.riderCode}\u0000` });
    const nulDevice = scan(station.cp1, { riderCode: r.riderCode }, { deviceId: 'phone\u0000' });
    const both = scan(station.cp1, { riderCode: r.riderCode, riderNumber: r.riderNumber });
    const badTime = scan(station.cp1, { riderCode: r.riderCode }, { scannedAt: 'yesterday' });
    const results = await sync([good1, badId, unknownStation, nulCode, 42, nulDevice, both, badTime, good2]);
    expect(results.map((x) => x.status)).toEqual([
      'accepted',
      'invalid',
      'invalid',
      'invalid',
      'invalid',
      'invalid',
      'invalid',
      'invalid',
      'accepted',
    ]);
    expect(results[1]?.message).toMatch(/id must be a UUID/);
    expect(results[2]?.message).toBe('Unknown station');
    expect(results[3]?.message).toMatch(/riderCode must not contain control characters/);
    expect(results[5]?.message).toMatch(/deviceId/);
    expect(results[6]?.message).toMatch(/either riderCode or riderNumber/);
    expect(results[7]?.message).toMatch(/scannedAt/);
    expect(await countScans()).toBe(before + 2);
    for (const bad of [unknownStation, nulCode, nulDevice, both, badTime]) expect(await stored(bad.id)).toBeUndefined();
  });

  it('keeps the marshal who recorded a scan made offline, and only accounts that may scan', async () => {
    const r = await verifiedRider();
    const byOther = scan(station.start, { riderCode: r.riderCode }, { recordedBy: admin.userId });
    const byGhost = scan(station.cp1, { riderCode: r.riderCode }, { recordedBy: randomUUID() });
    await sync([byOther, byGhost]);
    expect((await stored(byOther.id))?.recordedBy).toBe(admin.userId);
    expect((await stored(byOther.id))?.submittedBy).toBe(marshall.userId);
    // An id the server does not know (an account deleted since): the scan is the submitter's.
    expect((await stored(byGhost.id))?.recordedBy).toBe(marshall.userId);
    const logged = await t.database.db
      .select()
      .from(activities)
      .where(and(eq(activities.type, 'checkpoint_scan'), eq(activities.userId, r.userId)));
    const first = logged.find((a) => (a.metadata as { scanId?: string }).scanId === byOther.id);
    expect(first).toMatchObject({ actorId: admin.userId, details: expect.stringContaining('submitted by') });
    expect(first?.metadata).toMatchObject({ submittedBy: marshall.userId });
  });

  it('never lets a scan name as its recorder an account that may not scan', async () => {
    for (const who of [rider, officer]) {
      const r = await verifiedRider();
      const item = scan(station.start, { riderCode: r.riderCode }, { recordedBy: who.userId });
      const [result] = await sync([item]);
      expect(result?.status).toBe('accepted');
      const row = await stored(item.id);
      expect(row).toMatchObject({ recordedBy: marshall.userId, submittedBy: marshall.userId });
      const [logged] = await t.database.db
        .select()
        .from(activities)
        .where(and(eq(activities.type, 'checkpoint_scan'), eq(activities.userId, r.userId)));
      expect(logged?.actorId).toBe(marshall.userId);
    }
  });

  it('is for qr_scan roles only', async () => {
    const item = scan(station.start, { riderNumber: 1 });
    for (const actor of [rider, officer]) {
      const res = await call(actor, 'POST', '/api/admin/scans', { scans: [item] });
      expect(res.statusCode).toBe(403);
    }
    expect(await stored(item.id)).toBeUndefined();
  });

  it('reviews flagged scans: accept counts the passage, void keeps it uncounted; both audited', async () => {
    const r = await verifiedRider();
    const early = scan(station.later, { riderCode: r.riderCode });
    const wrong = scan(station.over, { riderCode: r.riderCode });
    await sync([early, wrong]);
    expect(await checkpointsOf(r.userId)).toBe(0);

    const open = await call(officer, 'GET', '/api/admin/scans/flagged?state=open&limit=200');
    expect(open.statusCode, open.body).toBe(200);
    const listed = open.json().data.scans.find((s: { id: string }) => s.id === early.id);
    expect(listed).toMatchObject({
      stationName: 'Opens tomorrow',
      reason: 'before_opening',
      rider: { id: r.userId, riderNumber: r.riderNumber },
      recordedBy: { id: marshall.userId },
      review: null,
    });
    expect(listed.rider.photoUrl).toMatch(new RegExp(`^/api/public/profile-image/${r.userId}\\?size=thumb`));

    for (const actor of [officer, marshall]) {
      const refused = await call(actor, 'POST', `/api/admin/scans/${early.id}/review`, {
        decision: 'accept',
        note: 'ok',
      });
      expect(refused.statusCode).toBe(403);
    }
    const noNote = await call(admin, 'POST', `/api/admin/scans/${early.id}/review`, { decision: 'accept', note: ' ' });
    expect(noNote.statusCode).toBe(400);

    const accepted = await call(admin, 'POST', `/api/admin/scans/${early.id}/review`, {
      decision: 'accept',
      note: 'Station opened early on the organiser’s word',
    });
    expect(accepted.statusCode, accepted.body).toBe(200);
    expect(accepted.json().data.review).toMatchObject({
      decision: 'accept',
      note: 'Station opened early on the organiser’s word',
    });
    expect(await checkpointsOf(r.userId)).toBe(1);
    const voided = await call(admin, 'POST', `/api/admin/scans/${wrong.id}/review`, {
      decision: 'void',
      note: 'Test scan',
    });
    expect(voided.statusCode).toBe(200);
    expect(await checkpointsOf(r.userId)).toBe(1);
    const twice = await call(admin, 'POST', `/api/admin/scans/${wrong.id}/review`, { decision: 'accept', note: 'x' });
    expect(twice.statusCode).toBe(409);
    const missing = await call(admin, 'POST', `/api/admin/scans/${randomUUID()}/review`, {
      decision: 'void',
      note: 'x',
    });
    expect(missing.statusCode).toBe(404);

    const audit = await t.database.db
      .select()
      .from(activities)
      .where(and(eq(activities.type, 'scan_reviewed'), eq(activities.userId, r.userId)));
    expect(audit.map((a) => a.description).sort()).toEqual([
      expect.stringContaining('accepted a flagged scan'),
      expect.stringContaining('voided a flagged scan'),
    ]);
    const reviewed = await call(officer, 'GET', '/api/admin/scans/flagged?state=reviewed&limit=200');
    const ids = reviewed.json().data.scans.map((s: { id: string }) => s.id);
    expect(ids).toEqual(expect.arrayContaining([early.id, wrong.id]));
    const stillOpen = (await call(officer, 'GET', '/api/admin/scans/flagged?limit=200')).json().data.scans;
    expect(stillOpen.some((s: { id: string }) => s.id === early.id)).toBe(false);
    const passages = (await call(r, 'GET', '/api/my/passages')).json().data;
    expect(passages.map((p: { stationName: string }) => p.stationName)).toEqual(['Opens tomorrow']);
  });
});
