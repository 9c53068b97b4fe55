import { and, eq } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { activities } from '../../db/schema/activities';
import { passwordResets } from '../../db/schema/security';
import { buildTestApp, DB_KINDS, type TestApp } from '../../test/build-app';
import {
  type Actor,
  bearer,
  injectAs,
  login,
  readResetLink,
  registerRider,
  STRONG_PASSWORD,
  spendResetLink,
  staff,
} from '../../test/factories';
import { firstRow } from '../../test/present';
import {
  cleanupResetLinks,
  completeReset,
  generateForUser,
  listResetHistory,
  readResetToken,
} from './password-resets.service';

const HOUR = 60 * 60 * 1000;
const NEW_PASSWORD = 'NewWarrior2026';

describe.each(DB_KINDS)('staff password resets (%s)', (kind) => {
  let t: TestApp;
  let admin: Actor;
  let otherAdmin: Actor;
  let developer: Actor;
  let marshall: Actor;
  let officer: Actor;
  let rider: Actor;

  const call = (actor: Actor, method: 'GET' | 'POST', url: string, payload?: unknown) =>
    injectAs(t.app, actor, method, url, payload);
  const generate = (actor: Actor, userId: string) =>
    call(actor, 'POST', '/api/admin/password-resets/generate', { userId });
  const adminActor = () => ({ id: admin.userId, name: 'Admin Account', role: 'admin' });

  beforeAll(async () => {
    t = await buildTestApp(kind);
    admin = await staff(t.app, t.database.db, 'admin');
    otherAdmin = await staff(t.app, t.database.db, 'admin');
    developer = await staff(t.app, t.database.db, 'developer');
    marshall = await staff(t.app, t.database.db, 'marshall');
    officer = await staff(t.app, t.database.db, 'officer');
    rider = await registerRider(t.app, { firstName: 'Lost', kitName: 'FORGETFUL' });
  });
  afterAll(async () => {
    await t?.close();
  });

  it('is for admins and developers only', async () => {
    for (const who of [marshall, officer, rider]) {
      expect((await generate(who, rider.userId)).statusCode).toBe(403);
      expect((await call(who, 'GET', '/api/admin/password-resets/history')).statusCode).toBe(403);
      expect((await call(who, 'GET', '/api/admin/password-resets/users')).statusCode).toBe(403);
      expect((await call(who, 'POST', '/api/admin/password-resets/cleanup', {})).statusCode).toBe(403);
    }
  });

  it('generates a one-hour link built on the public URL, and logs it', async () => {
    const before = Date.now();
    const res = await generate(admin, rider.userId);
    expect(res.statusCode, res.body).toBe(200);
    expect(res.headers['cache-control']).toBe('no-store');
    const data = res.json().data;
    expect(data.resetUrl).toBe(`http://rally.test/reset-password?token=${encodeURIComponent(data.resetToken)}`);
    expect(data.user).toEqual({ fullName: expect.stringMatching(/^Lost Rider/), email: rider.email });
    const expires = Date.parse(data.expiresAt);
    expect(expires - before).toBeGreaterThanOrEqual(HOUR - 1000);
    expect(expires - Date.now()).toBeLessThanOrEqual(HOUR);
    const row = firstRow(
      await t.database.db.select().from(passwordResets).where(eq(passwordResets.userId, rider.userId)),
    );
    expect(row.tokenHash).not.toContain(data.resetToken);
    expect(row.createdBy).toBe(admin.userId);
    const logged = await t.database.db
      .select()
      .from(activities)
      .where(and(eq(activities.type, 'password_reset_generated'), eq(activities.userId, rider.userId)));
    expect(logged.length).toBeGreaterThanOrEqual(1);
  });

  it('follows the visibility rules and refuses a link for oneself', async () => {
    const hidden = await generate(admin, otherAdmin.userId);
    expect(hidden.statusCode).toBe(404);
    expect(hidden.json().message).toBe('User not found');
    expect((await generate(admin, developer.userId)).statusCode).toBe(404);
    expect((await generate(admin, '00000000-0000-4000-8000-000000000000')).statusCode).toBe(404);
    expect((await generate(developer, otherAdmin.userId)).statusCode).toBe(200);
    const self = await generate(developer, developer.userId);
    expect(self.statusCode).toBe(403);
    expect(self.json().code).toBe('SELF_RESET');
    const bad = await call(admin, 'POST', '/api/admin/password-resets/generate', { userId: 'nope' });
    expect(bad.statusCode).toBe(400);
    expect(bad.json().message).toBe('userId must be a valid user id');
  });

  it('a link works once: the password changes, sessions end, and a second use is refused', async () => {
    const link = (await generate(admin, rider.userId)).json().data;
    const check = await readResetLink(t.app, link.resetToken);
    expect(check.statusCode).toBe(200);
    const done = await spendResetLink(t.app, link.resetToken, NEW_PASSWORD);
    expect(done.statusCode, done.body).toBe(200);
    expect((await login(t.app, rider.email, NEW_PASSWORD)).statusCode).toBe(200);
    expect((await login(t.app, rider.email, STRONG_PASSWORD)).statusCode).toBe(401);
    // The rider's old session was revoked by the reset.
    expect(
      (await t.app.inject({ method: 'GET', url: '/api/auth/profile', headers: bearer(rider.token) })).statusCode,
    ).toBe(401);
    const again = await spendResetLink(t.app, link.resetToken, 'Another2027x');
    expect(again.statusCode).toBe(400);
    expect(again.json().message).toBe('Invalid or expired reset link');

    const history = (await call(admin, 'GET', '/api/admin/password-resets/history?status=used')).json().data;
    const entry = history.resets.find((r: { userEmail: string }) => r.userEmail === rider.email);
    expect(entry).toMatchObject({ used: true, status: 'used', createdBy: 'Admin Account' });
    expect(entry.usedAt).not.toBeNull();
  });

  it('a newer link voids the older unused one', async () => {
    const older = (await generate(admin, rider.userId)).json().data;
    const newer = (await generate(admin, rider.userId)).json().data;
    expect((await readResetLink(t.app, older.resetToken)).statusCode).toBe(400);
    expect((await readResetLink(t.app, newer.resetToken)).statusCode).toBe(200);
    const history = (
      await call(admin, 'GET', `/api/admin/password-resets/history?email=${encodeURIComponent(rider.email)}`)
    ).json().data.resets;
    expect(history[0]).toMatchObject({ status: 'pending', used: false });
    expect(history[1]).toMatchObject({ status: 'expired', used: false });
  });

  it('a link expires after one hour (clock moved, not waited for)', async () => {
    const issuedAt = new Date(Date.now() - 10 * 60 * 1000);
    const link = await generateForUser(t.database.db, rider.userId, adminActor(), 'http://rally.test', issuedAt);
    const at = (ms: number) => new Date(issuedAt.getTime() + ms);
    await expect(readResetToken(t.database.db, link.resetToken, at(HOUR - 1000))).resolves.toMatchObject({
      email: rider.email,
    });
    await expect(readResetToken(t.database.db, link.resetToken, at(HOUR + 1000))).rejects.toThrow(
      'Invalid or expired reset link',
    );
    await expect(completeReset(t.database.db, link.resetToken, NEW_PASSWORD, at(HOUR + 1000))).rejects.toThrow(
      'Invalid or expired reset link',
    );
    const pendingLater = await listResetHistory(
      t.database.db,
      { page: 1, limit: 50, status: 'pending', email: rider.email },
      'developer',
      at(HOUR + 1000),
    );
    expect(pendingLater.resets).toHaveLength(0);
    const expiredLater = await listResetHistory(
      t.database.db,
      { page: 1, limit: 50, status: 'expired', email: rider.email },
      'developer',
      at(HOUR + 1000),
    );
    expect(expiredLater.resets.map((r) => r.id)).toContain(
      firstRow(
        (await listResetHistory(t.database.db, { page: 1, limit: 1, email: rider.email }, 'developer', at(0))).resets,
      ).id,
    );
    // Still inside the hour, it works once.
    await expect(completeReset(t.database.db, link.resetToken, NEW_PASSWORD, at(HOUR - 1000))).resolves.toMatchObject({
      email: rider.email,
    });
  });

  it('lists history newest first with filters, paging and visibility', async () => {
    const all = (await call(developer, 'GET', '/api/admin/password-resets/history?limit=2')).json().data;
    expect(all.resets).toHaveLength(2);
    expect(all.pagination.limit).toBe(2);
    expect(all.pagination.total).toBeGreaterThanOrEqual(5);
    expect(Date.parse(all.resets[0].createdAt)).toBeGreaterThanOrEqual(Date.parse(all.resets[1].createdAt));
    const page2 = (await call(developer, 'GET', '/api/admin/password-resets/history?limit=2&page=2')).json().data;
    expect(page2.resets.map((r: { id: string }) => r.id)).not.toContain(all.resets[0].id);
    // The link generated for the other admin is visible to the developer, not to an admin.
    const devView = (
      await call(developer, 'GET', `/api/admin/password-resets/history?email=${encodeURIComponent(otherAdmin.email)}`)
    ).json();
    expect(devView.data.resets).toHaveLength(1);
    const adminView = (
      await call(admin, 'GET', `/api/admin/password-resets/history?email=${encodeURIComponent(otherAdmin.email)}`)
    ).json();
    expect(adminView.data.resets).toHaveLength(0);
    const bad = await call(admin, 'GET', '/api/admin/password-resets/history?status=old');
    expect(bad.statusCode).toBe(400);
    expect(bad.json().message).toMatch(/status must be one of: used, pending, expired/);
  });

  it('cleanup deletes only dead unused links and reports the count', async () => {
    const live = (await generate(admin, rider.userId)).json().data;
    const dead = await t.database.db
      .select({ id: passwordResets.id })
      .from(passwordResets)
      .where(eq(passwordResets.userId, rider.userId));
    expect(dead.length).toBeGreaterThan(2);
    const res = await call(admin, 'POST', '/api/admin/password-resets/cleanup', {});
    expect(res.statusCode, res.body).toBe(200);
    const deleted = res.json().data.deleted;
    expect(deleted).toBeGreaterThanOrEqual(2);
    expect(res.json().message).toBe(`Removed ${deleted} expired reset links`);
    // The live link and the used ones remain.
    expect((await readResetLink(t.app, live.resetToken)).statusCode).toBe(200);
    const left = (await call(developer, 'GET', '/api/admin/password-resets/history?limit=200')).json().data.resets;
    expect(left.every((r: { status: string }) => r.status !== 'expired')).toBe(true);
    expect(left.some((r: { status: string }) => r.status === 'used')).toBe(true);
    const logged = await t.database.db.select().from(activities).where(eq(activities.type, 'password_resets_cleanup'));
    expect(logged).toHaveLength(1);
    // Moving the clock past the hour makes the live links (this rider's and the other admin's) dead too.
    const live2 = (await call(developer, 'GET', '/api/admin/password-resets/history?status=pending')).json().data;
    expect(live2.pagination.total).toBe(2);
    expect(await cleanupResetLinks(t.database.db, adminActor(), new Date(Date.now() + 2 * HOUR))).toBe(2);
  });

  it('lists users the viewer may reset, searchable, never themselves', async () => {
    const asAdmin = (await call(admin, 'GET', '/api/admin/password-resets/users?limit=100')).json().data;
    const ids = asAdmin.users.map((u: { id: string }) => u.id);
    expect(ids).toContain(rider.userId);
    expect(ids).toContain(marshall.userId);
    expect(ids).not.toContain(admin.userId);
    expect(ids).not.toContain(otherAdmin.userId);
    expect(ids).not.toContain(developer.userId);
    expect(asAdmin.users.find((u: { id: string }) => u.id === rider.userId)).toEqual({
      id: rider.userId,
      first_name: 'Lost',
      last_name: expect.any(String),
      kit_name: 'FORGETFUL',
      email: rider.email,
      role: 'participant',
    });
    const asDev = (await call(developer, 'GET', '/api/admin/password-resets/users?limit=100')).json().data;
    expect(asDev.users.map((u: { id: string }) => u.id)).toEqual(
      expect.arrayContaining([admin.userId, otherAdmin.userId]),
    );
    expect(asDev.users.map((u: { id: string }) => u.id)).not.toContain(developer.userId);
    const found = (await call(admin, 'GET', '/api/admin/password-resets/users?search=forgetful')).json().data;
    expect(found.users.map((u: { id: string }) => u.id)).toEqual([rider.userId]);
    expect(found.pagination.total).toBe(1);
    const hiddenSearch = (
      await call(admin, 'GET', `/api/admin/password-resets/users?search=${encodeURIComponent(developer.email)}`)
    ).json();
    expect(hiddenSearch.data.users).toHaveLength(0);
    const paged = (await call(developer, 'GET', '/api/admin/password-resets/users?limit=2&page=1')).json().data;
    expect(paged.users).toHaveLength(2);
    expect(paged.pagination.total_pages).toBeGreaterThan(1);
  });
});
