import { eq } from 'drizzle-orm';
import { describe, expect, it } from 'vitest';
import { entries } from '../../db/schema/entries';
import { files } from '../../db/schema/files';
import { users } from '../../db/schema/users';
import { DB_KINDS, useTestApp } from '../../test/build-app';
import { type Actor, approvedRider, bearer, registerRider, staff } from '../../test/factories';

const HOUR = 3600;
const at = (text: string) => new Date(text);

describe.each(DB_KINDS)('analytics (%s)', (kind) => {
  const t = useTestApp(kind, 'admin', 'officer');
  const { admin, officer } = t.staff;

  const read = async (actor: Actor) => {
    const res = await t.app.inject({ method: 'GET', url: '/api/admin/analytics', headers: bearer(actor.token) });
    expect(res.statusCode, res.body).toBe(200);
    return res.json().data;
  };

  /** Puts a rider's registration, receipt and decision at known moments. */
  const timeline = async (
    userId: string,
    moments: { registered: string; receipt?: string; decided?: string },
  ): Promise<void> => {
    const db = t.database.db;
    await db
      .update(users)
      .set({ createdAt: at(moments.registered) })
      .where(eq(users.id, userId));
    await db
      .update(entries)
      .set({ createdAt: at(moments.registered), ...(moments.decided ? { verifiedAt: at(moments.decided) } : {}) })
      .where(eq(entries.userId, userId));
    await db
      .update(files)
      .set({ createdAt: at(moments.receipt ?? moments.registered) })
      .where(eq(files.userId, userId));
  };

  it('answers zeros, not an error, before anyone registers', async () => {
    const data = await read(officer);
    expect(data.riders).toBe(0);
    expect(data.registrations_per_day).toEqual([]);
    expect(data.status).toEqual({ verified: 0, pending: 0, rejected: 0 });
    expect(data.categories.map((c: { riders: number }) => c.riders)).toEqual([0, 0, 0, 0, 0, 0, 0, 0]);
    expect(data.routes).toEqual([
      { route: 'lakambini', riders: 0 },
      { route: 'lakan', riders: 0 },
      { route: 'bagani', riders: 0 },
    ]);
    expect(data.clubs).toEqual([]);
    expect(data.payment_methods).toEqual([
      { method: 'cash', riders: 0 },
      { method: 'gcash', riders: 0 },
      { method: 'bank_transfer', riders: 0 },
    ]);
    expect(data.sizes.tshirt.map((l: { riders: number }) => l.riders)).toEqual([0, 0, 0, 0, 0, 0, 0, 0]);
    expect(data.turnaround).toEqual({ verified: 0, median_seconds: null, p90_seconds: null });
  });

  it('counts seeded riders exactly, with the median and 90th percentile of the turnaround', async () => {
    const a = await approvedRider(t.app, admin, {
      category: 'bagani',
      paymentMethod: 'gcash',
      clubName: 'Davao Adventure Riders',
      tshirtSize: 'L',
      finisherSleeveSize: 'M',
      vestSize: 'XL',
    });
    const b = await approvedRider(t.app, admin, {
      category: 'lakan',
      paymentMethod: 'cash',
      clubName: '  davao   adventure RIDERS ',
      tshirtSize: 'CUSTOM',
      customTshirtSize: 'xl  tall',
      finisherSleeveSize: 'M',
      vestSize: 'CUSTOM',
      customVestSize: '5XL',
    });
    const c = await approvedRider(t.app, admin, {
      category: 'lakambini',
      gender: 'female',
      paymentMethod: 'bank_transfer',
      clubName: 'Bukidnon Bikers',
      tshirtSize: 'CUSTOM',
      customTshirtSize: 'XL Tall',
      finisherSleeveSize: 'S',
      vestSize: 'XL',
    });
    const d = await registerRider(t.app, { category: 'bagani-obr', paymentMethod: 'gcash', clubName: '' });
    // A man choosing lakambini rides magani, on lakambini's route.
    const e = await registerRider(t.app, { category: 'lakambini', gender: 'male', paymentMethod: 'gcash' });
    const rejected = await t.app.inject({
      method: 'POST',
      url: '/api/admin/verifications/verify',
      headers: bearer(admin.token),
      payload: { verification_code: e.verificationCode, action: 'rejected' },
    });
    expect(rejected.statusCode, rejected.body).toBe(200);
    // Staff accounts are not riders, whatever their role.
    await staff(t.app, t.database.db, 'developer');

    // Manila days: 23:30 on Nov 1 and 00:30 on Nov 2 are an hour apart but on two days
    // (and on one UTC day), Nov 3 has nobody.
    await timeline(a.userId, { registered: '2026-11-01T23:30:00+08:00', decided: '2026-11-02T00:30:00+08:00' });
    await timeline(b.userId, { registered: '2026-11-01T08:00:00+08:00', decided: '2026-11-01T10:00:00+08:00' });
    // A receipt uploaded again 10 hours later starts the clock afresh: 3 hours.
    await timeline(c.userId, {
      registered: '2026-11-02T00:30:00+08:00',
      receipt: '2026-11-02T10:30:00+08:00',
      decided: '2026-11-02T13:30:00+08:00',
    });
    await timeline(d.userId, { registered: '2026-11-04T09:00:00+08:00' });
    await timeline(e.userId, { registered: '2026-11-04T09:30:00+08:00', decided: '2026-11-04T09:45:00+08:00' });

    const data = await read(officer);
    expect(data.riders).toBe(5);
    expect(data.registrations_per_day).toEqual([
      { date: '2026-11-01', riders: 2 },
      { date: '2026-11-02', riders: 1 },
      { date: '2026-11-03', riders: 0 },
      { date: '2026-11-04', riders: 2 },
    ]);
    expect(data.status).toEqual({ verified: 3, pending: 1, rejected: 1 });
    expect(data.categories).toEqual([
      { category: 'lakambini', riders: 1 },
      { category: 'lakan', riders: 1 },
      { category: 'bagani', riders: 1 },
      { category: 'magani', riders: 1 },
      { category: 'lakambini-obr', riders: 0 },
      { category: 'lakan-obr', riders: 0 },
      { category: 'bagani-obr', riders: 1 },
      { category: 'magani-obr', riders: 0 },
    ]);
    expect(data.routes).toEqual([
      { route: 'lakambini', riders: 2 },
      { route: 'lakan', riders: 1 },
      { route: 'bagani', riders: 2 },
    ]);
    // The factory's default club is Davao Adventure Riders: e rides with it too; d gave none.
    expect(data.clubs).toEqual([
      { club: expect.stringMatching(/^davao adventure riders$/i), riders: 3 },
      { club: 'Bukidnon Bikers', riders: 1 },
      { club: null, riders: 1 },
    ]);
    expect(data.payment_methods).toEqual([
      { method: 'cash', riders: 1 },
      { method: 'gcash', riders: 3 },
      { method: 'bank_transfer', riders: 1 },
    ]);
    // Sizes of the three verified riders.
    const lines = (item: 'tshirt' | 'finisher_sleeve' | 'vest') =>
      data.sizes[item].filter((l: { riders: number }) => l.riders > 0);
    expect(lines('tshirt')).toEqual([
      { size: 'L', custom: '', riders: 1 },
      { size: 'CUSTOM', custom: expect.stringMatching(/^xl tall$/i), riders: 2 },
    ]);
    expect(lines('finisher_sleeve')).toEqual([
      { size: 'S', custom: '', riders: 1 },
      { size: 'M', custom: '', riders: 2 },
    ]);
    expect(lines('vest')).toEqual([
      { size: 'XL', custom: '', riders: 2 },
      { size: 'CUSTOM', custom: '5XL', riders: 1 },
    ]);
    expect(data.sizes.vest.map((l: { size: string }) => l.size)).toEqual([
      'XS',
      'S',
      'M',
      'L',
      'XL',
      'XXL',
      'XXXL',
      'CUSTOM',
      'Not set',
    ]);
    // Turnarounds of 1, 2 and 3 hours: median 2 h; p90 = 2 h + 0.8 × (3 h − 2 h).
    expect(data.turnaround.verified).toBe(3);
    expect(data.turnaround.median_seconds).toBeCloseTo(2 * HOUR, 6);
    expect(data.turnaround.p90_seconds).toBeCloseTo(2.8 * HOUR, 6);

    // Every role that sees the dashboard reads the same figures.
    for (const role of ['admin', 'marshall', 'developer'] as const) {
      expect(await read(await staff(t.app, t.database.db, role))).toEqual(data);
    }
  });

  it('refuses visitors (401) and riders (403)', async () => {
    const anon = await t.app.inject({ method: 'GET', url: '/api/admin/analytics' });
    expect(anon.statusCode).toBe(401);
    expect(anon.json()).toMatchObject({ success: false });
    const rider = await registerRider(t.app);
    const res = await t.app.inject({ method: 'GET', url: '/api/admin/analytics', headers: bearer(rider.token) });
    expect(res.statusCode).toBe(403);
    expect(res.json()).toMatchObject({ success: false });
  });
});
