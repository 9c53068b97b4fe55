import { eq } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { entries } from '../../db/schema/entries';
import { buildTestApp, DB_KINDS, type TestApp } from '../../test/build-app';
import { bearer, registerRider } from '../../test/factories';

describe.each(DB_KINDS)('rider numbers on %s', (kind) => {
  let t: TestApp;
  beforeAll(async () => {
    t = await buildTestApp(kind);
  });
  afterAll(() => t.close());

  it('lists taken numbers in order and checks single numbers', async () => {
    await registerRider(t.app, { riderNumber: '300' });
    await registerRider(t.app, { riderNumber: '12' });
    const taken = await t.app.inject({ method: 'GET', url: '/api/rider-numbers/taken' });
    expect(taken.statusCode).toBe(200);
    const list = taken.json().data.takenNumbers;
    expect(list).toEqual([...list].sort((a: number, b: number) => a - b));
    expect(list).toEqual(expect.arrayContaining([12, 300]));

    const check = await t.app.inject({ method: 'GET', url: '/api/rider-numbers/check/300' });
    expect(check.json().data).toEqual({ riderNumber: 300, available: false });
    const free = await t.app.inject({ method: 'GET', url: '/api/rider-numbers/check/301' });
    expect(free.json().data).toEqual({ riderNumber: 301, available: true });
    for (const bad of ['0', '1001', 'abc', '1.5', '-3']) {
      const res = await t.app.inject({ method: 'GET', url: `/api/rider-numbers/check/${bad}` });
      expect(res.statusCode).toBe(400);
      expect(res.json().message).toBe('Please select a rider number (1-1000).');
    }
  });

  it('reads and moves the own number while pending, and refuses a taken one', async () => {
    const rider = await registerRider(t.app, { riderNumber: '400' });
    await registerRider(t.app, { riderNumber: '401' });
    const mine = await t.app.inject({
      method: 'GET',
      url: '/api/rider-numbers/my-number',
      headers: bearer(rider.token),
    });
    expect(mine.json().data.riderNumber).toBe(400);
    const taken = await t.app.inject({
      method: 'POST',
      url: '/api/rider-numbers/assign',
      headers: bearer(rider.token),
      payload: { riderNumber: 401 },
    });
    expect(taken.statusCode).toBe(409);
    expect(taken.json().message).toBe('Rider number 401 is already taken');
    const moved = await t.app.inject({
      method: 'POST',
      url: '/api/rider-numbers/assign',
      headers: bearer(rider.token),
      payload: { riderNumber: 402 },
    });
    expect(moved.statusCode).toBe(200);
    expect(moved.json().data.riderNumber).toBe(402);
    const check = await t.app.inject({ method: 'GET', url: '/api/rider-numbers/check/400' });
    expect(check.json().data.available).toBe(true);
    const anon = await t.app.inject({
      method: 'POST',
      url: '/api/rider-numbers/assign',
      payload: { riderNumber: 403 },
    });
    expect(anon.statusCode).toBe(401);
  });

  it('locks the number once the rider is verified', async () => {
    const rider = await registerRider(t.app, { riderNumber: '410' });
    await t.database.db.update(entries).set({ status: 'verified' }).where(eq(entries.userId, rider.userId));
    const res = await t.app.inject({
      method: 'POST',
      url: '/api/rider-numbers/assign',
      headers: bearer(rider.token),
      payload: { riderNumber: 411 },
    });
    expect(res.statusCode).toBe(409);
    expect(res.json().code).toBe('RIDER_NUMBER_LOCKED');
  });

  it('gives one number to exactly one of many concurrent assign calls', async () => {
    const riders = await Promise.all(
      Array.from({ length: 12 }, (_, i) => registerRider(t.app, { riderNumber: String(500 + i) })),
    );
    const results = await Promise.all(
      riders.map((r) =>
        t.app.inject({
          method: 'POST',
          url: '/api/rider-numbers/assign',
          headers: bearer(r.token),
          payload: { riderNumber: 999 },
        }),
      ),
    );
    expect(results.filter((r) => r.statusCode === 200)).toHaveLength(1);
    expect(results.filter((r) => r.statusCode === 409)).toHaveLength(11);
  });
});
