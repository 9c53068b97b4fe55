import { and, desc, eq } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { activities } from '../../db/schema/activities';
import { loginActivities } from '../../db/schema/security';
import { users } from '../../db/schema/users';
import { buildTestApp, DB_KINDS, type TestApp } from '../../test/build-app';
import { bearer, login, readResetLink, registerRider, STRONG_PASSWORD, spendResetLink } from '../../test/factories';
import { createResetLink } from '../password-resets/password-resets.service';
import { FORGOT_PASSWORD_MESSAGE } from './auth.routes';

describe.each(DB_KINDS)('auth on %s', (kind) => {
  let t: TestApp;
  beforeAll(async () => {
    t = await buildTestApp(kind);
  });
  afterAll(() => t.close());

  const lastLogin = async (email: string) => {
    const [row] = await t.database.db
      .select()
      .from(loginActivities)
      .where(eq(loginActivities.email, email.toLowerCase()))
      .orderBy(desc(loginActivities.createdAt))
      .limit(1);
    return row;
  };

  it('logs in with the stored shape and records the attempt', async () => {
    const rider = await registerRider(t.app);
    const res = await login(t.app, rider.email.toUpperCase());
    expect(res.statusCode).toBe(200);
    const body = res.json();
    expect(body).toMatchObject({ success: true, data: { user: { id: rider.userId, verificationStatus: 'pending' } } });
    expect(typeof body.token).toBe('string');
    expect(typeof body.message).toBe('string');
    expect(await lastLogin(rider.email)).toMatchObject({ success: true, userId: rider.userId });
  });

  it('refuses a wrong password and an unknown email alike, recording both', async () => {
    const rider = await registerRider(t.app);
    const wrong = await login(t.app, rider.email, 'Wrong-password1');
    const unknown = await login(t.app, 'nobody@example.com', 'Wrong-password1');
    for (const res of [wrong, unknown]) {
      expect(res.statusCode).toBe(401);
      expect(res.json()).toMatchObject({ success: false, message: 'Invalid email or password' });
    }
    expect(await lastLogin(rider.email)).toMatchObject({ success: false, failureReason: 'wrong_password' });
    expect(await lastLogin('nobody@example.com')).toMatchObject({
      success: false,
      failureReason: 'unknown_email',
      userId: null,
    });
  });

  it('asks for both fields', async () => {
    const res = await t.app.inject({ method: 'POST', url: '/api/auth/login', payload: { email: '', password: '' } });
    expect(res.statusCode).toBe(400);
    expect(res.json().message).toBe('Please enter both email and password');
  });

  it('tells an inactive account so, and its sessions end at once', async () => {
    const rider = await registerRider(t.app);
    await t.database.db.update(users).set({ status: 'inactive' }).where(eq(users.id, rider.userId));
    const res = await login(t.app, rider.email);
    expect(res.statusCode).toBe(403);
    expect(res.json()).toMatchObject({ code: 'ACCOUNT_INACTIVE' });
    expect(res.json().message).toMatch(/deactivated/);
    const profile = await t.app.inject({ method: 'GET', url: '/api/auth/profile', headers: bearer(rider.token) });
    expect(profile.statusCode).toBe(401);
    expect(await lastLogin(rider.email)).toMatchObject({ success: false, failureReason: 'inactive' });
  });

  it('refreshes a token (the old one stops working) and logs out', async () => {
    const rider = await registerRider(t.app);
    const refreshed = await t.app.inject({ method: 'POST', url: '/api/auth/refresh', headers: bearer(rider.token) });
    expect(refreshed.statusCode).toBe(200);
    const next = refreshed.json().token;
    expect(next).not.toBe(rider.token);
    expect(refreshed.json().data.user.id).toBe(rider.userId);
    expect(
      (await t.app.inject({ method: 'GET', url: '/api/auth/profile', headers: bearer(rider.token) })).statusCode,
    ).toBe(401);
    expect((await t.app.inject({ method: 'GET', url: '/api/auth/profile', headers: bearer(next) })).statusCode).toBe(
      200,
    );
    const out = await t.app.inject({ method: 'POST', url: '/api/auth/logout', headers: bearer(next) });
    expect(out.statusCode).toBe(200);
    expect((await t.app.inject({ method: 'GET', url: '/api/auth/profile', headers: bearer(next) })).statusCode).toBe(
      401,
    );
  });

  it('answers 401 for a missing, malformed or unknown token', async () => {
    for (const headers of [{}, { authorization: 'Bearer' }, { authorization: 'Basic abc' }, bearer('x'.repeat(43))]) {
      const res = await t.app.inject({ method: 'GET', url: '/api/auth/profile', headers });
      expect(res.statusCode).toBe(401);
      expect(res.json().success).toBe(false);
    }
  });

  it('answers forgot-password the same for every email and records the request for staff', async () => {
    const rider = await registerRider(t.app);
    const known = await t.app.inject({
      method: 'POST',
      url: '/api/auth/forgot-password',
      payload: { email: rider.email },
    });
    const unknown = await t.app.inject({
      method: 'POST',
      url: '/api/auth/forgot-password',
      payload: { email: 'ghost@example.com' },
    });
    expect(known.statusCode).toBe(200);
    expect(unknown.statusCode).toBe(200);
    expect(known.json()).toEqual(unknown.json());
    expect(known.json().message).toBe(FORGOT_PASSWORD_MESSAGE);
    const logged = await t.database.db
      .select()
      .from(activities)
      .where(and(eq(activities.type, 'password_reset_requested'), eq(activities.userId, rider.userId)));
    expect(logged).toHaveLength(1);
  });

  it('resets a password by link: read, use once, sessions end, old password fails', async () => {
    const rider = await registerRider(t.app, { firstName: 'Tala', kitName: 'TALA THE SWIFT' });
    const link = await createResetLink(t.database.db, rider.userId, t.config.publicUrl, null);
    expect(link.resetUrl).toBe(`http://rally.test/reset-password?token=${link.resetToken}`);

    const info = await readResetLink(t.app, link.resetToken);
    expect(info.statusCode).toBe(200);
    expect(info.json().data).toEqual({ email: rider.email, userName: 'TALA THE SWIFT' });

    const weak = await spendResetLink(t.app, link.resetToken, 'alllowercase1');
    expect(weak.statusCode).toBe(400);
    expect(weak.json().message).toBe('Password must contain at least one uppercase letter');

    const ok = await spendResetLink(t.app, link.resetToken, 'NewWarrior9');
    expect(ok.statusCode).toBe(200);
    expect(
      (await t.app.inject({ method: 'GET', url: '/api/auth/profile', headers: bearer(rider.token) })).statusCode,
    ).toBe(401);
    expect((await login(t.app, rider.email, STRONG_PASSWORD)).statusCode).toBe(401);
    expect((await login(t.app, rider.email, 'NewWarrior9')).statusCode).toBe(200);

    const again = await spendResetLink(t.app, link.resetToken, 'Another9Pass');
    expect(again.statusCode).toBe(400);
    expect(again.json().message).toBe('Invalid or expired reset link');
    const reread = await readResetLink(t.app, link.resetToken);
    expect(reread.statusCode).toBe(400);
  });

  it('refuses an expired link and a link voided by a newer one', async () => {
    const rider = await registerRider(t.app);
    const hourAgo = new Date(Date.now() - 61 * 60_000);
    const expired = await createResetLink(t.database.db, rider.userId, t.config.publicUrl, null, hourAgo);
    const res = await readResetLink(t.app, expired.resetToken);
    expect(res.statusCode).toBe(400);
    expect(res.json().message).toBe('Invalid or expired reset link');

    const older = await createResetLink(t.database.db, rider.userId, t.config.publicUrl, null);
    const newer = await createResetLink(t.database.db, rider.userId, t.config.publicUrl, null);
    expect((await readResetLink(t.app, older.resetToken)).statusCode).toBe(400);
    expect((await readResetLink(t.app, newer.resetToken)).statusCode).toBe(200);
  });
});
