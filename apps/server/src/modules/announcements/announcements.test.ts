import { eq } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { activities } from '../../db/schema/activities';
import { announcements } from '../../db/schema/announcements';
import { buildTestApp, DB_KINDS, type TestApp, useTestApp } from '../../test/build-app';
import { makeAnnouncement } from '../../test/community-factories';
import { type Actor, bearer, injectAs, registerRider, staff } from '../../test/factories';

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

describe.each(DB_KINDS)('announcement management (%s)', (kind) => {
  const t = useTestApp(kind, 'admin', 'developer', 'marshall', 'officer');
  const { admin, developer, marshall, officer } = t.staff;
  let rider: Actor;

  const call = (actor: Actor, method: 'GET' | 'POST' | 'PUT' | 'DELETE', url: string, payload?: unknown) =>
    injectAs(t.app, actor, method, url, payload);
  const list = async () => {
    const res = await call(admin, 'GET', '/api/admin/announcements');
    expect(res.statusCode, res.body).toBe(200);
    return res.json().data;
  };
  const announcementLogs = () => t.database.db.select().from(activities).where(eq(activities.type, 'announcement'));

  beforeAll(async () => {
    rider = await registerRider(t.app);
  });

  it('is for admins and developers only', async () => {
    const body = { title: 'Nope', content: 'Nope' };
    for (const who of [marshall, officer, rider]) {
      expect((await call(who, 'GET', '/api/admin/announcements')).statusCode).toBe(403);
      expect((await call(who, 'POST', '/api/admin/announcements', body)).statusCode).toBe(403);
      expect(
        (await call(who, 'PUT', '/api/admin/announcements/00000000-0000-4000-8000-000000000000', body)).statusCode,
      ).toBe(403);
      expect(
        (await call(who, 'DELETE', '/api/admin/announcements/00000000-0000-4000-8000-000000000000')).statusCode,
      ).toBe(403);
    }
    expect(await t.database.db.select().from(announcements)).toHaveLength(0);
  });

  it('creates, lists newest first with the author, edits, deactivates and deletes, logging each write', async () => {
    const first = await call(admin, 'POST', '/api/admin/announcements', {
      title: '  Briefing at 5 AM  ',
      content: 'All riders report to the Davao start line.',
    });
    expect(first.statusCode, first.body).toBe(201);
    expect(first.json().data).toMatchObject({
      title: 'Briefing at 5 AM',
      content: 'All riders report to the Davao start line.',
      is_active: true,
      author_id: admin.userId,
      first_name: 'Admin',
      last_name: 'Account',
    });
    const second = await call(developer, 'POST', '/api/admin/announcements', {
      title: 'Draft route change',
      content: 'Pending approval',
      is_active: false,
    });
    expect(second.json().data.is_active).toBe(false);

    const listed = await list();
    expect(listed.announcements.map((a: { title: string }) => a.title)).toEqual([
      'Draft route change',
      'Briefing at 5 AM',
    ]);
    expect(listed.pagination).toMatchObject({ total: 2, page: 1 });

    const id = first.json().data.id;
    const edited = await call(developer, 'PUT', `/api/admin/announcements/${id}`, {
      title: 'Briefing at 4:30 AM',
      content: 'Earlier start.',
    });
    expect(edited.statusCode, edited.body).toBe(200);
    expect(edited.json().data).toMatchObject({
      title: 'Briefing at 4:30 AM',
      is_active: true,
      author_id: admin.userId,
    });
    expect(Date.parse(edited.json().data.updated_at)).toBeGreaterThanOrEqual(Date.parse(edited.json().data.created_at));
    const off = await call(admin, 'PUT', `/api/admin/announcements/${id}`, {
      title: 'Briefing at 4:30 AM',
      content: 'Earlier start.',
      is_active: false,
    });
    expect(off.json().data.is_active).toBe(false);

    const deleted = await call(admin, 'DELETE', `/api/admin/announcements/${id}`);
    expect(deleted.statusCode).toBe(200);
    expect(deleted.json()).toEqual({ success: true, message: 'Announcement deleted' });
    expect((await list()).announcements).toHaveLength(1);
    expect((await call(admin, 'DELETE', `/api/admin/announcements/${id}`)).statusCode).toBe(404);
    expect((await call(admin, 'PUT', `/api/admin/announcements/${id}`, { title: 'x', content: 'y' })).statusCode).toBe(
      404,
    );

    const logs = await announcementLogs();
    expect(logs).toHaveLength(5);
    expect(logs.map((l) => l.description)).toEqual(
      expect.arrayContaining([
        'Announcement published: Briefing at 5 AM',
        'Announcement updated: Briefing at 4:30 AM',
        'Announcement deleted: Briefing at 4:30 AM',
      ]),
    );
  });

  it('accepts a 255-character title and refuses 256, blank titles and blank content', async () => {
    const ok = await call(admin, 'POST', '/api/admin/announcements', { title: 'T'.repeat(255), content: 'Long title' });
    expect(ok.statusCode, ok.body).toBe(201);
    expect(ok.json().data.title).toHaveLength(255);

    const count = (await list()).pagination.total;
    const logCount = (await announcementLogs()).length;
    const cases: Array<[unknown, string]> = [
      [{ title: 'T'.repeat(256), content: 'x' }, 'Title must be at most 255 characters'],
      [{ title: '   ', content: 'x' }, 'Title is required'],
      [{ content: 'x' }, 'Title is required'],
      [{ title: 'Hello', content: ' ' }, 'Content is required'],
      [{ title: 'Hello', content: 'x', is_active: 'yes' }, 'is_active must be true or false'],
    ];
    for (const [body, message] of cases) {
      const res = await call(admin, 'POST', '/api/admin/announcements', body);
      expect(res.statusCode, JSON.stringify(body)).toBe(400);
      expect(res.json().message).toBe(message);
    }
    const id = ok.json().data.id;
    const tooLong = await call(admin, 'PUT', `/api/admin/announcements/${id}`, {
      title: 'T'.repeat(256),
      content: 'x',
    });
    expect(tooLong.statusCode).toBe(400);
    expect(
      (await call(admin, 'PUT', '/api/admin/announcements/not-an-id', { title: 'x', content: 'y' })).statusCode,
    ).toBe(400);
    expect((await list()).pagination.total).toBe(count);
    expect((await announcementLogs()).length).toBe(logCount);
  });

  it('shows active announcements to riders and hides inactive ones', async () => {
    const published = await call(admin, 'POST', '/api/admin/announcements', {
      title: 'Visible',
      content: 'For riders',
    });
    const hidden = await call(admin, 'POST', '/api/admin/announcements', {
      title: 'Hidden',
      content: 'x',
      is_active: false,
    });
    expect(published.statusCode).toBe(201);
    expect(hidden.statusCode).toBe(201);
    const res = await t.app.inject({ method: 'GET', url: '/api/announcements', headers: bearer(rider.token) });
    expect(res.statusCode, res.body).toBe(200);
    const titles = JSON.stringify(res.json().data);
    expect(titles).toContain('Visible');
    expect(titles).not.toContain('Hidden');
  });
});
