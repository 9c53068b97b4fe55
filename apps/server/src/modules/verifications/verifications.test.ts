import { eq } from 'drizzle-orm';
import { describe, expect, it } from 'vitest';
import { activities } from '../../db/schema/activities';
import { verificationHistory } from '../../db/schema/entries';
import { DB_KINDS, useTestApp } from '../../test/build-app';
import { type Actor, bearer, registerRider } from '../../test/factories';

describe.each(DB_KINDS)('verifications (%s)', (kind) => {
  const t = useTestApp(kind, 'admin', 'marshall', 'officer', 'developer');
  const { admin, marshall, officer, developer } = t.staff;

  const inject = (actor: Actor, method: 'GET' | 'POST', url: string, payload?: object) =>
    t.app.inject({ method, url, headers: bearer(actor.token), ...(payload ? { payload } : {}) });
  const stats = async () => {
    const res = await inject(marshall, 'GET', '/api/admin/verifications/stats');
    expect(res.statusCode, res.body).toBe(200);
    return res.json().data as { pending: number; approved: number; rejected: number; total: number };
  };
  const historyFor = (code: string) =>
    t.database.db.select().from(verificationHistory).where(eq(verificationHistory.verificationCode, code));

  it('approves a pending rider: rider code, verified profile, history, activity and stats', async () => {
    const before = await stats();
    const rider = await registerRider(t.app, { kitName: 'APPROVE ME' });
    expect(await stats()).toEqual({ ...before, pending: before.pending + 1, total: before.total + 1 });

    const pending = await inject(marshall, 'GET', `/api/admin/verifications/pending?search=${rider.verificationCode}`);
    expect(pending.statusCode, pending.body).toBe(200);
    expect(pending.json().data).toHaveLength(1);
    expect(pending.json().data[0]).toMatchObject({
      user_id: rider.userId,
      kit_name: 'APPROVE ME',
      verification_code: rider.verificationCode,
      payment_method: 'gcash',
      payment_amount: 3000,
      has_payment_receipt: true,
    });
    expect(pending.json().pagination).toMatchObject({ page: 1, limit: 20, total: 1, total_pages: 1 });

    const receipt = await t.app.inject({
      method: 'GET',
      url: `/api/upload/payment-receipt/${rider.userId}`,
      headers: bearer(marshall.token),
    });
    expect(receipt.statusCode).toBe(200);

    const res = await inject(marshall, 'POST', '/api/admin/verifications/verify', {
      verification_code: rider.verificationCode,
      action: 'verified',
      notes: 'GCash ref checked',
    });
    expect(res.statusCode, res.body).toBe(200);
    expect(res.json().message).toBe('User approved successfully!');
    const riderCode = res.json().data.rider_code;
    expect(riderCode).toMatch(/^RC-[0-9A-HJKMNP-TV-Z]{12}$/);

    const profile = await t.app.inject({ method: 'GET', url: '/api/auth/profile', headers: bearer(rider.token) });
    expect(profile.json().data.user).toMatchObject({ verificationStatus: 'verified', riderCode });

    const [entry] = await historyFor(rider.verificationCode);
    expect(entry).toMatchObject({
      action: 'verified',
      adminId: marshall.userId,
      notes: 'GCash ref checked',
      kitName: 'APPROVE ME',
    });
    const listed = await inject(admin, 'GET', '/api/admin/verifications/history?limit=5');
    expect(listed.json().data[0]).toMatchObject({
      action: 'verified',
      verification_code: rider.verificationCode,
      admin_first_name: 'Marshall',
      notes: 'GCash ref checked',
      kit_name: 'APPROVE ME',
    });
    const acts = await t.database.db.select().from(activities).where(eq(activities.type, 'verification'));
    expect(acts.some((a) => a.userId === rider.userId)).toBe(true);
    expect(await stats()).toEqual({ ...before, approved: before.approved + 1, total: before.total + 1 });

    const again = await inject(admin, 'POST', '/api/admin/verifications/verify', {
      verification_code: rider.verificationCode,
      action: 'rejected',
    });
    expect(again.statusCode).toBe(409);
    expect(again.json().message).toMatch(/already verified/);
    expect(await historyFor(rider.verificationCode)).toHaveLength(1);
  });

  it('rejects, keeps counts consistent and refuses unknown codes and bad actions', async () => {
    const before = await stats();
    const a = await registerRider(t.app);
    const b = await registerRider(t.app);
    const rej = await inject(admin, 'POST', '/api/admin/verifications/verify', {
      verification_code: a.verificationCode,
      action: 'rejected',
      notes: 'Amount does not match',
    });
    expect(rej.statusCode, rej.body).toBe(200);
    expect(rej.json().message).toBe('User rejected successfully!');
    expect(rej.json().data.rider_code).toBeNull();
    const profile = await t.app.inject({ method: 'GET', url: '/api/auth/profile', headers: bearer(a.token) });
    expect(profile.json().data.user).toMatchObject({ verificationStatus: 'rejected', riderCode: null });

    const after = await stats();
    expect(after).toEqual({
      pending: before.pending + 1,
      approved: before.approved,
      rejected: before.rejected + 1,
      total: before.total + 2,
    });
    expect(after.pending + after.approved + after.rejected).toBe(after.total);
    const pendingList = await inject(marshall, 'GET', '/api/admin/verifications/pending?limit=100');
    expect(pendingList.json().pagination.total).toBe(after.pending);
    expect(pendingList.json().data.map((p: { user_id: string }) => p.user_id)).toContain(b.userId);
    expect(pendingList.json().data.map((p: { user_id: string }) => p.user_id)).not.toContain(a.userId);

    const unknown = await inject(admin, 'POST', '/api/admin/verifications/verify', {
      verification_code: 'WR-NOPE0000',
      action: 'verified',
    });
    expect(unknown.statusCode).toBe(404);
    const badAction = await inject(admin, 'POST', '/api/admin/verifications/verify', {
      verification_code: b.verificationCode,
      action: 'approved',
    });
    expect(badAction.statusCode).toBe(400);
    expect(badAction.json().message).toBe("action must be 'verified' or 'rejected'");
    const byOfficer = await inject(officer, 'POST', '/api/admin/verifications/verify', {
      verification_code: b.verificationCode,
      action: 'verified',
    });
    expect(byOfficer.statusCode).toBe(403);
    expect(await stats()).toEqual(after);
  });

  it('lets two concurrent approvals produce one decision and one history row', async () => {
    const rider = await registerRider(t.app);
    const body = { verification_code: rider.verificationCode, action: 'verified' as const };
    const results = await Promise.all([
      inject(admin, 'POST', '/api/admin/verifications/verify', body),
      inject(marshall, 'POST', '/api/admin/verifications/verify', body),
      inject(developer, 'POST', '/api/admin/verifications/verify', body),
    ]);
    const codes = results.map((r) => r.statusCode).sort();
    expect(codes).toEqual([200, 409, 409]);
    expect(await historyFor(rider.verificationCode)).toHaveLength(1);
  });

  it('lets only a developer undo a verification, returning the rider to pending', async () => {
    const rider = await registerRider(t.app);
    await inject(admin, 'POST', '/api/admin/verifications/verify', {
      verification_code: rider.verificationCode,
      action: 'verified',
    });
    const first = await t.app.inject({ method: 'GET', url: '/api/auth/profile', headers: bearer(rider.token) });
    const riderCode = first.json().data.user.riderCode;
    const before = await stats();
    for (const actor of [admin, marshall, officer]) {
      const res = await inject(actor, 'POST', `/api/admin/verifications/undo/${rider.userId}`);
      expect(res.statusCode).toBe(403);
    }
    const undo = await inject(developer, 'POST', `/api/admin/verifications/undo/${rider.userId}`);
    expect(undo.statusCode, undo.body).toBe(200);
    expect(undo.json().data.status).toBe('pending');
    const profile = await t.app.inject({ method: 'GET', url: '/api/auth/profile', headers: bearer(rider.token) });
    expect(profile.json().data.user).toMatchObject({ verificationStatus: 'pending', riderCode: null });
    expect(await stats()).toEqual({ ...before, pending: before.pending + 1, approved: before.approved - 1 });
    const entries = await historyFor(rider.verificationCode);
    expect(entries.map((e) => e.action).sort()).toEqual(['undone', 'verified']);
    expect(entries.find((e) => e.action === 'undone')?.adminId).toBe(developer.userId);

    const twice = await inject(developer, 'POST', `/api/admin/verifications/undo/${rider.userId}`);
    expect(twice.statusCode).toBe(409);
    const missing = await inject(
      developer,
      'POST',
      '/api/admin/verifications/undo/00000000-0000-4000-8000-000000000000',
    );
    expect(missing.statusCode).toBe(404);
    const staffUndo = await inject(developer, 'POST', `/api/admin/verifications/undo/${admin.userId}`);
    expect(staffUndo.statusCode).toBe(409);

    // Approving again keeps the rider code made the first time.
    const again = await inject(admin, 'POST', '/api/admin/verifications/verify', {
      verification_code: rider.verificationCode,
      action: 'verified',
    });
    expect(again.json().data.rider_code).toBe(riderCode);
  });

  it('paginates the pending queue and the history in SQL', async () => {
    const tag = `Pq${Date.now().toString(36)}`;
    for (let i = 0; i < 3; i++) await registerRider(t.app, { kitName: `${tag} ${i}` });
    const p1 = await inject(marshall, 'GET', `/api/admin/verifications/pending?search=${tag}&limit=2&page=1`);
    const p2 = await inject(marshall, 'GET', `/api/admin/verifications/pending?search=${tag}&limit=2&page=2`);
    expect(p1.json().pagination).toEqual({ page: 1, limit: 2, total: 3, total_pages: 2 });
    expect(p1.json().data).toHaveLength(2);
    expect(p2.json().data).toHaveLength(1);
    const h = await inject(admin, 'GET', '/api/admin/verifications/history?limit=2&page=1');
    expect(h.json().data).toHaveLength(2);
    expect(h.json().pagination.total).toBeGreaterThanOrEqual(5);
    const bad = await inject(admin, 'GET', '/api/admin/verifications/history?limit=1000');
    expect(bad.statusCode).toBe(400);
  });
});
