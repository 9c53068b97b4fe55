import { and, eq } from 'drizzle-orm';
import { beforeAll, describe, expect, it } from 'vitest';
import { activities } from '../../db/schema/activities';
import { entries } from '../../db/schema/entries';
import { idCardPrints } from '../../db/schema/kit';
import { inEdition } from '../../lib/edition-of';
import { DB_KINDS, useTestApp } from '../../test/build-app';
import { type Actor, approvedRider, injectAs, registerRider } from '../../test/factories';
import { firstRow } from '../../test/present';

describe.each(DB_KINDS)('ID cards / QR stickers (%s)', (kind) => {
  const t = useTestApp(kind, 'admin', 'developer', 'marshall', 'officer');
  const { admin, developer, marshall, officer } = t.staff;
  let alpha: Actor;
  let bravo: Actor;
  let pending: Actor;

  const call = (actor: Actor, method: 'GET' | 'PUT' | 'POST', url: string, payload?: unknown) =>
    injectAs(t.app, actor, method, url, payload);

  const verifiedRider = (overrides: Record<string, string | undefined> = {}) => approvedRider(t.app, admin, overrides);
  const stats = async () => {
    const res = await call(admin, 'GET', '/api/admin/id-cards/stats');
    expect(res.statusCode, res.body).toBe(200);
    return res.json().data;
  };
  const search = async (query = '') => {
    const res = await call(admin, 'GET', `/api/admin/id-cards/search${query}`);
    expect(res.statusCode, res.body).toBe(200);
    return res.json().data;
  };

  beforeAll(async () => {
    alpha = await verifiedRider({ firstName: 'Alpha', kitName: 'ALPHA WOLF', motorcycleModel: 'Yamaha NMAX' });
    bravo = await verifiedRider({ firstName: 'Bravo', kitName: 'BRAVO BULL' });
    pending = await registerRider(t.app, { firstName: 'Pending' });
  });

  it('is for admins and developers only', async () => {
    for (const who of [marshall, officer, alpha]) {
      expect((await call(who, 'GET', '/api/admin/id-cards/search')).statusCode).toBe(403);
      expect((await call(who, 'GET', '/api/admin/id-cards/stats')).statusCode).toBe(403);
      expect((await call(who, 'GET', `/api/admin/id-cards/user/${alpha.userId}`)).statusCode).toBe(403);
      expect((await call(who, 'POST', `/api/admin/id-cards/mark-printed/${alpha.userId}`, {})).statusCode).toBe(403);
      expect(
        (await call(who, 'PUT', `/api/admin/id-cards/medical-info/${alpha.userId}`, { allergies: 'x' })).statusCode,
      ).toBe(403);
    }
    expect((await call(developer, 'GET', '/api/admin/id-cards/stats')).statusCode).toBe(200);
  });

  it('returns the sticker data of a verified rider, and refuses others clearly', async () => {
    const res = await call(admin, 'GET', `/api/admin/id-cards/user/${alpha.userId}`);
    expect(res.statusCode, res.body).toBe(200);
    const stored = firstRow(
      await t.database.db
        .select({ riderCode: entries.riderCode })
        .from(entries)
        .where(and(eq(entries.userId, alpha.userId), inEdition(entries.editionId))),
    );
    expect(res.json()).toMatchObject({
      success: true,
      data: {
        id: alpha.userId,
        first_name: 'Alpha',
        kit_name: 'ALPHA WOLF',
        rider_code: stored.riderCode,
        motorcycle_model: 'Yamaha NMAX',
        category: 'bagani',
        emergency_contact_name: 'Amihan Rider',
        emergency_contact_number: '09181234567',
        is_printed: false,
        print_count: 0,
        printed_at: null,
      },
    });
    expect(res.json().data.rider_code).toMatch(/^RC-/);
    // No secrets or private fields beyond the sticker's.
    expect(res.body).not.toMatch(/password|verification_code/i);

    const missing = await call(admin, 'GET', '/api/admin/id-cards/user/00000000-0000-4000-8000-000000000000');
    expect(missing.statusCode).toBe(404);
    expect(missing.json()).toEqual({ success: false, message: 'User not found', code: 'USER_NOT_FOUND' });
    const notVerified = await call(admin, 'GET', `/api/admin/id-cards/user/${pending.userId}`);
    expect(notVerified.statusCode).toBe(409);
    expect(notVerified.json().message).toMatch(/not verified yet/);
    expect((await call(admin, 'GET', '/api/admin/id-cards/user/abc')).statusCode).toBe(400);
    // Visibility: an admin cannot look up a developer's account at all.
    expect((await call(admin, 'GET', `/api/admin/id-cards/user/${developer.userId}`)).statusCode).toBe(404);
  });

  it('marks printed: each print adds a row, the count and the last date follow, and it is logged', async () => {
    const before = await stats();
    const first = await call(admin, 'POST', `/api/admin/id-cards/mark-printed/${alpha.userId}`, {});
    expect(first.statusCode, first.body).toBe(200);
    expect(first.json()).toMatchObject({
      success: true,
      message: 'ID marked as printed successfully',
      data: { print_count: 1 },
    });
    const second = await call(developer, 'POST', `/api/admin/id-cards/mark-printed/${alpha.userId}`, {
      notes: 'Smudged',
    });
    expect(second.json().data.print_count).toBe(2);
    const rows = await t.database.db.select().from(idCardPrints).where(eq(idCardPrints.userId, alpha.userId));
    expect(rows).toHaveLength(2);
    expect(rows.map((r) => r.printedBy).sort()).toEqual([admin.userId, developer.userId].sort());
    expect(rows.find((r) => r.printedBy === developer.userId)?.notes).toBe('Smudged');

    const detail = (await call(admin, 'GET', `/api/admin/id-cards/user/${alpha.userId}`)).json().data;
    expect(detail).toMatchObject({ is_printed: true, print_count: 2 });
    expect(detail.printed_at).toBe(second.json().data.printed_at);

    const logged = await t.database.db
      .select()
      .from(activities)
      .where(and(eq(activities.type, 'id_card_printed'), eq(activities.userId, alpha.userId)));
    expect(logged).toHaveLength(2);
    expect(logged.map((l) => l.description).sort()[1]).toMatch(/reprinted .*print #2/);

    expect(await stats()).toEqual({
      total_users: before.total_users,
      printed_count: before.printed_count + 1,
      not_printed_count: before.not_printed_count - 1,
      total_prints: before.total_prints + 2,
    });
    const refused = await call(admin, 'POST', `/api/admin/id-cards/mark-printed/${pending.userId}`, {});
    expect(refused.statusCode).toBe(409);
    expect(await t.database.db.select().from(idCardPrints).where(eq(idCardPrints.userId, pending.userId))).toHaveLength(
      0,
    );
    expect(
      (await call(admin, 'POST', `/api/admin/id-cards/mark-printed/${bravo.userId}`, { notes: 5 })).statusCode,
    ).toBe(400);
  });

  it('searches riders with print status, filters printed/not printed and pages', async () => {
    const all = await search();
    expect(all.pagination).toMatchObject({ page: 1, limit: 20, total: 2 });
    const ids = all.users.map((u: { id: string }) => u.id);
    expect(ids).toEqual(expect.arrayContaining([alpha.userId, bravo.userId]));
    expect(ids).not.toContain(pending.userId);
    expect(ids).not.toContain(admin.userId);
    const printed = await search('?isPrinted=true');
    expect(printed.users.map((u: { id: string }) => u.id)).toEqual([alpha.userId]);
    expect(printed.users[0]).toMatchObject({ is_printed: true, print_count: 2, kit_name: 'ALPHA WOLF' });
    const notPrinted = await search('?isPrinted=false');
    expect(notPrinted.users.map((u: { id: string }) => u.id)).toEqual([bravo.userId]);
    expect(notPrinted.users[0]).toMatchObject({ is_printed: false, print_count: 0, printed_at: null });
    expect((await search('?search=bravo%20bull')).users).toHaveLength(1);
    expect((await search(`?search=${alpha.email}`)).users).toHaveLength(1);
    expect((await search('?search=nobody-at-all')).users).toHaveLength(0);
    const p1 = await search('?limit=1&page=1');
    const p2 = await search('?limit=1&page=2');
    expect(p1.pagination).toEqual({ page: 1, limit: 1, total: 2, total_pages: 2 });
    expect(p1.users[0].id).not.toBe(p2.users[0].id);
    for (const bad of ['?isPrinted=yes', '?limit=0', '?page=-1']) {
      expect((await call(admin, 'GET', `/api/admin/id-cards/search${bad}`)).statusCode, bad).toBe(400);
    }
  });

  it('updates medical information, logs which fields changed, and refuses bad input', async () => {
    const res = await call(admin, 'PUT', `/api/admin/id-cards/medical-info/${bravo.userId}`, {
      blood_type: 'O+',
      allergies: 'Penicillin',
    });
    expect(res.statusCode, res.body).toBe(200);
    expect(res.json().data).toEqual({
      id: bravo.userId,
      blood_type: 'O+',
      allergies: 'Penicillin',
      medical_conditions: null,
    });
    const cleared = await call(admin, 'PUT', `/api/admin/id-cards/medical-info/${bravo.userId}`, { allergies: '' });
    expect(cleared.json().data).toMatchObject({ blood_type: 'O+', allergies: null });
    const detail = (await call(admin, 'GET', `/api/admin/id-cards/user/${bravo.userId}`)).json().data;
    expect(detail.blood_type).toBe('O+');
    const logged = await t.database.db
      .select()
      .from(activities)
      .where(and(eq(activities.type, 'medical_info_updated'), eq(activities.userId, bravo.userId)));
    expect(logged).toHaveLength(2);
    // What the rider is allergic to is not copied into the log.
    expect(logged.map((l) => `${l.description} ${l.details}`).join(' ')).not.toMatch(/Penicillin/);

    for (const [body, message] of [
      [{}, /at least one/],
      [{ blood_type: 'Z' }, /blood_type must be one of/],
      [{ allergies: 'x'.repeat(501) }, /allergies must be at most 500/],
    ] as const) {
      const bad = await call(admin, 'PUT', `/api/admin/id-cards/medical-info/${bravo.userId}`, body);
      expect(bad.statusCode).toBe(400);
      expect(bad.json().message).toMatch(message);
    }
    expect(
      (await call(admin, 'PUT', `/api/admin/id-cards/medical-info/${developer.userId}`, { blood_type: 'A+' }))
        .statusCode,
    ).toBe(404);
  });
});
