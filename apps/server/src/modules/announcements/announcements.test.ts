import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { buildTestApp, DB_KINDS, type TestApp } from '../../test/build-app';
import { makeAnnouncement } from '../../test/community-factories';
import { bearer, registerRider, staff } from '../../test/factories';

describe.each(DB_KINDS)('GET /api/announcements (%s)', (kind) => {
  let t: TestApp;

  beforeAll(async () => {
    t = await buildTestApp(kind);
  });
  afterAll(() => t.close());

  it('lists active announcements only, newest first, with their author', async () => {
    const admin = await staff(t.app, t.database.db, 'admin');
    const hour = 3_600_000;
    const now = Date.now();
    const old = await makeAnnouncement(t.database.db, {
      title: 'Registration open',
      authorId: admin.userId,
      createdAt: new Date(now - 3 * hour),
    });
    await makeAnnouncement(t.database.db, {
      title: 'Draft: route reveal',
      isActive: false,
      createdAt: new Date(now - hour),
    });
    const latest = await makeAnnouncement(t.database.db, {
      title: 'Riders briefing',
      content: 'Briefing at 05:00 at the start line.',
      authorId: admin.userId,
      createdAt: new Date(now - 60_000),
    });
    const orphan = await makeAnnouncement(t.database.db, {
      title: 'Weather watch',
      createdAt: new Date(now - 2 * hour),
    });

    const rider = await registerRider(t.app);
    const res = await t.app.inject({ method: 'GET', url: '/api/announcements', headers: bearer(rider.token) });
    expect(res.statusCode).toBe(200);
    const list = res.json().data.announcements;
    expect(list.map((a: { id: string }) => a.id)).toEqual([latest.id, orphan.id, old.id]);
    expect(list[0]).toEqual({
      id: latest.id,
      title: 'Riders briefing',
      content: 'Briefing at 05:00 at the start line.',
      created_at: new Date(now - 60_000).toISOString(),
      author_id: admin.userId,
      first_name: 'Admin',
      last_name: 'Account',
      author_role: 'admin',
      priority: 'normal',
    });
    // An announcement whose author was deleted still shows, without a name.
    expect(list[1]).toMatchObject({ author_id: null, first_name: null, last_name: null, author_role: null });
    expect(res.body).not.toContain('Draft: route reveal');
  });

  it('needs sign-in', async () => {
    const res = await t.app.inject({ method: 'GET', url: '/api/announcements' });
    expect(res.statusCode).toBe(401);
  });
});
