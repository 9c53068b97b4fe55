import type { FastifyRateLimitStore } from '@fastify/rate-limit';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { DB_KINDS, openTestDatabase } from '../test/build-app';
import { claimOnce, rateLimitStore } from './rate-limit-store';

const incr = (store: FastifyRateLimitStore, key: string, timeWindow: number) =>
  new Promise<{ current: number; ttl: number }>((resolve, reject) =>
    store.incr(key, (err, result) => (err || !result ? reject(err) : resolve(result)), timeWindow, 10),
  );
const routeStore = (global: FastifyRateLimitStore, url: string) =>
  global.child({ routeInfo: { method: 'POST', url } } as unknown as Parameters<FastifyRateLimitStore['child']>[0]);

describe.each(DB_KINDS)('rate limit counts on %s', (kind) => {
  let opened: Awaited<ReturnType<typeof openTestDatabase>>;
  let global: FastifyRateLimitStore;

  beforeAll(async () => {
    opened = await openTestDatabase(kind);
    const Store = rateLimitStore(opened.database.db);
    global = new Store();
  });
  afterAll(() => opened.drop());

  it('gives concurrent requests of one client distinct counts, per route', async () => {
    const store = routeStore(global, '/api/auth/register');
    const counts = await Promise.all(Array.from({ length: 20 }, () => incr(store, '203.0.113.1', 60_000)));
    expect(counts.map((c) => c.current).sort((a, b) => a - b)).toEqual(Array.from({ length: 20 }, (_, i) => i + 1));
    for (const c of counts) expect(c.ttl).toBeGreaterThan(55_000);
    // Another route and another client count from 1.
    expect((await incr(routeStore(global, '/api/upload/profile-image'), '203.0.113.1', 60_000)).current).toBe(1);
    expect((await incr(store, '203.0.113.2', 60_000)).current).toBe(1);
    // A second store object for the same route (another instance) shares the count.
    const Store = rateLimitStore(opened.database.db);
    expect((await incr(routeStore(new Store(), '/api/auth/register'), '203.0.113.1', 60_000)).current).toBe(21);
  });

  it('starts a new window once the last one ended', async () => {
    const store = routeStore(global, '/api/auth/forgot-password');
    expect((await incr(store, '198.51.100.7', 300)).current).toBe(1);
    expect((await incr(store, '198.51.100.7', 300)).current).toBe(2);
    await new Promise((r) => setTimeout(r, 400));
    const fresh = await incr(store, '198.51.100.7', 300);
    expect(fresh.current).toBe(1);
    expect(fresh.ttl).toBeLessThanOrEqual(300);
  });

  it('keeps the general ceiling in this process', async () => {
    expect((await incr(global, '192.0.2.9', 60_000)).current).toBe(1);
    expect((await incr(global, '192.0.2.9', 60_000)).current).toBe(2);
    const Store = rateLimitStore(opened.database.db);
    expect((await incr(new Store(), '192.0.2.9', 60_000)).current).toBe(1);
  });

  it('lets one of many concurrent claims of a key win while it lasts, and a claim again once it has ended', async () => {
    const db = opened.database.db;
    const inAMinute = new Date(Date.now() + 60_000);
    const claims = await Promise.all(Array.from({ length: 10 }, () => claimOnce(db, 'challenge abc', inAMinute)));
    expect(claims.filter(Boolean)).toHaveLength(1);
    expect(await claimOnce(db, 'challenge abd', inAMinute)).toBe(true);
    // A row whose time is over no longer holds the key.
    expect(await claimOnce(db, 'challenge old', new Date(Date.now() + 200))).toBe(true);
    await new Promise((r) => setTimeout(r, 300));
    expect(await claimOnce(db, 'challenge old', inAMinute)).toBe(true);
    expect(await claimOnce(db, 'challenge old', inAMinute)).toBe(false);
  });
});
