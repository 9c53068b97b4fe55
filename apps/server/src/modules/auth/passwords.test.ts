// Issue 16: any 8-character password was accepted, and nobody could change theirs. New
// passwords are checked against a bundled list of common passwords everywhere one is
// set, and riders and staff change theirs with POST /api/auth/change-password.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { COMMON_PASSWORD_MESSAGE, isCommonPassword } from '../../lib/common-passwords';
import { buildTestApp, DB_KINDS, type TestApp } from '../../test/build-app';
import {
  bearer,
  login,
  registerRider,
  registrationFields,
  STRONG_PASSWORD,
  spendResetLink,
  staff,
} from '../../test/factories';
import { createUser } from '../operator/operator.service';
import { createResetLink } from '../password-resets/password-resets.service';

describe.each(DB_KINDS)('passwords on %s', (kind) => {
  let t: TestApp;
  beforeAll(async () => {
    t = await buildTestApp(kind);
  });
  afterAll(() => t.close());

  const change = (token: string, currentPassword: unknown, newPassword: unknown) =>
    t.app.inject({
      method: 'POST',
      url: '/api/auth/change-password',
      headers: bearer(token),
      payload: { currentPassword, newPassword },
    });
  const profile = (token: string) => t.app.inject({ method: 'GET', url: '/api/auth/profile', headers: bearer(token) });

  it('knows the common passwords, whatever their case, and not the strong ones', () => {
    for (const p of ['Password1', 'password1', 'Qwerty123', 'Iloveyou1', 'P@ssw0rd'])
      expect(isCommonPassword(p)).toBe(true);
    for (const p of [STRONG_PASSWORD, 'Kalinaw-Trail-88']) expect(isCommonPassword(p)).toBe(false);
  });

  it('refuses a common password at registration, reset and account creation, with a clear message', async () => {
    const reg = await t.app.inject({
      method: 'POST',
      url: '/api/auth/register',
      payload: registrationFields({ password: 'Password1' }),
    });
    expect(reg.statusCode).toBe(400);
    expect(reg.json()).toMatchObject({ code: 'COMMON_PASSWORD', message: COMMON_PASSWORD_MESSAGE });
    // The length and character checks keep their messages and come first.
    const short = await t.app.inject({
      method: 'POST',
      url: '/api/auth/register',
      payload: registrationFields({ password: 'short' }),
    });
    expect(short.json().message).toBe('Password must be at least 8 characters long.');

    const rider = await registerRider(t.app);
    const link = await createResetLink(t.database.db, rider.userId, t.config.publicUrl, null);
    const reset = await spendResetLink(t.app, link.resetToken, 'Welcome123');
    expect(reset.statusCode).toBe(400);
    expect(reset.json().message).toBe(COMMON_PASSWORD_MESSAGE);

    await expect(
      createUser(t.database.db, { email: 'chief.common@example.com', password: 'Password1', role: 'admin' }),
    ).rejects.toThrow(`Weak password: ${COMMON_PASSWORD_MESSAGE}`);
  });

  it('changes a rider’s password and ends their other sessions, keeping this one', async () => {
    const rider = await registerRider(t.app);
    const phone = (await login(t.app, rider.email)).json().token as string;
    const laptop = (await login(t.app, rider.email)).json().token as string;

    const wrong = await change(phone, 'Not-my-pass1', 'Kalinaw-Trail-88');
    expect(wrong.statusCode).toBe(400);
    expect(wrong.json().message).toBe('Your current password is incorrect');
    const weak = await change(phone, STRONG_PASSWORD, 'alllowercase1');
    expect(weak.json().message).toBe('Password must contain at least one uppercase letter');
    const common = await change(phone, STRONG_PASSWORD, 'Password1');
    expect(common.json()).toMatchObject({ code: 'COMMON_PASSWORD', message: COMMON_PASSWORD_MESSAGE });
    const blank = await change(phone, '', '');
    expect(blank.json().message).toBe('Please fill in all fields');
    expect((await profile(laptop)).statusCode).toBe(200);

    const ok = await change(phone, STRONG_PASSWORD, 'Kalinaw-Trail-88');
    expect(ok.statusCode, ok.body).toBe(200);
    expect(ok.json().message).toBe('Password changed. You have been signed out on your other devices.');
    expect((await profile(phone)).statusCode).toBe(200);
    expect((await profile(laptop)).statusCode).toBe(401);
    expect((await profile(rider.token)).statusCode).toBe(401);
    expect((await login(t.app, rider.email, STRONG_PASSWORD)).statusCode).toBe(401);
    expect((await login(t.app, rider.email, 'Kalinaw-Trail-88')).statusCode).toBe(200);
  });

  it('lets staff change theirs too, and needs a session', async () => {
    const admin = await staff(t.app, t.database.db, 'admin');
    const res = await change(admin.token, STRONG_PASSWORD, 'Command-Post-77');
    expect(res.statusCode).toBe(200);
    expect((await login(t.app, admin.email, 'Command-Post-77')).statusCode).toBe(200);
    const anonymous = await t.app.inject({
      method: 'POST',
      url: '/api/auth/change-password',
      payload: { currentPassword: 'a', newPassword: 'b' },
    });
    expect(anonymous.statusCode).toBe(401);
  });
});
