// Issue 16: 40 parallel wrong passwords got 32 answers of 401 where the limit is 10, the
// count lived in one process's memory, and an attacker could lock the real rider out.
import { count, eq } from 'drizzle-orm';
import type { FastifyInstance } from 'fastify';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { buildApp } from '../app';
import { type Database, openDatabase } from '../db/client';
import { loginThrottle } from '../db/schema/login-throttle';
import { buildTestApp, DB_KINDS, type TestApp } from '../test/build-app';
import { registerRider, STRONG_PASSWORD } from '../test/factories';
import { firstRow } from '../test/present';

const LIMITS = {
  enabled: true,
  loginPerAccount: 10,
  loginPerAddress: 50,
  loginWindowMs: 15 * 60_000,
  registrationsPerAddressPerHour: 10_000,
  uploadsPerAddressPerHour: 10_000,
  resetsPerAddressPerHour: 10_000,
  globalPerMinute: 100_000,
  pagesPerMinute: 100_000,
};

const attempt = (app: FastifyInstance, email: string, password: string, ip: string) =>
  app.inject({ method: 'POST', url: '/api/auth/login', payload: { email, password }, remoteAddress: ip });

const tally = (codes: number[]) => ({
  401: codes.filter((c) => c === 401).length,
  429: codes.filter((c) => c === 429).length,
  other: codes.filter((c) => c !== 401 && c !== 429),
});

describe.each(DB_KINDS)('login throttling on %s', (kind) => {
  let t: TestApp;
  let second: { app: FastifyInstance; database: Database | null };
  beforeAll(async () => {
    t = await buildTestApp(kind, { rateLimits: LIMITS });
    // A second server instance: on PostgreSQL its own pool on the same database; on the
    // embedded database (one process owns it) a second app on the same store.
    const database = t.databaseUrl ? await openDatabase({ databaseUrl: t.databaseUrl, poolSize: 20 }) : null;
    const app = await buildApp({ config: t.config, database: database ?? t.database, logger: false });
    await app.ready();
    second = { app, database };
  });
  afterAll(async () => {
    await second.app.close();
    await second.database?.close();
    await t.close();
  });

  it('judges exactly the limit of 40 parallel wrong passwords and refuses the rest', async () => {
    const rider = await registerRider(t.app);
    const codes = (
      await Promise.all(Array.from({ length: 40 }, () => attempt(t.app, rider.email, 'Wrong-pass-1', '203.0.113.7')))
    ).map((r) => r.statusCode);
    expect(tally(codes)).toEqual({ 401: 10, 429: 30, other: [] });
    const refused = await attempt(t.app, rider.email, STRONG_PASSWORD, '203.0.113.7');
    expect(refused.statusCode).toBe(429);
    expect(refused.json()).toMatchObject({ success: false, code: 'LOGIN_THROTTLED' });
    expect(refused.json().message).toMatch(/^Too many failed login attempts\. Please try again in \d+ minutes?\.$/);
  });

  it('shares the count between two server instances on one database', async () => {
    const rider = await registerRider(t.app);
    const codes = (
      await Promise.all(
        Array.from({ length: 40 }, (_, i) =>
          attempt(i % 2 === 0 ? t.app : second.app, rider.email, 'Wrong-pass-1', '203.0.113.8'),
        ),
      )
    ).map((r) => r.statusCode);
    expect(tally(codes)).toEqual({ 401: 10, 429: 30, other: [] });
  });

  it('lets the real rider in from another address while the attacker stays locked out', async () => {
    const rider = await registerRider(t.app);
    for (let i = 0; i < 12; i++) await attempt(t.app, rider.email, 'Wrong-pass-1', '198.51.100.9');
    expect((await attempt(t.app, rider.email, STRONG_PASSWORD, '198.51.100.9')).statusCode).toBe(429);
    const real = await attempt(second.app, rider.email, STRONG_PASSWORD, '192.0.2.44');
    expect(real.statusCode).toBe(200);
    // The attacker's address is still closed for this account.
    expect((await attempt(t.app, rider.email, 'Wrong-pass-2', '198.51.100.9')).statusCode).toBe(429);
    // A new address gets one judged guess while the account is closed, then it is closed too.
    expect((await attempt(t.app, rider.email, 'Wrong-pass-3', '198.51.100.10')).statusCode).toBe(401);
    expect((await attempt(t.app, rider.email, 'Wrong-pass-4', '198.51.100.10')).statusCode).toBe(429);
  });

  it('counts judged failures only: refused attempts neither add nor extend the lock', async () => {
    const rider = await registerRider(t.app);
    for (let i = 0; i < 10; i++) await attempt(t.app, rider.email, 'Wrong-pass-1', '203.0.113.20');
    const before = await t.database.db.select().from(loginThrottle);
    for (let i = 0; i < 5; i++)
      expect((await attempt(t.app, rider.email, 'Wrong-pass-1', '203.0.113.20')).statusCode).toBe(429);
    const after = await t.database.db.select().from(loginThrottle);
    expect(after).toEqual(before);
    // A right password gives its slot back: 9 failures, then the rider signs in, then one more try is judged.
    const other = await registerRider(t.app);
    for (let i = 0; i < 9; i++) await attempt(t.app, other.email, 'Wrong-pass-1', '203.0.113.21');
    expect((await attempt(t.app, other.email, STRONG_PASSWORD, '203.0.113.21')).statusCode).toBe(200);
    expect((await attempt(t.app, other.email, 'Wrong-pass-1', '203.0.113.21')).statusCode).toBe(401);
    // The table holds no email.
    const { n } = firstRow(
      await t.database.db
        .select({ n: count() })
        .from(loginThrottle)
        .where(eq(loginThrottle.key, `account:${other.email}`)),
    );
    expect(n).toBe(0);
  });

  it('closes an address after its limit across accounts (password spraying)', async () => {
    const codes: number[] = [];
    for (let i = 0; i < 52; i++) {
      codes.push((await attempt(t.app, `spray${i}@example.com`, 'Wrong-pass-1', '203.0.113.99')).statusCode);
    }
    expect(tally(codes)).toEqual({ 401: 50, 429: 2, other: [] });
  });
});
