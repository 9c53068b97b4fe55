// Issue 41: past the proof-of-work threshold the registration form sent its files twice:
// once to be told a security check was needed, then again with the answer. The form now
// asks first, with nothing uploaded, whether its next registration needs the check; asking
// counts as no registration.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { loadConfig } from '../../config';
import { buildTestApp, DB_KINDS, type TestApp } from '../../test/build-app';
import { registrationFields } from '../../test/factories';

const THRESHOLD = 2;

describe.each(DB_KINDS)('whether a registration needs a security check (%s)', (kind) => {
  let t: TestApp;
  let nextNumber = 400;

  beforeAll(async () => {
    const limits = loadConfig({ RATE_LIMIT_REGISTRATIONS: String(THRESHOLD) });
    t = await buildTestApp(kind, { rateLimits: limits.rateLimits, challenge: { hmacKey: 'k'.repeat(32), work: 20 } });
  });
  afterAll(async () => {
    await t?.close();
  });

  const check = async (ip: string) => {
    const res = await t.app.inject({ method: 'GET', url: '/api/auth/registration-check', remoteAddress: ip });
    expect(res.statusCode, res.body).toBe(200);
    expect(res.headers['cache-control']).toBe('no-store');
    return res.json().data.challengeRequired as boolean;
  };
  const register = (ip: string) =>
    t.app.inject({
      method: 'POST',
      url: '/api/auth/register',
      remoteAddress: ip,
      payload: { ...registrationFields({ paymentMethod: 'cash' }), riderNumber: nextNumber++ },
    });

  it('says so exactly when the next registration from the address would be asked, counting none', async () => {
    const ip = '198.51.100.77';
    for (let i = 0; i < THRESHOLD; i++) {
      // Asked many times over: asking is not a registration.
      for (let k = 0; k < 3; k++) expect(await check(ip), `before rider ${i}`).toBe(false);
      expect((await register(ip)).statusCode, `rider ${i}`).toBe(201);
    }
    expect(await check(ip)).toBe(true);
    expect((await register(ip)).json()).toMatchObject({ code: 'CHALLENGE_REQUIRED' });
    // Another address is not asked.
    expect(await check('198.51.100.78')).toBe(false);
  });
});
