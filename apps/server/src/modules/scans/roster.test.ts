import { sql } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { buildTestApp, DB_KINDS, type TestApp } from '../../test/build-app';
import { type Actor, approvedRider, bearer, registerRider, staff } from '../../test/factories';

interface RosterRider {
  id: string;
  riderCode: string | null;
  riderNumber: number | null;
  category: string | null;
  route: string | null;
  status: string;
  photoUrl: string | null;
}

describe.each(DB_KINDS)('scan roster (%s)', (kind) => {
  let t: TestApp;
  let admin: Actor;
  let marshall: Actor;

  const roster = async (since?: string) => {
    const res = await t.app.inject({
      method: 'GET',
      url: `/api/admin/scan-roster${since === undefined ? '' : `?since=${encodeURIComponent(since)}`}`,
      headers: bearer(marshall.token),
    });
    expect(res.statusCode, res.body).toBe(200);
    return res.json().data as { riders: RosterRider[]; removed: string[]; cursor: string };
  };

  /** Everything so far happened "an hour ago", so a fresh cursor sees no change until one is made. */
  const ageEverything = async () => {
    for (const [table, column] of [
      ['users', 'updated_at'],
      ['entries', 'updated_at'],
      ['files', 'created_at'],
      ['activities', 'created_at'],
    ]) {
      await t.database.db.execute(sql.raw(`update ${table} set ${column} = now() - interval '1 hour'`));
    }
  };

  beforeAll(async () => {
    t = await buildTestApp(kind);
    admin = await staff(t.app, t.database.db, 'admin');
    marshall = await staff(t.app, t.database.db, 'marshall');
  });
  afterAll(() => t?.close());

  it('lists verified riders with code, route and a small cached photo; leaves out pending riders and staff', async () => {
    const magani = await approvedRider(t.app, admin, { category: 'lakambini', gender: 'male' });
    const pending = await registerRider(t.app);
    const { riders, removed, cursor } = await roster();
    expect(removed).toEqual([]);
    expect(cursor).toMatch(/^r1\.\d+$/);
    const mine = riders.find((r) => r.id === magani.userId);
    expect(mine).toMatchObject({
      riderNumber: magani.riderNumber,
      category: 'magani',
      route: 'lakambini',
      status: 'verified',
    });
    expect(mine?.riderCode).toBeTruthy();
    expect(riders.some((r) => r.id === pending.userId || r.id === admin.userId || r.id === marshall.userId)).toBe(
      false,
    );

    const photo = await t.app.inject({ method: 'GET', url: mine?.photoUrl as string });
    expect(photo.statusCode).toBe(200);
    expect(photo.headers['content-type']).toBe('image/jpeg');
    const again = await t.app.inject({
      method: 'GET',
      url: mine?.photoUrl as string,
      headers: { 'if-none-match': photo.headers.etag as string },
    });
    expect(again.statusCode).toBe(304);
  });

  it('sends only what changed since the cursor, and the riders who left', async () => {
    const changed = await approvedRider(t.app, admin);
    const deactivated = await approvedRider(t.app, admin);
    const deleted = await approvedRider(t.app, admin);
    const quiet = await approvedRider(t.app, admin);
    await ageEverything();
    const { cursor } = await roster();
    const nothing = await roster(cursor);
    expect(nothing.riders).toEqual([]);
    expect(nothing.removed).toEqual([]);

    const as = bearer(admin.token);
    const edit = await t.app.inject({
      method: 'PATCH',
      url: `/api/admin/users/${changed.userId}`,
      headers: as,
      payload: { kit_name: 'NEW KIT NAME' },
    });
    expect(edit.statusCode, edit.body).toBe(200);
    const off = await t.app.inject({
      method: 'PATCH',
      url: `/api/admin/users/${deactivated.userId}/status`,
      headers: as,
      payload: { status: 'inactive' },
    });
    expect(off.statusCode, off.body).toBe(200);
    const del = await t.app.inject({ method: 'DELETE', url: `/api/admin/users/${deleted.userId}`, headers: as });
    expect(del.statusCode, del.body).toBe(200);
    const newcomer = await approvedRider(t.app, admin);

    const delta = await roster(cursor);
    expect(delta.riders.map((r) => r.id).sort()).toEqual([changed.userId, newcomer.userId].sort());
    expect(delta.riders.find((r) => r.id === changed.userId)).toMatchObject({ riderNumber: changed.riderNumber });
    expect(delta.removed).toEqual(expect.arrayContaining([deactivated.userId, deleted.userId]));
    expect(delta.removed).not.toContain(quiet.userId);
    expect(delta.riders.some((r) => r.id === quiet.userId)).toBe(false);
  });

  it('refuses a cursor it did not make', async () => {
    const res = await t.app.inject({
      method: 'GET',
      url: '/api/admin/scan-roster?since=yesterday',
      headers: bearer(marshall.token),
    });
    expect(res.statusCode).toBe(400);
    expect(res.json().message).toBe('since is not a valid cursor');
  });
});
