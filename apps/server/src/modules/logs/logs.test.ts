import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { activities } from '../../db/schema/activities';
import { verificationHistory } from '../../db/schema/entries';
import { loginActivities } from '../../db/schema/security';
import { buildTestApp, DB_KINDS, type TestApp } from '../../test/build-app';
import { type Actor, bearer, staff } from '../../test/factories';
import { listLogs, logStats, rangeStart } from './logs.service';

const HOUR = 60 * 60 * 1000;
const DAY = 24 * HOUR;
// Noon in Manila on 15 March 2031; the entries below sit around it. Being in the future,
// they are also "all" but never "today" for the real clock.
const REF = new Date('2031-03-15T04:00:00Z');
const at = (ago: number) => new Date(REF.getTime() - ago);

interface Entry {
  id: string;
  log_type: string;
  log_timestamp: string;
  user_id: string | null;
  user_name: string | null;
  description: string;
  details: string | null;
  location: string | null;
}

describe.each(DB_KINDS)('system logs (%s)', (kind) => {
  let t: TestApp;
  let developer: Actor;
  let admin: Actor;
  let otherAdmin: Actor;
  let marshall: Actor;
  let officer: Actor;

  const call = (actor: Actor, url: string) => t.app.inject({ method: 'GET', url, headers: bearer(actor.token) });
  const logs = async (actor: Actor, query: string) => {
    const res = await call(actor, `/api/admin/logs?${query}`);
    expect(res.statusCode, res.body).toBe(200);
    return res.json().data as {
      logs: Entry[];
      pagination: { page: number; limit: number; total: number; totalPages: number };
    };
  };

  beforeAll(async () => {
    t = await buildTestApp(kind);
    developer = await staff(t.app, t.database.db, 'developer');
    admin = await staff(t.app, t.database.db, 'admin');
    otherAdmin = await staff(t.app, t.database.db, 'admin');
    marshall = await staff(t.app, t.database.db, 'marshall');
    officer = await staff(t.app, t.database.db, 'officer');
    const db = t.database.db;
    // Ten entries across the three sources, at 1 hour, 13 hours, 3, 20 and 60 days before REF.
    await db.insert(activities).values([
      {
        type: 'announcement',
        description: 'LOGTEST activity one',
        details: 'first',
        createdAt: at(1 * HOUR),
        userName: 'Rider One',
      },
      { type: 'kit_handover', description: 'LOGTEST activity two', createdAt: at(3 * DAY), location: 'Davao City' },
      { type: 'kit_handover', description: 'LOGTEST activity three', createdAt: at(20 * DAY) },
      { type: 'kit_handover', description: 'LOGTEST activity four', createdAt: at(60 * DAY) },
    ]);
    await db.insert(verificationHistory).values([
      {
        action: 'verified',
        kitName: 'LOGTEST KIT A',
        verificationCode: 'WR-AAAA0001',
        adminFirstName: 'Dev',
        adminLastName: 'One',
        notes: 'ok',
        createdAt: at(1 * HOUR),
      },
      { action: 'rejected', kitName: 'LOGTEST KIT B', verificationCode: 'WR-AAAA0002', createdAt: at(13 * HOUR) },
      { action: 'verified', kitName: 'LOGTEST KIT C', verificationCode: 'WR-AAAA0003', createdAt: at(20 * DAY) },
    ]);
    await db.insert(loginActivities).values([
      {
        email: 'logtest.one@example.com',
        success: false,
        failureReason: 'Wrong password',
        ip: '10.1.1.1',
        userAgent: 'Firefox',
        createdAt: at(13 * HOUR),
      },
      { email: 'logtest.two@example.com', success: true, ip: '10.1.1.2', createdAt: at(3 * DAY) },
      { email: 'logtest.three@example.com', success: false, ip: '10.1.1.3', createdAt: at(60 * DAY) },
    ]);
    // Entries about staff, for the visibility rules.
    await db.insert(activities).values([
      {
        type: 'user_update',
        description: 'VISTEST about a developer',
        userId: developer.userId,
        createdAt: at(2 * HOUR),
      },
      {
        type: 'user_update',
        description: 'VISTEST about another admin',
        userId: otherAdmin.userId,
        createdAt: at(2 * HOUR),
      },
      { type: 'user_update', description: 'VISTEST about myself', userId: admin.userId, createdAt: at(2 * HOUR) },
    ]);
  });
  afterAll(async () => {
    await t?.close();
  });

  it('is for admins and developers only', async () => {
    for (const who of [marshall, officer]) {
      expect((await call(who, '/api/admin/logs')).statusCode).toBe(403);
      expect((await call(who, '/api/admin/logs/stats')).statusCode).toBe(403);
    }
    expect((await t.app.inject({ method: 'GET', url: '/api/admin/logs' })).statusCode).toBe(401);
  });

  it('merges the three sources into one list with the entry shape', async () => {
    const data = await logs(developer, 'search=logtest&limit=50');
    expect(data.pagination).toEqual({ page: 1, limit: 50, total: 10, totalPages: 1 });
    const types = data.logs.map((l) => l.log_type);
    expect(types.filter((x) => x === 'activities')).toHaveLength(4);
    expect(types.filter((x) => x === 'verifications')).toHaveLength(3);
    expect(types.filter((x) => x === 'login_activities')).toHaveLength(3);
    const stamps = data.logs.map((l) => Date.parse(l.log_timestamp));
    expect(stamps).toEqual([...stamps].sort((a, b) => b - a));
    const verification = data.logs.find((l) => l.description.includes('KIT A'));
    expect(verification).toMatchObject({
      log_type: 'verifications',
      description: 'Payment verified for LOGTEST KIT A',
      details: 'Code WR-AAAA0001 · By Dev One · Notes: ok',
      location: null,
    });
    expect(verification?.id).toMatch(/^verifications-[0-9a-f-]{36}$/);
    const failed = data.logs.find((l) => l.user_name === 'logtest.one@example.com');
    expect(failed).toMatchObject({
      log_type: 'login_activities',
      description: 'Failed login attempt',
      details: 'Wrong password · Firefox',
      location: '10.1.1.1',
    });
    const first = data.logs.find((l) => l.description === 'LOGTEST activity one');
    expect(first).toMatchObject({ user_name: 'Rider One', details: 'first' });
    expect((first as unknown as { formatted_timestamp: string }).formatted_timestamp).toMatch(/2031/);
  });

  it('pages in SQL across the sources without overlap, in both orders', async () => {
    const seen: string[] = [];
    for (let page = 1; page <= 4; page++) {
      const data = await logs(developer, `search=logtest&limit=3&page=${page}`);
      expect(data.pagination).toEqual({ page, limit: 3, total: 10, totalPages: 4 });
      expect(data.logs).toHaveLength(page < 4 ? 3 : 1);
      seen.push(...data.logs.map((l) => l.id));
    }
    expect(new Set(seen).size).toBe(10);
    const all = await logs(developer, 'search=logtest&limit=50');
    expect(seen).toEqual(all.logs.map((l) => l.id));
    const asc = await logs(developer, 'search=logtest&limit=50&sortOrder=asc');
    expect(asc.logs.map((l) => l.id)).toEqual([...seen].reverse());
    expect((await logs(developer, 'search=logtest&limit=3&page=9')).logs).toHaveLength(0);
  });

  it('filters by type and by search text (as data, never as SQL)', async () => {
    const onlyVerifications = await logs(developer, 'search=logtest&logType=verifications');
    expect(onlyVerifications.pagination.total).toBe(3);
    expect(onlyVerifications.logs.every((l) => l.log_type === 'verifications')).toBe(true);
    expect((await logs(developer, 'search=logtest&logType=login_activities')).pagination.total).toBe(3);
    expect((await logs(developer, 'search=logtest&logType=activities')).pagination.total).toBe(4);
    expect((await logs(developer, 'search=WR-AAAA0002')).logs.map((l) => l.description)).toEqual([
      'Payment rejected for LOGTEST KIT B',
    ]);
    expect((await logs(developer, 'search=10.1.1.2')).pagination.total).toBe(1);
    expect((await logs(developer, 'search=Davao%20City&logType=activities')).pagination.total).toBe(1);
    expect((await logs(developer, `search=${encodeURIComponent("' or 1=1 --")}`)).pagination.total).toBe(0);
    expect((await logs(developer, 'search=%25')).pagination.total).toBe(0);
  });

  it('counts per source with the same filters', async () => {
    const res = await call(developer, '/api/admin/logs/stats?search=logtest');
    expect(res.statusCode, res.body).toBe(200);
    expect(res.json().data).toEqual({
      total_logs: 10,
      activities: { total_activities: 4 },
      verifications: { total_verifications: 3 },
      login_activities: { total_login_activities: 3 },
    });
    const filtered = (await call(developer, '/api/admin/logs/stats?search=logtest&logType=verifications')).json().data;
    expect(filtered).toEqual({
      total_logs: 3,
      activities: { total_activities: 0 },
      verifications: { total_verifications: 3 },
      login_activities: { total_login_activities: 0 },
    });
  });

  it('applies date ranges relative to a movable now', async () => {
    const viewer = { id: developer.userId, role: 'developer' };
    const query = {
      page: 1,
      limit: 50,
      search: 'logtest',
      sortBy: 'timestamp' as const,
      sortOrder: 'desc' as const,
      logType: 'all' as const,
    };
    const count = async (dateRange: 'all' | 'today' | 'week' | 'month', now = REF) =>
      (await listLogs(t.database.db, { ...query, dateRange }, viewer, now)).total;
    expect(await count('today')).toBe(2);
    expect(await count('week')).toBe(6);
    expect(await count('month')).toBe(8);
    expect(await count('all')).toBe(10);
    // A day later the 13-hour-old entries are still in the week, but nothing is "today".
    expect(await count('today', new Date(REF.getTime() + DAY))).toBe(0);
    expect(await count('week', new Date(REF.getTime() + 5 * DAY))).toBe(4);
    // With the real clock, these future entries are never in a range.
    expect((await logs(developer, 'search=logtest&dateRange=month')).pagination.total).toBe(0);
    expect(
      await logStats(t.database.db, { logType: 'all', search: 'logtest', dateRange: 'week' }, viewer, REF),
    ).toEqual({
      total_logs: 6,
      activities: { total_activities: 2 },
      verifications: { total_verifications: 2 },
      login_activities: { total_login_activities: 2 },
    });
    // "Today" starts at midnight in Manila (UTC+8).
    expect(rangeStart('today', REF)?.toISOString()).toBe('2031-03-14T16:00:00.000Z');
    expect(rangeStart('week', REF)?.toISOString()).toBe(new Date(REF.getTime() - 7 * DAY).toISOString());
    expect(rangeStart('all', REF)).toBeNull();
  });

  it('hides entries about accounts the viewer may not see, but not their own', async () => {
    const asAdmin = (await logs(admin, 'search=VISTEST')).logs.map((l) => l.description);
    expect(asAdmin).toEqual(['VISTEST about myself']);
    const asDeveloper = (await logs(developer, 'search=VISTEST')).logs.map((l) => l.description).sort();
    expect(asDeveloper).toEqual(['VISTEST about a developer', 'VISTEST about another admin', 'VISTEST about myself']);
  });

  it('refuses bad filters with a message naming them', async () => {
    for (const [query, field] of [
      ['logType=emails', 'logType'],
      ['dateRange=year', 'dateRange'],
      ['sortOrder=sideways', 'sortOrder'],
      ['sortBy=user', 'sortBy'],
      ['limit=201', 'limit'],
      ['page=0', 'page'],
    ]) {
      const res = await call(developer, `/api/admin/logs?${query}`);
      expect(res.statusCode, query).toBe(400);
      expect(res.json().message).toContain(field);
    }
    expect((await call(developer, '/api/admin/logs/stats?dateRange=year')).statusCode).toBe(400);
  });
});
