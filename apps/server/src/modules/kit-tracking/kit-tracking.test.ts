import { and, eq } from 'drizzle-orm';
import { beforeAll, describe, expect, it } from 'vitest';
import { activities } from '../../db/schema/activities';
import { kitTracking } from '../../db/schema/kit';
import { DB_KINDS, useTestApp } from '../../test/build-app';
import { type Actor, approvedRider, injectAs, registerRider } from '../../test/factories';
import { firstRow, present } from '../../test/present';

describe.each(DB_KINDS)('kit tracking (%s)', (kind) => {
  const t = useTestApp(kind, 'admin', 'developer', 'marshall', 'officer');
  const { admin, developer, marshall, officer } = t.staff;
  const riders: Array<Actor & { riderNumber: number }> = [];
  // Filled in beforeAll.
  const rider = (i: number) => present(riders[i], `rider ${i}`);
  let pendingRider: Actor;

  const call = (actor: Actor, method: 'GET' | 'PUT' | 'POST', url: string, payload?: unknown) =>
    injectAs(t.app, actor, method, url, payload);

  const verifiedRider = (overrides: Record<string, string | undefined> = {}) => approvedRider(t.app, admin, overrides);

  const list = async (query = '') => {
    const res = await call(admin, 'GET', `/api/admin/kit-tracking${query}`);
    expect(res.statusCode, res.body).toBe(200);
    return res.json().data;
  };
  const row = async (userId: string) => {
    const data = await list('?limit=200');
    return data.participants.find((p: { user_id: string }) => p.user_id === userId);
  };

  beforeAll(async () => {
    riders.push(await verifiedRider({ firstName: 'Amihan', kitName: 'WIND RIDER', category: 'bagani' }));
    riders.push(await verifiedRider({ firstName: 'Bagwis', kitName: 'SKY HAWK', category: 'lakan' }));
    riders.push(
      await verifiedRider({ firstName: 'Dalisay', kitName: 'PURE FIRE', category: 'lakambini', gender: 'female' }),
    );
    pendingRider = await registerRider(t.app, { firstName: 'Pending' });
  });

  it('refuses marshalls, officers, riders and anonymous callers', async () => {
    for (const who of [marshall, officer, rider(0)]) {
      expect((await call(who, 'GET', '/api/admin/kit-tracking')).statusCode).toBe(403);
      expect(
        (await call(who, 'PUT', `/api/admin/kit-tracking/${rider(0).userId}`, { tshirt_given: true })).statusCode,
      ).toBe(403);
      expect((await call(who, 'POST', '/api/admin/kit-tracking/bulk-update', { updates: [] })).statusCode).toBe(403);
    }
    expect((await t.app.inject({ method: 'GET', url: '/api/admin/kit-tracking' })).statusCode).toBe(401);
    expect((await call(developer, 'GET', '/api/admin/kit-tracking')).statusCode).toBe(200);
  });

  it('lists verified riders only, with sizes, payment, verifier and stats, before any kit row exists', async () => {
    const data = await list();
    const ids = data.participants.map((p: { user_id: string }) => p.user_id);
    expect(ids).toHaveLength(3);
    expect(ids).not.toContain(pendingRider.userId);
    // Staff accounts are verified too, but they are not riders.
    expect(ids).not.toContain(admin.userId);
    const amihan = data.participants.find((p: { user_id: string }) => p.user_id === rider(0).userId);
    expect(amihan).toMatchObject({
      kit_name: 'WIND RIDER',
      email: rider(0).email,
      rider_number: rider(0).riderNumber,
      category: 'bagani',
      payment_amount: 3000,
      club_name: 'Davao Adventure Riders',
      sizes: { tshirt: 'L', vest: 'XL', finisher_sleeve: 'M', custom_vest: null, custom_finisher_sleeve: null },
      tshirt_given: false,
      vest_given: false,
      finisher_sleeve_given: false,
      kit_notes: null,
      kit_last_updated: null,
      verified_by: 'Admin Account',
    });
    expect(amihan.participant_name).toMatch(/^Amihan Rider/);
    expect(Date.parse(amihan.verification_date)).not.toBeNaN();
    expect(data.pagination).toEqual({ page: 1, limit: 50, total: 3, total_pages: 1 });
    expect(data.stats).toEqual({
      total: 3,
      pendingKits: 3,
      completedKits: 0,
      totalAmount: 3000 + 2700 + 2700,
      actualPayments: 3000 + 2700 + 2700,
      itemsGiven: { tshirts: 0, vests: 0, sleeves: 0 },
    });
  });

  it('searches, sorts and pages in SQL', async () => {
    expect((await list('?search=sky%20hawk')).participants.map((p: { user_id: string }) => p.user_id)).toEqual([
      rider(1).userId,
    ]);
    expect((await list(`?search=${rider(2).email}`)).participants).toHaveLength(1);
    expect((await list('?search=%25')).participants).toHaveLength(0);
    const byName = await list('?sort_by=name&sort_order=asc');
    expect(byName.participants.map((p: { participant_name: string }) => p.participant_name[0])).toEqual([
      'A',
      'B',
      'D',
    ]);
    const byAmount = await list('?sort_by=payment_amount&sort_order=desc');
    expect(byAmount.participants[0].payment_amount).toBe(3000);
    const page1 = await list('?sort_by=name&sort_order=asc&limit=2&page=1');
    const page2 = await list('?sort_by=name&sort_order=asc&limit=2&page=2');
    expect(page1.participants).toHaveLength(2);
    expect(page2.participants).toHaveLength(1);
    expect(page1.pagination).toEqual({ page: 1, limit: 2, total: 3, total_pages: 2 });
    const seen = [...page1.participants, ...page2.participants].map((p: { user_id: string }) => p.user_id);
    expect(new Set(seen).size).toBe(3);
    for (const bad of [
      '?sort_by=email',
      '?sort_order=up',
      '?filter_status=done',
      '?page=0',
      '?limit=500',
      '?limit=abc',
    ]) {
      const res = await call(admin, 'GET', `/api/admin/kit-tracking${bad}`);
      expect(res.statusCode, bad).toBe(400);
      expect(res.json().message).toMatch(/sort_by|sort_order|filter_status|page|limit/);
    }
  });

  it('hands an item over recording who and when, and un-giving clears both', async () => {
    const id = rider(0).userId;
    const res = await call(admin, 'PUT', `/api/admin/kit-tracking/${id}`, { tshirt_given: true });
    expect(res.statusCode, res.body).toBe(200);
    expect(res.json().data).toMatchObject({ user_id: id, tshirt_given: true, vest_given: false });
    const stored = firstRow(await t.database.db.select().from(kitTracking).where(eq(kitTracking.userId, id)));
    expect(stored.tshirtGiven).toBe(true);
    expect(stored.tshirtGivenBy).toBe(admin.userId);
    expect(stored.tshirtGivenAt).toBeInstanceOf(Date);
    expect(Math.abs((stored.tshirtGivenAt as Date).getTime() - Date.now())).toBeLessThan(60_000);
    const logged = await t.database.db
      .select()
      .from(activities)
      .where(and(eq(activities.type, 'kit_handover'), eq(activities.userId, id)));
    expect(logged).toHaveLength(1);
    expect(firstRow(logged).description).toMatch(/^T-shirt given to Amihan/);
    expect(firstRow(logged).actorId).toBe(admin.userId);

    // Giving it again changes nothing: the first hand-over time stays.
    await call(developer, 'PUT', `/api/admin/kit-tracking/${id}`, { tshirt_given: true });
    const again = firstRow(await t.database.db.select().from(kitTracking).where(eq(kitTracking.userId, id)));
    expect(again.tshirtGivenBy).toBe(admin.userId);
    expect(again.tshirtGivenAt?.getTime()).toBe(stored.tshirtGivenAt?.getTime());

    const undo = await call(developer, 'PUT', `/api/admin/kit-tracking/${id}`, { tshirt_given: false });
    expect(undo.statusCode).toBe(200);
    expect(undo.json().data.tshirt_given).toBe(false);
    const cleared = firstRow(await t.database.db.select().from(kitTracking).where(eq(kitTracking.userId, id)));
    expect(cleared.tshirtGiven).toBe(false);
    expect(cleared.tshirtGivenAt).toBeNull();
    expect(cleared.tshirtGivenBy).toBeNull();
    expect(cleared.updatedBy).toBe(developer.userId);
  });

  it('completes a kit with all three items and counts it in the stats and filters', async () => {
    const id = rider(1).userId;
    for (const field of ['tshirt_given', 'vest_given', 'finisher_sleeve_given']) {
      expect((await call(admin, 'PUT', `/api/admin/kit-tracking/${id}`, { [field]: true })).statusCode).toBe(200);
    }
    const completed = await list('?filter_status=completed');
    expect(completed.participants.map((p: { user_id: string }) => p.user_id)).toEqual([id]);
    expect(completed.pagination.total).toBe(1);
    const pending = await list('?filter_status=pending');
    expect(pending.participants.map((p: { user_id: string }) => p.user_id)).not.toContain(id);
    expect(pending.pagination.total).toBe(2);
    expect(completed.stats).toMatchObject({
      total: 3,
      completedKits: 1,
      pendingKits: 2,
      itemsGiven: { tshirts: 1, vests: 1, sleeves: 1 },
    });
  });

  it('saves notes, logs kit_notes, and clears them with an empty text', async () => {
    const id = rider(2).userId;
    const res = await call(admin, 'PUT', `/api/admin/kit-tracking/${id}`, { notes: 'Vest to follow, size out' });
    expect(res.statusCode, res.body).toBe(200);
    expect(res.json().data.kit_notes).toBe('Vest to follow, size out');
    expect(res.json().data.kit_last_updated).not.toBeNull();
    const logged = await t.database.db
      .select()
      .from(activities)
      .where(and(eq(activities.type, 'kit_notes'), eq(activities.userId, id)));
    expect(logged).toHaveLength(1);
    expect((await call(admin, 'PUT', `/api/admin/kit-tracking/${id}`, { notes: '' })).json().data.kit_notes).toBeNull();
  });

  it('refuses bad updates with a clear 4xx and changes nothing', async () => {
    const id = rider(2).userId;
    const before = await row(id);
    const cases: Array<[unknown, RegExp]> = [
      [{}, /exactly one/],
      [{ tshirt_given: true, vest_given: true }, /exactly one/],
      [{ tshirt_given: 'yes' }, /tshirt_given must be true or false/],
      [{ notes: 'x'.repeat(2001) }, /notes must be at most 2000/],
      [{ shoe_given: true }, /Unknown field: shoe_given/],
    ];
    for (const [body, message] of cases) {
      const res = await call(admin, 'PUT', `/api/admin/kit-tracking/${id}`, body);
      expect(res.statusCode, JSON.stringify(body)).toBe(400);
      expect(res.json().message).toMatch(message);
    }
    expect((await call(admin, 'PUT', '/api/admin/kit-tracking/not-a-uuid', { tshirt_given: true })).statusCode).toBe(
      400,
    );
    const missing = await call(admin, 'PUT', '/api/admin/kit-tracking/00000000-0000-4000-8000-000000000000', {
      tshirt_given: true,
    });
    expect(missing.statusCode).toBe(404);
    const unverified = await call(admin, 'PUT', `/api/admin/kit-tracking/${pendingRider.userId}`, {
      tshirt_given: true,
    });
    expect(unverified.statusCode).toBe(409);
    expect(unverified.json().message).toMatch(/verified riders only/);
    expect(await row(id)).toEqual(before);
    const rows = await t.database.db.select().from(kitTracking).where(eq(kitTracking.userId, pendingRider.userId));
    expect(rows).toHaveLength(0);
  });

  it('bulk-updates in one transaction: all items land, or none do and the error names the item', async () => {
    const [a, b, c] = [rider(0).userId, rider(1).userId, rider(2).userId];
    const before = await list('?limit=200');

    const bad = await call(admin, 'POST', '/api/admin/kit-tracking/bulk-update', {
      updates: [
        { user_id: a, vest_given: true },
        { user_id: c, finisher_sleeve_given: true, notes: 'bulk' },
        { user_id: pendingRider.userId, tshirt_given: true },
      ],
    });
    expect(bad.statusCode).toBe(409);
    expect(bad.json().message).toMatch(/^updates\[2\]: /);
    const invalid = await call(admin, 'POST', '/api/admin/kit-tracking/bulk-update', {
      updates: [{ user_id: a, vest_given: true }, { user_id: b }],
    });
    expect(invalid.statusCode).toBe(400);
    expect(invalid.json().message).toBe(
      'updates[1]: needs at least one of tshirt_given, vest_given, finisher_sleeve_given or notes',
    );
    const badId = await call(admin, 'POST', '/api/admin/kit-tracking/bulk-update', {
      updates: [{ user_id: 'x', vest_given: true }],
    });
    expect(badId.json().message).toBe('updates[0]: user_id must be a valid id');
    const dup = await call(admin, 'POST', '/api/admin/kit-tracking/bulk-update', {
      updates: [
        { user_id: a, vest_given: true },
        { user_id: a, tshirt_given: true },
      ],
    });
    expect(dup.statusCode).toBe(400);
    expect(dup.json().message).toMatch(/^updates\[1\]: user_id repeats updates\[0\]/);
    const tooMany = await call(admin, 'POST', '/api/admin/kit-tracking/bulk-update', {
      updates: Array.from({ length: 201 }, () => ({ user_id: a, vest_given: true })),
    });
    expect(tooMany.statusCode).toBe(400);
    expect(tooMany.json().message).toMatch(/at most 200/);
    expect((await call(admin, 'POST', '/api/admin/kit-tracking/bulk-update', { updates: [] })).statusCode).toBe(400);
    expect(await list('?limit=200')).toEqual(before);

    const ok = await call(admin, 'POST', '/api/admin/kit-tracking/bulk-update', {
      updates: [
        { user_id: a, vest_given: true },
        { user_id: c, finisher_sleeve_given: true, notes: 'bulk' },
      ],
    });
    expect(ok.statusCode, ok.body).toBe(200);
    expect(ok.json().data.updated).toBe(2);
    expect((await row(a)).vest_given).toBe(true);
    expect(await row(c)).toMatchObject({ finisher_sleeve_given: true, kit_notes: 'bulk' });
    const stored = firstRow(await t.database.db.select().from(kitTracking).where(eq(kitTracking.userId, c)));
    expect(stored.finisherSleeveGivenBy).toBe(admin.userId);
  });
  it('hands over all three items in one call through the Kit Tracker path; scanners read the kit', async () => {
    const rider = await verifiedRider({ firstName: 'Tala', category: 'lakan' });
    const url = `/api/admin/kit-tracking/${rider.userId}`;
    const read = await call(marshall, 'GET', url);
    expect(read.statusCode, read.body).toBe(200);
    expect(read.json().data).toMatchObject({ user_id: rider.userId, tshirt_given: false, vest_given: false });
    expect((await call(officer, 'GET', url)).statusCode).toBe(403);
    expect((await call(marshall, 'POST', `${url}/hand-over-all`)).statusCode).toBe(403);

    const first = await call(admin, 'PUT', url, { tshirt_given: true });
    const tshirtAt = first.json().data.tshirt_given_at;
    const all = await call(admin, 'POST', `${url}/hand-over-all`);
    expect(all.statusCode, all.body).toBe(200);
    const kit = all.json().data;
    expect(kit).toMatchObject({ tshirt_given: true, vest_given: true, finisher_sleeve_given: true });
    // Items already given keep their time: the same path as ticking the boxes.
    expect(kit.tshirt_given_at).toBe(tshirtAt);
    expect(kit.vest_given_at).not.toBeNull();
    const logged = async () =>
      t.database.db
        .select()
        .from(activities)
        .where(and(eq(activities.type, 'kit_handover'), eq(activities.userId, rider.userId)));
    expect((await logged()).map((a) => a.description).sort()).toEqual([
      expect.stringContaining('given to'),
      expect.stringContaining('given to'),
      expect.stringContaining('given to'),
    ]);
    expect((await call(admin, 'POST', `${url}/hand-over-all`)).statusCode).toBe(200);
    expect(await logged()).toHaveLength(3);
    const [row] = await t.database.db.select().from(kitTracking).where(eq(kitTracking.userId, rider.userId));
    expect(row?.vestGivenBy).toBe(admin.userId);

    expect((await call(admin, 'POST', `/api/admin/kit-tracking/${pendingRider.userId}/hand-over-all`)).statusCode).toBe(
      409,
    );
    expect((await call(marshall, 'GET', `/api/admin/kit-tracking/${crypto.randomUUID()}`)).statusCode).toBe(404);
  });
});
