// Issue 16: sessions renewed for ever. A sign-in now lasts at most 30 days: refreshes
// keep its original start, and after that the rider signs in again.
import { eq, sql } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { sessions } from '../../db/schema/sessions';
import { sha256Hex } from '../../lib/tokens';
import { buildTestApp, DB_KINDS, type TestApp } from '../../test/build-app';
import { bearer, login, registerRider } from '../../test/factories';
import { SESSION_MAX_AGE_MS } from './auth.service';

const DAY = 24 * 60 * 60 * 1000;

describe.each(DB_KINDS)('absolute session lifetime on %s', (kind) => {
  let t: TestApp;
  beforeAll(async () => {
    t = await buildTestApp(kind);
  });
  afterAll(() => t.close());

  const session = async (token: string) => {
    const [row] = await t.database.db
      .select()
      .from(sessions)
      .where(eq(sessions.tokenHash, sha256Hex(token)));
    if (!row) throw new Error('no session');
    return row;
  };
  /** Moves a session's clock back, as if `ms` had passed since it was issued. */
  const age = (token: string, ms: number) =>
    t.database.db
      .update(sessions)
      .set({
        startedAt: sql`${sessions.startedAt} - make_interval(secs => ${ms / 1000})`,
        createdAt: sql`${sessions.createdAt} - make_interval(secs => ${ms / 1000})`,
        expiresAt: sql`${sessions.expiresAt} - make_interval(secs => ${ms / 1000})`,
      })
      .where(eq(sessions.tokenHash, sha256Hex(token)));
  const refresh = (token: string) => t.app.inject({ method: 'POST', url: '/api/auth/refresh', headers: bearer(token) });
  const profile = (token: string) => t.app.inject({ method: 'GET', url: '/api/auth/profile', headers: bearer(token) });

  it('keeps the first sign-in time through refreshes and ends 30 days after it', async () => {
    const rider = await registerRider(t.app);
    const signedIn = await login(t.app, rider.email);
    let token: string = signedIn.json().token;
    const first = await session(token);
    expect(SESSION_MAX_AGE_MS).toBe(30 * DAY);

    // Refreshed every few days for almost a month: each refresh keeps the original start.
    for (let i = 0; i < 5; i++) {
      await age(token, 5 * DAY);
      const res = await refresh(token);
      expect(res.statusCode, res.body).toBe(200);
      token = res.json().token;
    }
    const late = await session(token);
    expect(late.startedAt.getTime()).toBe(first.startedAt.getTime() - 25 * DAY);
    // 25 days in, the refresh gets 5 days, not 7: it cannot reach past 30 days from the sign-in.
    expect(late.expiresAt.getTime()).toBe(late.startedAt.getTime() + SESSION_MAX_AGE_MS);
    await age(token, 5 * DAY - 60_000);
    expect((await profile(token)).statusCode).toBe(200);

    // Two minutes later the sign-in is over: the token and a refresh are refused.
    await age(token, 120_000);
    const gone = await profile(token);
    expect(gone.statusCode).toBe(401);
    expect(gone.json()).toMatchObject({ code: 'INVALID_SESSION' });
    expect((await refresh(token)).statusCode).toBe(401);

    // Signing in again starts a new 30 days.
    const again = await login(t.app, rider.email);
    expect(again.statusCode).toBe(200);
    const fresh = await session(again.json().token);
    expect(Date.now() - fresh.startedAt.getTime()).toBeLessThan(60_000);
  });
});
