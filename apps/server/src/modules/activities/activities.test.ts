import { sql } from 'drizzle-orm';
import { describe, expect, it } from 'vitest';
import { activities } from '../../db/schema/activities';
import { DB_KINDS, useTestApp } from '../../test/build-app';
import { type Actor, approvedRider, bearer, registerRider, staff } from '../../test/factories';

describe.each(DB_KINDS)('recent activity feed (%s)', (kind) => {
  const t = useTestApp(kind, 'admin', 'marshall', 'developer');
  const { admin, marshall, developer } = t.staff;

  const feed = (actor: Actor, query = '') =>
    t.app.inject({ method: 'GET', url: `/api/admin/activities${query}`, headers: bearer(actor.token) });

  it('lists what happened, newest first, in the feed shape', async () => {
    await approvedRider(t.app, admin, { kitName: 'FEED RIDER', firstName: 'Tala', lastName: 'Alonto' });
    const res = await feed(marshall);
    expect(res.statusCode, res.body).toBe(200);
    const [latest] = res.json().data.activities;
    expect(latest).toMatchObject({
      type: 'verification',
      priority: 'normal',
      user: 'FEED RIDER',
      fullName: 'Tala Alonto',
    });
    expect(latest.details).toContain('approved the payment of Tala Alonto');
    expect(new Date(latest.timestamp).getTime()).toBeGreaterThan(Date.now() - 60_000);
    const paged = await feed(marshall, '?limit=1&offset=1');
    expect(paged.json().data.activities).toHaveLength(1);
    expect(paged.json().data.activities[0].id).not.toBe(latest.id);
    expect((await feed(marshall, '?limit=0')).statusCode).toBe(400);
  });

  it('adds marked sample activities for admins and developers only', async () => {
    const refused = await t.app.inject({
      method: 'POST',
      url: '/api/admin/activities/sample',
      headers: bearer(marshall.token),
    });
    expect(refused.statusCode).toBe(403);
    const res = await t.app.inject({
      method: 'POST',
      url: '/api/admin/activities/sample',
      headers: bearer(developer.token),
    });
    expect(res.statusCode, res.body).toBe(201);
    const created = res.json().data.created;
    const samples = await t.database.db
      .select()
      .from(activities)
      .where(sql`${activities.metadata} ->> 'sample' = 'true'`);
    expect(samples).toHaveLength(created);
    const items = (await feed(admin, `?limit=${created}`)).json().data.activities;
    const types = items.map((i: { type: string }) => i.type);
    expect(types).toEqual(expect.arrayContaining(['checkpoint_scan', 'sos_call', 'rally_completion']));
    expect(items.find((i: { type: string }) => i.type === 'sos_call').priority).toBe('high');
  });

  it('keeps entries about hidden accounts out of the feed', async () => {
    const otherDev = await staff(t.app, t.database.db, 'developer');
    await t.app.inject({
      method: 'PATCH',
      url: `/api/admin/users/${otherDev.userId}`,
      headers: bearer(developer.token),
      payload: { kit_name: 'SECRET DEV' },
    });
    const forDev = (await feed(developer)).json().data.activities;
    expect(forDev.some((i: { user: string }) => i.user === 'SECRET DEV')).toBe(true);
    const forAdmin = (await feed(admin, '?limit=100')).json().data.activities;
    expect(forAdmin.some((i: { user: string }) => i.user === 'SECRET DEV')).toBe(false);
  });

  it('shows officers no contact data, verification codes or emails (permission table)', async () => {
    const officer = await staff(t.app, t.database.db, 'officer');
    const address = 'Purok 7, Barangay Talomo, Davao';
    const rider = await approvedRider(t.app, admin, { address, firstName: 'Bai', lastName: 'Mangelen' });
    const gone = await registerRider(t.app);
    const removed = await t.app.inject({
      method: 'DELETE',
      url: `/api/admin/users/${gone.userId}`,
      headers: bearer(admin.token),
    });
    expect(removed.statusCode, removed.body).toBe(200);

    const forOfficer = (await feed(officer, '?limit=100')).body;
    expect(forOfficer).toContain('Mangelen');
    expect(forOfficer).not.toContain('Talomo');
    expect(forOfficer).not.toContain(rider.verificationCode);
    expect(forOfficer).not.toContain(gone.email);
    expect(forOfficer).not.toMatch(/WR-[0-9A-Z]{8}/);
    expect(forOfficer).not.toMatch(/@example\.com/);

    // Those who may open user records and verify payments still read the whole entry.
    for (const viewer of [admin, marshall]) {
      const body = (await feed(viewer, '?limit=100')).body;
      expect(body).toContain('Talomo');
      expect(body).toContain(rider.verificationCode);
      // Deleting the account removed its email from every log entry, for every reader.
      expect(body).not.toContain(gone.email);
    }
  });
});
