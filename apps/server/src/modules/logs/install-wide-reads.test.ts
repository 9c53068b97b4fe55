// Logs, login activities and the activity feed belong to the install, not to an edition
// (DESIGN.md §9): with or without ?edition=, they read today's tables and today's roles.
// Issue 40's reproduction: after a rollover, an account created (or promoted) as a developer
// has no archived row, or an archived one with its old role; joined to a past edition's
// archived accounts its role read as null (or the old one), and an admin, who may not see
// developers (lib/visibility.ts), was shown its logs, address and user agent.
import { randomUUID } from 'node:crypto';
import type { Edition } from '@rally/shared/contracts/editions';
import { eq } from 'drizzle-orm';
import { beforeAll, describe, expect, it } from 'vitest';
import { activities } from '../../db/schema/activities';
import { users } from '../../db/schema/users';
import { DB_KINDS, useTestApp } from '../../test/build-app';
import { type Actor, injectAs, staff } from '../../test/factories';

describe.each(DB_KINDS)('logs, login activities and the feed read the install, any edition (%s)', (kind) => {
  const t = useTestApp(kind, 'admin', 'officer');
  const { admin, officer } = t.staff;
  let past: string;
  // Made after the rollover: no archived row.
  let developer: Actor;
  // A marshall at the rollover, a developer since: an archived row with the old role.
  let promoted: Actor;
  // Made after the rollover, and visible to an admin: proves each read returns rows at all.
  let visible: Actor;

  const get = async (actor: Actor, url: string) => {
    const res = await injectAs(t.app, actor, 'GET', url);
    expect(res.statusCode, `GET ${url}: ${res.body}`).toBe(200);
    return res.json().data;
  };
  /** The same read of the current edition and of the past one (and with no edition named). */
  const eachEdition = (url: string) => {
    const sep = url.includes('?') ? '&' : '?';
    return [url, `${url}${sep}edition=${past}`];
  };
  const activityIdsOf = async (userId: string) =>
    (await t.database.db.select({ id: activities.id }).from(activities).where(eq(activities.userId, userId))).map(
      (r) => r.id,
    );

  beforeAll(async () => {
    promoted = await staff(t.app, t.database.db, 'marshall');
    const all = (await injectAs(t.app, null, 'GET', '/api/editions')).json().data as Edition[];
    const outgoing = all.find((e) => e.current) as Edition;
    past = outgoing.id;
    const made = await injectAs(t.app, admin, 'POST', '/api/admin/editions', {
      name: `Warriors ${randomUUID().slice(0, 6)}`,
      year: outgoing.year + 1,
      startsOn: `${outgoing.year + 1}-03-14`,
      endsOn: `${outgoing.year + 1}-03-16`,
      copyFrom: outgoing.id,
    });
    expect(made.statusCode, made.body).toBe(201);
    const next = made.json().data.edition as Edition;
    const current = await injectAs(t.app, admin, 'POST', `/api/admin/editions/${next.id}/make-current`);
    expect(current.statusCode, current.body).toBe(200);

    // After the rollover: each signs in (a login activity) and has a registration in the feed.
    developer = await staff(t.app, t.database.db, 'developer');
    visible = await staff(t.app, t.database.db, 'marshall');
    // Promoted as the operator would, in the database (no route makes developers).
    await t.database.db.update(users).set({ role: 'developer' }).where(eq(users.id, promoted.userId));
    expect(await activityIdsOf(developer.userId)).not.toEqual([]);
    expect(await activityIdsOf(promoted.userId)).not.toEqual([]);
  });

  it('GET /api/admin/logs leaves developers out, whichever edition is named', async () => {
    for (const { email, userId } of [developer, promoted]) {
      for (const url of eachEdition(`/api/admin/logs?limit=100&search=${encodeURIComponent(email)}`)) {
        const data = await get(admin, url);
        expect(data.logs, url).toEqual([]);
        expect(data.pagination.total, url).toBe(0);
      }
      for (const url of eachEdition('/api/admin/logs?limit=100')) {
        const logs = (await get(admin, url)).logs as { user_id: string | null; user_email: string | null }[];
        expect(
          logs.filter((l) => l.user_id === userId || l.user_email === email),
          url,
        ).toEqual([]);
      }
      for (const url of eachEdition(`/api/admin/logs/stats?search=${encodeURIComponent(email)}`)) {
        const stats = await get(admin, url);
        expect(stats.total_logs, `${url}: ${JSON.stringify(stats)}`).toBe(0);
      }
    }
    for (const url of eachEdition(`/api/admin/logs?limit=100&search=${encodeURIComponent(visible.email)}`)) {
      const logs = (await get(admin, url)).logs as { user_id: string | null; log_type: string; user_role: string }[];
      const own = logs.filter((l) => l.user_id === visible.userId);
      expect(own.map((l) => l.log_type).sort(), url).toEqual(['activities', 'login_activities']);
      // Today's role, not a past edition's (it has none there).
      expect(new Set(own.map((l) => l.user_role)), url).toEqual(new Set(['marshall']));
    }
  });

  it('GET /api/admin/login-activities leaves developers out, whichever edition is named', async () => {
    for (const { email, userId } of [developer, promoted]) {
      for (const url of eachEdition(`/api/admin/login-activities?limit=100&search=${encodeURIComponent(email)}`)) {
        const data = await get(admin, url);
        expect(data.activities, url).toEqual([]);
        expect(data.pagination.total, url).toBe(0);
      }
      for (const url of eachEdition('/api/admin/login-activities?limit=100')) {
        const rows = (await get(admin, url)).activities as { user_id: string | null; email: string }[];
        expect(
          rows.filter((r) => r.user_id === userId || r.email === email),
          url,
        ).toEqual([]);
      }
      // One account's history: a hidden account answers as a missing one.
      for (const url of eachEdition(`/api/admin/users/${userId}/login-activity`)) {
        const res = await injectAs(t.app, admin, 'GET', url);
        expect(res.statusCode, `${url}: ${res.body}`).toBe(404);
      }
    }
    for (const url of eachEdition(
      `/api/admin/login-activities?limit=100&search=${encodeURIComponent(visible.email)}`,
    )) {
      const rows = (await get(admin, url)).activities as { user_id: string | null; role_name: string | null }[];
      expect(
        rows.map((r) => [r.user_id, r.role_name]),
        url,
      ).toEqual([[visible.userId, 'marshall']]);
    }
    for (const url of eachEdition(`/api/admin/users/${visible.userId}/login-activity`)) {
      const rows = (await get(admin, url)).activities as { user_id: string | null }[];
      expect(
        rows.map((r) => r.user_id),
        url,
      ).toEqual([visible.userId]);
    }
  });

  it('judges an account of a past edition by its role today: one promoted to developer since is hidden', async () => {
    for (const url of eachEdition(`/api/admin/users/${promoted.userId}`)) {
      const res = await injectAs(t.app, admin, 'GET', url);
      expect(res.statusCode, `${url}: ${res.body}`).toBe(404);
    }
    const listed = JSON.stringify(await get(admin, `/api/admin/users?limit=100&edition=${past}`));
    expect(listed).not.toContain(promoted.userId);
    // Visible to a developer, with the role it has now.
    const dev = await get(developer, `/api/admin/users/${promoted.userId}?edition=${past}`);
    expect(dev.user.role_name).toBe('developer');
  });

  it('GET /api/admin/activities leaves developers out for an admin and an officer, whichever edition is named', async () => {
    const hidden = [...(await activityIdsOf(developer.userId)), ...(await activityIdsOf(promoted.userId))];
    const shown = await activityIdsOf(visible.userId);
    expect(shown).not.toEqual([]);
    for (const viewer of [admin, officer]) {
      for (const url of eachEdition('/api/admin/activities?limit=100')) {
        const ids = ((await get(viewer, url)).activities as { id: string }[]).map((a) => a.id);
        expect(
          ids.filter((id) => hidden.includes(id)),
          `${viewer.role} ${url}`,
        ).toEqual([]);
        expect(ids, `${viewer.role} ${url}`).toEqual(expect.arrayContaining(shown));
      }
    }
  });

  it('still refuses an edition that is not one, and a write naming a past one, as every staff route does', async () => {
    for (const url of [
      '/api/admin/logs',
      '/api/admin/logs/stats',
      '/api/admin/login-activities',
      '/api/admin/activities',
    ]) {
      const unknown = await injectAs(t.app, admin, 'GET', `${url}?edition=${randomUUID()}`);
      expect(unknown.statusCode, `${url}: ${unknown.body}`).toBe(404);
      expect(unknown.json().code).toBe('EDITION_NOT_FOUND');
      const notAnId = await injectAs(t.app, admin, 'GET', `${url}?edition=last-year`);
      expect(notAnId.statusCode, `${url}: ${notAnId.body}`).toBe(400);
    }
    const write = await injectAs(t.app, admin, 'POST', `/api/admin/activities/sample?edition=${past}`);
    expect(write.statusCode, write.body).toBe(409);
    expect(write.json().code).toBe('EDITION_READ_ONLY');
  });
});
