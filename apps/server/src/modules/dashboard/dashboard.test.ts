import { describe, expect, it } from 'vitest';
import { fires } from '../../db/schema/social';
import { DB_KINDS, useTestApp } from '../../test/build-app';
import { type Actor, bearer, registerRider } from '../../test/factories';

describe.each(DB_KINDS)('dashboard stats (%s)', (kind) => {
  const t = useTestApp(kind, 'admin', 'officer');
  const { admin, officer } = t.staff;

  const read = async (actor: Actor) => {
    const res = await t.app.inject({ method: 'GET', url: '/api/admin/dashboard/stats', headers: bearer(actor.token) });
    expect(res.statusCode, res.body).toBe(200);
    return res.json().data;
  };

  it('counts warriors, active users, bagani riders and fires from real data', async () => {
    expect(await read(officer)).toEqual({ total_warriors: 0, active_users: 0, bagani_warriors: 0, total_fires: 0 });
    const a = await registerRider(t.app, { category: 'bagani' });
    const b = await registerRider(t.app, { category: 'bagani-obr' });
    await registerRider(t.app, { category: 'lakan' });
    await t.database.db.insert(fires).values([
      { giverId: a.userId, receiverId: b.userId },
      { giverId: b.userId, receiverId: a.userId },
    ]);
    const off = await t.app.inject({
      method: 'PATCH',
      url: `/api/admin/users/${b.userId}/status`,
      headers: bearer(admin.token),
      payload: { status: 'inactive' },
    });
    expect(off.statusCode).toBe(200);
    // Staff accounts are not warriors.
    expect(await read(admin)).toEqual({ total_warriors: 3, active_users: 2, bagani_warriors: 2, total_fires: 2 });
    const anon = await t.app.inject({ method: 'GET', url: '/api/admin/dashboard/stats' });
    expect(anon.statusCode).toBe(401);
    const rider = await t.app.inject({ method: 'GET', url: '/api/admin/dashboard/stats', headers: bearer(a.token) });
    expect(rider.statusCode).toBe(403);
  });
});
