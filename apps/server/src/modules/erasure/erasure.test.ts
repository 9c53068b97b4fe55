// Erasure on request (DESIGN.md §12): the rider asks (one pending at a time, staff may not),
// withdraws while pending; staff with delete_user approve (the account is deleted in the same
// transaction, the request stays as a line naming nobody) or refuse with a reason the rider
// reads, and may then be asked again. Nothing else may decide, nor decide twice.
import { randomUUID } from 'node:crypto';
import { and, count, eq } from 'drizzle-orm';
import { describe, expect, it } from 'vitest';
import { activities } from '../../db/schema/activities';
import { erasureRequests } from '../../db/schema/privacy';
import { users } from '../../db/schema/users';
import { DB_KINDS, useTestApp } from '../../test/build-app';
import { type Actor, approvedRider, injectAs, login, registerRider } from '../../test/factories';

describe.each(DB_KINDS)('erasure on request (%s)', (kind) => {
  const t = useTestApp(kind, 'admin', 'developer', 'marshall', 'officer');
  const { admin, developer, marshall, officer } = t.staff;

  const ask = (rider: Actor, body: unknown = {}) => injectAs(t.app, rider, 'POST', '/api/my/erasure-request', body);
  const mine = async (rider: Actor) => {
    const res = await injectAs(t.app, rider, 'GET', '/api/my/erasure-request');
    expect(res.statusCode, res.body).toBe(200);
    return res.json().data;
  };
  const decide = (actor: Actor, id: string, decision: 'approve' | 'refuse', body: unknown) =>
    injectAs(t.app, actor, 'POST', `/api/admin/erasure-requests/${id}/${decision}`, body);
  const rowOf = async (id: string) =>
    (await t.database.db.select().from(erasureRequests).where(eq(erasureRequests.id, id)))[0];
  const requestsOf = async (userId: string) =>
    Number(
      (await t.database.db.select({ n: count() }).from(erasureRequests).where(eq(erasureRequests.userId, userId)))[0]
        ?.n ?? 0,
    );
  const listed = async (actor: Actor, status: string) => {
    const res = await injectAs(t.app, actor, 'GET', `/api/admin/erasure-requests?status=${status}&limit=100`);
    expect(res.statusCode, res.body).toBe(200);
    return res.json().data.requests as Array<{ id: string; rider: { id: string; email: string } | null }>;
  };

  async function pendingRequest(note?: string) {
    const rider = await approvedRider(t.app, admin);
    const res = await ask(rider, note === undefined ? {} : { note });
    expect(res.statusCode, res.body).toBe(201);
    return { rider, id: res.json().data.id as string };
  }

  it('takes a request, pending, one at a time; the rider may withdraw it', async () => {
    const rider = await registerRider(t.app);
    expect(await mine(rider)).toBeNull();
    const first = await ask(rider, { note: '  Please remove everything.  ' });
    expect(first.statusCode, first.body).toBe(201);
    expect(first.json().data).toMatchObject({ status: 'pending', note: 'Please remove everything.', reason: null });
    expect(await mine(rider)).toMatchObject({ id: first.json().data.id, status: 'pending' });

    const second = await ask(rider, { note: 'again' });
    expect(second.statusCode).toBe(409);
    expect(second.json()).toMatchObject({ success: false, code: 'ERASURE_PENDING' });
    expect(second.json().message).toMatch(/already asked/);
    expect(await requestsOf(rider.userId)).toBe(1);

    const withdrawn = await injectAs(t.app, rider, 'DELETE', '/api/my/erasure-request');
    expect(withdrawn.statusCode, withdrawn.body).toBe(200);
    expect(await mine(rider)).toBeNull();
    expect((await injectAs(t.app, rider, 'DELETE', '/api/my/erasure-request')).statusCode).toBe(404);
    // An empty note is none.
    const again = await ask(rider, { note: '   ' });
    expect(again.statusCode, again.body).toBe(201);
    expect(again.json().data.note).toBeNull();
  });

  it('refuses staff accounts', async () => {
    for (const actor of [admin, marshall]) {
      const res = await ask(actor);
      expect(res.statusCode).toBe(409);
      expect(res.json()).toMatchObject({
        code: 'STAFF_ACCOUNT',
        message: 'Staff accounts are removed by an administrator',
      });
      expect(await requestsOf(actor.userId)).toBe(0);
    }
  });

  it('approving erases the account in the same step and leaves a line naming nobody', async () => {
    const { rider, id } = await pendingRequest(`My note ${randomUUID()}`);
    const listedBefore = (await listed(admin, 'pending')).find((r) => r.id === id);
    expect(listedBefore?.rider).toMatchObject({ id: rider.userId, email: rider.email });

    const res = await decide(admin, id, 'approve', { reason: 'Asked in writing; nothing to keep' });
    expect(res.statusCode, res.body).toBe(200);
    const [staffRow] = await t.database.db
      .select({ firstName: users.firstName, lastName: users.lastName })
      .from(users)
      .where(eq(users.id, admin.userId));
    const staffName = `${staffRow?.firstName ?? ''} ${staffRow?.lastName ?? ''}`.trim();
    expect(res.json().data).toMatchObject({
      id,
      status: 'approved',
      rider: null,
      note: null,
      decidedByName: staffName,
      reason: 'Asked in writing; nothing to keep',
    });

    // The account is gone: no sign-in, no session, not in the console.
    expect((await login(t.app, rider.email)).statusCode).not.toBe(200);
    expect((await injectAs(t.app, rider, 'GET', '/api/my/erasure-request')).statusCode).toBe(401);
    expect((await injectAs(t.app, admin, 'GET', `/api/admin/users/${rider.userId}`)).statusCode).toBe(404);

    // The request remains, as the line saying it happened.
    expect(await rowOf(id)).toMatchObject({
      userId: null,
      note: null,
      status: 'approved',
      decidedBy: admin.userId,
      decidedByName: staffName,
      reason: 'Asked in writing; nothing to keep',
    });
    expect((await listed(admin, 'approved')).find((r) => r.id === id)?.rider).toBeNull();
    const lines = await t.database.db
      .select({ type: activities.type, userId: activities.userId, description: activities.description })
      .from(activities)
      .where(and(eq(activities.type, 'erasure_decided'), eq(activities.actorId, admin.userId)));
    expect(lines.some((l) => l.description.includes('approved the erasure request') && l.userId === null)).toBe(true);
    expect(JSON.stringify(lines)).not.toContain(rider.email);

    // Decided: a second decision changes nothing.
    const twice = await decide(admin, id, 'refuse', { reason: 'Changed my mind' });
    expect(twice.statusCode).toBe(409);
    expect(twice.json().code).toBe('ERASURE_ALREADY_DECIDED');
    expect((await rowOf(id))?.status).toBe('approved');
  });

  it('a refusal reaches the rider with its reason, and the rider may ask again', async () => {
    const { rider, id } = await pendingRequest('Please');
    const res = await decide(developer, id, 'refuse', { reason: 'Your receipt dispute is still open' });
    expect(res.statusCode, res.body).toBe(200);
    expect(res.json().data).toMatchObject({ status: 'refused', rider: { id: rider.userId } });
    expect(await mine(rider)).toMatchObject({
      id,
      status: 'refused',
      reason: 'Your receipt dispute is still open',
      note: 'Please',
    });
    expect((await decide(admin, id, 'approve', { reason: 'On second thought' })).statusCode).toBe(409);
    expect((await injectAs(t.app, admin, 'GET', `/api/admin/users/${rider.userId}`)).statusCode).toBe(200);

    const again = await ask(rider);
    expect(again.statusCode, again.body).toBe(201);
    expect(await mine(rider)).toMatchObject({ id: again.json().data.id, status: 'pending' });
    expect((await listed(admin, 'decided')).some((r) => r.id === id)).toBe(true);
    expect((await listed(admin, 'pending')).some((r) => r.id === id)).toBe(false);
  });

  it('is decided by delete_user only', async () => {
    const { rider, id } = await pendingRequest();
    for (const actor of [marshall, officer, rider]) {
      expect((await injectAs(t.app, actor, 'GET', '/api/admin/erasure-requests')).statusCode).toBe(403);
      expect((await decide(actor, id, 'approve', { reason: 'Because' })).statusCode).toBe(403);
      expect((await decide(actor, id, 'refuse', { reason: 'Because' })).statusCode).toBe(403);
    }
    expect(await rowOf(id)).toMatchObject({ status: 'pending', userId: rider.userId });
  });

  it('refuses bad bodies with 400 and changes nothing', async () => {
    const { rider, id } = await pendingRequest('keep me');
    const bad = [{}, { reason: '' }, { reason: '  ab  ' }, { reason: 'x'.repeat(1001) }, { reason: 42 }];
    for (const body of bad) {
      for (const decision of ['approve', 'refuse'] as const) {
        const res = await decide(admin, id, decision, body);
        expect(res.statusCode, JSON.stringify(body)).toBe(400);
        expect(res.json().success).toBe(false);
      }
    }
    expect(await rowOf(id)).toMatchObject({ status: 'pending', userId: rider.userId, note: 'keep me', reason: null });
    expect((await injectAs(t.app, admin, 'GET', `/api/admin/users/${rider.userId}`)).statusCode).toBe(200);

    const other = await registerRider(t.app);
    for (const body of [{ note: 'x'.repeat(1001) }, { note: 7 }, { note: ['a'] }]) {
      expect((await ask(other, body)).statusCode, JSON.stringify(body)).toBe(400);
    }
    expect(await requestsOf(other.userId)).toBe(0);
    expect((await decide(admin, randomUUID(), 'approve', { reason: 'Nobody' })).statusCode).toBe(404);
    expect((await injectAs(t.app, admin, 'GET', '/api/admin/erasure-requests?status=gone')).statusCode).toBe(400);
  });

  it('a staff member may not act on an account they cannot see', async () => {
    const { rider, id } = await pendingRequest();
    // The rider has since become an admin: hidden from other admins, seen by developers.
    await t.database.db.update(users).set({ role: 'admin' }).where(eq(users.id, rider.userId));
    expect((await listed(admin, 'pending')).some((r) => r.id === id)).toBe(false);
    expect((await decide(admin, id, 'approve', { reason: 'Hidden' })).statusCode).toBe(404);
    expect(await rowOf(id)).toMatchObject({ status: 'pending', userId: rider.userId });
    expect((await listed(developer, 'pending')).some((r) => r.id === id)).toBe(true);
  });

  it('a deletion by staff clears the note of the rider’s request', async () => {
    const { rider, id } = await pendingRequest('Private words');
    const deleted = await injectAs(t.app, admin, 'DELETE', `/api/admin/users/${rider.userId}`);
    expect(deleted.statusCode, deleted.body).toBe(200);
    expect(await rowOf(id)).toMatchObject({ userId: null, note: null, status: 'pending' });
    // What was asked is done: approving it erases nothing more, and says so.
    const res = await decide(admin, id, 'approve', { reason: 'Already deleted' });
    expect(res.statusCode, res.body).toBe(200);
    expect(res.json().data).toMatchObject({ status: 'approved', rider: null });
  });
});
