import { sql } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { loadConfig } from '../config';
import { buildTestApp, type TestApp } from '../test/build-app';
import { clientAddressKey } from './client-address';

describe('clientAddressKey', () => {
  it.each([
    ['203.0.113.5', '203.0.113.5'],
    ['::ffff:203.0.113.5', '203.0.113.5'],
    ['::FFFF:198.51.100.7', '198.51.100.7'],
    ['2001:db8:abcd:12::1', '2001:db8:abcd:12::/64'],
    ['2001:0db8:abcd:0012:ffff:ffff:ffff:ffff', '2001:db8:abcd:12::/64'],
    ['2001:DB8:ABCD:12:1:2:3:4', '2001:db8:abcd:12::/64'],
    ['fe80::1%eth0', 'fe80:0:0:0::/64'],
    ['::1', '0:0:0:0::/64'],
    ['64:ff9b::192.0.2.1', '64:ff9b:0:0::/64'],
    [null, 'unknown'],
    ['', 'unknown'],
    ['not an address', 'not an address'],
  ])('keys %s as %s', (ip, key) => {
    expect(clientAddressKey(ip)).toBe(key);
  });

  it('keeps different /64 networks apart', () => {
    expect(clientAddressKey('2001:db8:abcd:12::1')).not.toBe(clientAddressKey('2001:db8:abcd:13::1'));
  });
});

describe('per-address limits on IPv6', () => {
  let t: TestApp;
  beforeAll(async () => {
    const { rateLimits } = loadConfig({ RATE_LIMIT_REGISTRATIONS: '2', RATE_LIMIT_LOGIN_PER_ADDRESS: '2' });
    t = await buildTestApp('pglite', { rateLimits });
  });
  afterAll(() => t.close());

  it('counts a client rotating through its /64 as one address, and keeps one row for it', async () => {
    const register = (ip: string) =>
      t.app.inject({ method: 'POST', url: '/api/auth/register', remoteAddress: ip, payload: { riderNumber: 'x' } });
    expect((await register('2001:db8:1:2::a')).statusCode).toBe(400);
    expect((await register('2001:db8:1:2::b')).statusCode).toBe(400);
    // Past the threshold the /64 is asked for a proof-of-work (issue 26), as one address.
    const asked = await register('2001:db8:1:2:ffff::c');
    expect(asked.statusCode).toBe(403);
    expect(asked.json()).toMatchObject({ success: false, code: 'CHALLENGE_REQUIRED' });
    // Another /64 is another subscriber.
    expect((await register('2001:db8:1:3::a')).statusCode).toBe(400);
    const result = await t.database.db.execute(sql`select key from rate_limit_hits where key like '%2001:db8:1:%'`);
    const keys = (result as unknown as { rows: Array<{ key: string }> }).rows.map((r) => r.key);
    expect(keys).toHaveLength(2);
    expect(keys.every((key) => key.endsWith('::/64'))).toBe(true);
  });

  it('counts failed logins from one /64 against one address budget', async () => {
    const attempt = (email: string, ip: string) =>
      t.app.inject({
        method: 'POST',
        url: '/api/auth/login',
        remoteAddress: ip,
        payload: { email, password: 'Wrong-pass1' },
      });
    expect((await attempt('a@example.com', '2001:db8:9:9::1')).statusCode).toBe(401);
    expect((await attempt('b@example.com', '2001:db8:9:9::2')).statusCode).toBe(401);
    expect((await attempt('c@example.com', '2001:db8:9:9::3')).statusCode).toBe(429);
    expect((await attempt('d@example.com', '2001:db8:9:a::1')).statusCode).toBe(401);
  });
});
