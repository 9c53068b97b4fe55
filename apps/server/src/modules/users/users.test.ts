import { eq } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { activities } from '../../db/schema/activities';
import { users } from '../../db/schema/users';
import { buildTestApp, DB_KINDS, type TestApp } from '../../test/build-app';
import { type Actor, approvedRider, bearer, login, registerRider, staff } from '../../test/factories';
import { firstRow, present } from '../../test/present';

describe.each(DB_KINDS)('admin users (%s)', (kind) => {
  let t: TestApp;
  let admin: Actor;
  let admin2: Actor;
  let marshall: Actor;
  let officer: Actor;
  let developer: Actor;
  let developer2: Actor;

  const inject = (
    actor: Actor | null,
    method: 'GET' | 'POST' | 'PATCH' | 'PUT' | 'DELETE',
    url: string,
    payload?: unknown,
  ) =>
    t.app.inject({
      method,
      url,
      headers: actor ? bearer(actor.token) : {},
      ...(payload === undefined ? {} : { payload: payload as object }),
    });

  const verifiedRider = (overrides: Record<string, string | undefined> = {}) => approvedRider(t.app, admin, overrides);

  /** The user's row, or undefined once deleted. */
  async function row(id: string) {
    const [r] = await t.database.db.select().from(users).where(eq(users.id, id));
    return r;
  }

  beforeAll(async () => {
    t = await buildTestApp(kind);
    const db = t.database.db;
    admin = await staff(t.app, db, 'admin');
    admin2 = await staff(t.app, db, 'admin');
    marshall = await staff(t.app, db, 'marshall');
    officer = await staff(t.app, db, 'officer');
    developer = await staff(t.app, db, 'developer');
    developer2 = await staff(t.app, db, 'developer');
  });
  afterAll(async () => {
    await t?.close();
  });

  it('lists only verified accounts, hiding admins from admins and developers from non-developers', async () => {
    const rider = await verifiedRider();
    const pending = await registerRider(t.app);
    const ids = async (actor: Actor) => {
      const res = await inject(actor, 'GET', '/api/admin/users?limit=100');
      expect(res.statusCode, res.body).toBe(200);
      return (res.json().data.users as Array<{ id: string }>).map((u) => u.id);
    };
    const seenByAdmin = await ids(admin);
    expect(seenByAdmin).toContain(rider.userId);
    expect(seenByAdmin).toContain(marshall.userId);
    expect(seenByAdmin).not.toContain(pending.userId);
    expect(seenByAdmin).not.toContain(admin2.userId);
    expect(seenByAdmin).not.toContain(admin.userId);
    expect(seenByAdmin).not.toContain(developer.userId);

    const seenByMarshall = await ids(marshall);
    expect(seenByMarshall).toContain(admin.userId);
    expect(seenByMarshall).not.toContain(developer.userId);

    const seenByDeveloper = await ids(developer);
    expect(seenByDeveloper).toEqual(
      expect.arrayContaining([admin.userId, admin2.userId, developer2.userId, rider.userId]),
    );

    // The role filter cannot be used to peek at hidden accounts either.
    const devs = await inject(admin, 'GET', '/api/admin/users?role=developer');
    expect(devs.json().data.users).toEqual([]);
    expect(devs.json().data.pagination.total).toBe(0);

    const officerRes = await inject(officer, 'GET', '/api/admin/users');
    expect(officerRes.statusCode).toBe(403);
  });

  it('answers 404 User not found for every read and write on an account the viewer cannot see', async () => {
    const cases: Array<[Actor, Actor]> = [
      [admin, admin2],
      [admin, developer],
    ];
    for (const [viewer, target] of cases) {
      const before = await row(target.userId);
      const attempts = [
        inject(viewer, 'GET', `/api/admin/users/${target.userId}`),
        inject(viewer, 'PATCH', `/api/admin/users/${target.userId}`, { kit_name: 'HIJACKED' }),
        inject(viewer, 'PATCH', `/api/admin/users/${target.userId}/status`, { status: 'inactive' }),
        inject(viewer, 'PATCH', `/api/admin/users/${target.userId}/role`, { roleId: 'participant' }),
        inject(viewer, 'PUT', `/api/admin/users/${target.userId}/kit-sizes`, { tshirtSize: 'XS' }),
        inject(viewer, 'GET', `/api/admin/users/${target.userId}/login-activity`),
        inject(viewer, 'DELETE', `/api/admin/users/${target.userId}`),
        // Built by the password-resets module; the same rule holds there.
        inject(viewer, 'POST', '/api/admin/password-resets/generate', { userId: target.userId }),
      ];
      for (const res of await Promise.all(attempts)) {
        expect(res.statusCode, res.body).toBe(404);
        expect(res.json().message).toBe('User not found');
      }
      const after = await row(target.userId);
      expect(after).toEqual(before);
      // The target can still use its session.
      const profile = await inject(target, 'GET', '/api/auth/profile');
      expect(profile.statusCode).toBe(200);
    }
    const marshallReadsDev = await inject(marshall, 'GET', `/api/admin/users/${developer.userId}`);
    expect(marshallReadsDev.statusCode).toBe(404);
    const marshallLoginActivity = await inject(marshall, 'GET', `/api/admin/users/${developer.userId}/login-activity`);
    expect(marshallLoginActivity.statusCode).toBe(404);
    // A developer sees and reads everyone.
    const devReadsAdmin = await inject(developer, 'GET', `/api/admin/users/${admin2.userId}`);
    expect(devReadsAdmin.statusCode).toBe(200);
    expect(devReadsAdmin.json().data.user.role_name).toBe('admin');
  });

  it('refuses to let anyone delete, deactivate or re-role themselves', async () => {
    for (const actor of [admin, developer]) {
      const del = await inject(actor, 'DELETE', `/api/admin/users/${actor.userId}`);
      expect(del.statusCode).toBe(400);
      expect(del.json().message).toBe('You cannot delete your own account');
      const status = await inject(actor, 'PATCH', `/api/admin/users/${actor.userId}/status`, { status: 'inactive' });
      expect(status.statusCode).toBe(400);
      const role = await inject(actor, 'PATCH', `/api/admin/users/${actor.userId}/role`, { roleId: 'participant' });
      expect(role.statusCode).toBe(400);
      expect((await row(actor.userId))?.status).toBe('active');
    }
  });

  it('lets admins grant staff and rider roles but never admin or developer', async () => {
    const rider = await verifiedRider();
    const toMarshall = await inject(admin, 'PATCH', `/api/admin/users/${rider.userId}/role`, { roleId: 'marshall' });
    expect(toMarshall.statusCode, toMarshall.body).toBe(200);
    expect(toMarshall.json().data.user.role_name).toBe('marshall');
    for (const roleId of ['admin', 'developer']) {
      const res = await inject(admin, 'PATCH', `/api/admin/users/${rider.userId}/role`, { roleId });
      expect(res.statusCode).toBe(403);
    }
    expect((await row(rider.userId))?.role).toBe('marshall');
    const bad = await inject(admin, 'PATCH', `/api/admin/users/${rider.userId}/role`, { roleId: 'overlord' });
    expect(bad.statusCode).toBe(400);
    const byDev = await inject(developer, 'PATCH', `/api/admin/users/${rider.userId}/role`, { roleId: 'admin' });
    expect(byDev.statusCode).toBe(200);
    // Now an admin, the account is hidden from other admins.
    const hidden = await inject(admin, 'GET', `/api/admin/users/${rider.userId}`);
    expect(hidden.statusCode).toBe(404);
    const marshallTries = await inject(marshall, 'PATCH', `/api/admin/users/${rider.userId}/role`, {
      roleId: 'participant',
    });
    expect(marshallTries.statusCode).toBe(403);
    const activity = firstRow(await t.database.db.select().from(activities).where(eq(activities.type, 'role_change')));
    expect(activity.description).toContain('marshall');
  });

  it('validates edits and changes nothing on bad input', async () => {
    const rider = await verifiedRider();
    const before = await row(rider.userId);
    const bad: Array<[unknown, RegExp]> = [
      [{ kit_name: '   ' }, /Kit Name is required/],
      [{ first_name: '' }, /Full Name is required/],
      [{ birthdate: '2001-02-30' }, /real date/],
      [{ birthdate: '2999-01-01' }, /in the past/],
      [{ birthdate: '17/05/1990' }, /YYYY-MM-DD/],
      [{ category: 'superbike' }, /category must be one of/],
      [{ kit_name: 'X'.repeat(51) }, /at most 50/],
      [{ email: 'new@example.com' }, /Unknown field: email/],
      [{}, /Nothing to update/],
      [{ kit_name: 'VALID', phone_number: 12345 }, /phone_number must be text/],
    ];
    for (const [payload, message] of bad) {
      const res = await inject(admin, 'PATCH', `/api/admin/users/${rider.userId}`, payload);
      expect(res.statusCode, JSON.stringify(payload)).toBe(400);
      expect(res.json().message).toMatch(message);
    }
    expect(await row(rider.userId)).toEqual(before);

    const ok = await inject(admin, 'PATCH', `/api/admin/users/${rider.userId}`, {
      first_name: 'Lapu',
      last_name: 'Lapu Dakila',
      kit_name: 'LAPU THE BRAVE',
      phone_number: '',
      birthdate: '1985-12-01',
      category: null,
      club_name: 'Mactan Riders',
    });
    expect(ok.statusCode, ok.body).toBe(200);
    const user = ok.json().data.user;
    expect(user).toMatchObject({
      first_name: 'Lapu',
      last_name: 'Lapu Dakila',
      kit_name: 'LAPU THE BRAVE',
      phone_number: null,
      birthdate: '1985-12-01',
      category: null,
      club_name: 'Mactan Riders',
    });
    expect(user).not.toHaveProperty('password_hash');
    const notSet = await inject(admin, 'GET', '/api/admin/users?category=not_set&limit=100');
    expect(notSet.json().data.users.map((u: { id: string }) => u.id)).toContain(rider.userId);

    const byMarshall = await inject(marshall, 'PATCH', `/api/admin/users/${rider.userId}`, { kit_name: 'NOPE' });
    expect(byMarshall.statusCode).toBe(403);
    expect((await row(rider.userId))?.kitName).toBe('LAPU THE BRAVE');
  });

  it('updates kit sizes, requiring custom text for CUSTOM and clearing it otherwise', async () => {
    const rider = await verifiedRider();
    const url = `/api/admin/users/${rider.userId}/kit-sizes`;
    const missing = await inject(admin, 'PUT', url, { vestSize: 'CUSTOM' });
    expect(missing.statusCode).toBe(400);
    expect(missing.json().message).toBe('Please enter the custom vest size.');
    const wrongSize = await inject(admin, 'PUT', url, { tshirtSize: 'XXXXL' });
    expect(wrongSize.statusCode).toBe(400);
    const strayCustom = await inject(admin, 'PUT', url, { customVestSize: 'chest 50in' });
    expect(strayCustom.statusCode).toBe(400);

    const custom = await inject(admin, 'PUT', url, {
      tshirtSize: 'S',
      vestSize: 'CUSTOM',
      customVestSize: 'Chest 50in, long',
      finisherSleeveSize: 'XL',
    });
    expect(custom.statusCode, custom.body).toBe(200);
    expect(custom.json().data.user).toMatchObject({
      tshirt_size: 'S',
      vest_size: 'CUSTOM',
      custom_vest_size: 'Chest 50in, long',
      finisher_sleeve_size: 'XL',
    });
    const back = await inject(developer, 'PUT', url, { vestSize: 'L', customVestSize: null });
    expect(back.statusCode, back.body).toBe(200);
    expect(back.json().data.user).toMatchObject({ vest_size: 'L', custom_vest_size: null, tshirt_size: 'S' });
    const cleared = await inject(admin, 'PUT', url, { tshirtSize: null });
    expect(cleared.json().data.user.tshirt_size).toBeNull();
  });

  it('deactivation ends the rider sessions at once and login then answers the deactivated message', async () => {
    const rider = await verifiedRider();
    expect((await inject(rider, 'GET', '/api/auth/profile')).statusCode).toBe(200);
    const off = await inject(admin, 'PATCH', `/api/admin/users/${rider.userId}/status`, { status: 'inactive' });
    expect(off.statusCode, off.body).toBe(200);
    expect(off.json().data.user.status).toBe('inactive');
    const profile = await inject(rider, 'GET', '/api/auth/profile');
    expect(profile.statusCode).toBe(401);
    const attempt = await login(t.app, rider.email);
    expect(attempt.statusCode).toBe(403);
    expect(attempt.json().message).toBe('Your account has been deactivated. Please contact the organizers.');
    const inactive = await inject(admin, 'GET', '/api/admin/users?status=inactive&limit=100');
    expect(inactive.json().data.users.map((u: { id: string }) => u.id)).toContain(rider.userId);

    const bad = await inject(admin, 'PATCH', `/api/admin/users/${rider.userId}/status`, { status: 'banned' });
    expect(bad.statusCode).toBe(400);
    const on = await inject(admin, 'PATCH', `/api/admin/users/${rider.userId}/status`, { status: 'active' });
    expect(on.statusCode).toBe(200);
    expect((await login(t.app, rider.email)).statusCode).toBe(200);
    const changes = await t.database.db.select().from(activities).where(eq(activities.type, 'status_change'));
    expect(changes.filter((a) => a.userId === rider.userId)).toHaveLength(2);
  });

  it('deletes an account with its files and frees its rider number for another rider', async () => {
    const victim = await verifiedRider();
    const claimant = await registerRider(t.app);
    const number = victim.riderNumber;
    const taken = await inject(claimant, 'POST', '/api/rider-numbers/assign', { riderNumber: number });
    expect(taken.statusCode).toBe(409);

    const byMarshall = await inject(marshall, 'DELETE', `/api/admin/users/${victim.userId}`);
    expect(byMarshall.statusCode).toBe(403);
    const del = await inject(admin, 'DELETE', `/api/admin/users/${victim.userId}`);
    expect(del.statusCode, del.body).toBe(200);
    expect(del.json().message).toBe('User deleted successfully');
    expect(await row(victim.userId)).toBeUndefined();
    expect((await inject(admin, 'GET', `/api/admin/users/${victim.userId}`)).statusCode).toBe(404);
    expect((await inject(admin, 'GET', `/api/upload/payment-receipt/${victim.userId}`)).statusCode).toBe(404);
    expect((await login(t.app, victim.email)).statusCode).toBe(401);

    const claim = await inject(claimant, 'POST', '/api/rider-numbers/assign', { riderNumber: number });
    expect(claim.statusCode, claim.body).toBe(200);
    expect(claim.json().data.riderNumber).toBe(number);

    const logged = await t.database.db.select().from(activities).where(eq(activities.type, 'user_deleted'));
    // The entry keeps the name snapshot; the email goes with the deleted account.
    expect(logged.some((a) => a.userName && a.details === `Rider #${number} is free again`)).toBe(true);
    expect(logged.some((a) => a.description.includes(victim.email))).toBe(false);
    // Deleting again is a plain 404.
    expect((await inject(admin, 'DELETE', `/api/admin/users/${victim.userId}`)).statusCode).toBe(404);
  });

  it('paginates and filters in SQL, with literal wildcards in search', async () => {
    const tag = `Zq${Date.now().toString(36)}`;
    const made = [];
    for (let i = 0; i < 5; i++) {
      made.push(await verifiedRider({ kitName: `${tag} RIDER ${i}`, category: i < 2 ? 'lakan' : 'bagani' }));
    }
    const page1 = await inject(admin, 'GET', `/api/admin/users?search=${tag}&limit=2&page=1`);
    const page3 = await inject(admin, 'GET', `/api/admin/users?search=${tag}&limit=2&page=3`);
    expect(page1.json().data.pagination).toEqual({ page: 1, limit: 2, total: 5, total_pages: 3 });
    expect(page1.json().data.users).toHaveLength(2);
    expect(page3.json().data.users).toHaveLength(1);
    const seen = new Set<string>();
    for (const p of [1, 2, 3]) {
      const res = await inject(admin, 'GET', `/api/admin/users?search=${tag}&limit=2&page=${p}`);
      for (const u of res.json().data.users) seen.add(u.id);
    }
    expect(seen.size).toBe(5);

    const lakan = await inject(admin, 'GET', `/api/admin/users?search=${tag}&category=lakan`);
    expect(lakan.json().data.pagination.total).toBe(2);
    const withNumber = await inject(admin, 'GET', `/api/admin/users?search=${tag}&riderNumber=with`);
    expect(withNumber.json().data.pagination.total).toBe(5);
    const without = await inject(admin, 'GET', `/api/admin/users?search=${tag}&riderNumber=without`);
    expect(without.json().data.pagination.total).toBe(0);
    const participants = await inject(admin, 'GET', `/api/admin/users?search=${tag}&role=participant&status=active`);
    expect(participants.json().data.pagination.total).toBe(5);
    const first = present(made[0]);
    const byEmail = await inject(admin, 'GET', `/api/admin/users?search=${encodeURIComponent(first.email)}`);
    expect(byEmail.json().data.users.map((u: { id: string }) => u.id)).toEqual([first.userId]);

    // '%' and '_' are matched literally, not as wildcards.
    const wildcard = await inject(admin, 'GET', '/api/admin/users?search=%25');
    expect(wildcard.statusCode).toBe(200);
    expect(wildcard.json().data.pagination.total).toBe(0);
    const underscore = await inject(admin, 'GET', '/api/admin/users?search=_');
    expect(underscore.json().data.pagination.total).toBe(0);

    for (const q of [
      'limit=0',
      'limit=101',
      'page=0',
      'page=abc',
      'role=king',
      'category=x',
      'riderNumber=maybe',
      'status=gone',
    ]) {
      const res = await inject(admin, 'GET', `/api/admin/users?${q}`);
      expect(res.statusCode, q).toBe(400);
    }
  });

  it('lists the masterlist: numbered riders only, verified first, with counters', async () => {
    const statsOf = async () => (await inject(admin, 'GET', '/api/admin/masterlist')).json().data.stats;
    const before = await statsOf();
    const tag = `Mq${Date.now().toString(36)}`;
    const pending = await registerRider(t.app, { kitName: `${tag} PENDING` });
    const verified = await verifiedRider({ kitName: `${tag} VERIFIED` });
    const res = await inject(marshall, 'GET', `/api/admin/masterlist?search=${tag}`);
    expect(res.statusCode, res.body).toBe(200);
    const { participants, pagination } = res.json().data;
    expect(participants.map((p: { id: string }) => p.id)).toEqual([verified.userId, pending.userId]);
    expect(participants[1]).toMatchObject({ verification_status: 'pending', has_payment_receipt: true });
    expect(pagination.total).toBe(2);
    const after = await statsOf();
    expect(after).toEqual({
      total_participants: before.total_participants + 2,
      verified: before.verified + 1,
      pending: before.pending + 1,
      with_rider_number: before.with_rider_number + 2,
      confirmed_participants: before.confirmed_participants + 1,
    });

    const byNumber = await inject(admin, 'GET', `/api/admin/masterlist?search=%23${verified.riderNumber}`);
    expect(byNumber.json().data.participants.map((p: { id: string }) => p.id)).toContain(verified.userId);
    // Staff accounts without rider numbers are not listed.
    const all = await inject(developer, 'GET', '/api/admin/masterlist?limit=100');
    expect(all.json().data.participants.every((p: { rider_number: number | null }) => p.rider_number !== null)).toBe(
      true,
    );
    const statuses = all.json().data.participants.map((p: { verification_status: string }) => p.verification_status);
    expect(statuses.indexOf('pending')).toBeGreaterThan(statuses.lastIndexOf('verified'));
    expect((await inject(officer, 'GET', '/api/admin/masterlist')).statusCode).toBe(403);
  });

  it('shows a user login history and the login activities list', async () => {
    const rider = await verifiedRider();
    await login(t.app, rider.email, 'Wrong-password-1');
    await login(t.app, rider.email);
    const res = await inject(admin, 'GET', `/api/admin/users/${rider.userId}/login-activity?limit=10`);
    expect(res.statusCode, res.body).toBe(200);
    const items = res.json().data.activities;
    expect(items.length).toBe(2);
    expect(items[0]).toMatchObject({ user_id: rider.userId, success: true });
    expect(items[1]).toMatchObject({ success: false, failure_reason: 'wrong_password' });

    const failures = await inject(
      admin,
      'GET',
      `/api/admin/login-activities?success=false&search=${encodeURIComponent(rider.email)}`,
    );
    expect(failures.statusCode, failures.body).toBe(200);
    expect(failures.json().data.activities).toHaveLength(1);
    const forAdmin = await inject(admin, 'GET', '/api/admin/login-activities?limit=100');
    const roles = forAdmin.json().data.activities.map((a: { role_name: string | null }) => a.role_name);
    expect(roles).not.toContain('developer');
    expect(forAdmin.json().data.activities.some((a: { user_id: string }) => a.user_id === admin2.userId)).toBe(false);
    const forDev = await inject(developer, 'GET', '/api/admin/login-activities?limit=100');
    expect(forDev.json().data.activities.map((a: { role_name: string | null }) => a.role_name)).toContain('developer');
    expect((await inject(marshall, 'GET', '/api/admin/login-activities')).statusCode).toBe(403);
  });
});
