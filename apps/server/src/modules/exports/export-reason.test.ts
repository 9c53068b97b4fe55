// An export carrying riders' sensitive data asks why (DESIGN.md §12): without a reason it is
// refused and nothing is read or logged; with one, every access-log line the download writes
// keeps it, and the rider and view_logs read it back; an export without sensitive columns
// does not ask.
import { and, count, eq } from 'drizzle-orm';
import { describe, expect, it } from 'vitest';
import { activities } from '../../db/schema/activities';
import { dataAccess } from '../../db/schema/data-access';
import { DB_KINDS, useTestApp } from '../../test/build-app';
import { approvedRider, injectAs } from '../../test/factories';

const REQUIRED = 'Say why you export riders’ sensitive data (at least 5 characters)';

describe.each(DB_KINDS)('the reason for a sensitive export (%s)', (kind) => {
  const t = useTestApp(kind, 'admin', 'marshall');
  const { admin, marshall } = t.staff;
  const get = (url: string) => injectAs(t.app, marshall, 'GET', url);
  /** What the marshal's downloads have left: access-log lines and download entries. */
  const traces = async () => {
    const [lines] = await t.database.db
      .select({ n: count() })
      .from(dataAccess)
      .where(eq(dataAccess.staffId, marshall.userId));
    const [downloads] = await t.database.db
      .select({ n: count() })
      .from(activities)
      .where(and(eq(activities.type, 'export_downloaded'), eq(activities.actorId, marshall.userId)));
    return { lines: Number(lines?.n ?? 0), downloads: Number(downloads?.n ?? 0) };
  };

  it('lists which exports carry sensitive kinds', async () => {
    const res = await injectAs(t.app, admin, 'GET', '/api/admin/exports');
    expect(res.statusCode, res.body).toBe(200);
    const kinds = Object.fromEntries(
      (res.json().data as Array<{ name: string; sensitiveKinds: string[] }>).map((e) => [e.name, e.sensitiveKinds]),
    );
    expect(kinds).toMatchObject({
      masterlist: ['birthdate', 'emergency_contact'],
      'insurance-lakambini-lakan': ['birthdate', 'emergency_contact'],
      'insurance-bagani': ['birthdate', 'emergency_contact'],
      incidents: expect.arrayContaining(['position']),
      sizes: [],
      payments: [],
      finishers: [],
      dnf: [],
    });
  });

  it('refuses a sensitive export without a reason, and reads and logs nothing', async () => {
    await approvedRider(t.app, admin, { category: 'bagani' });
    const before = await traces();
    for (const url of [
      '/api/admin/exports/masterlist.csv',
      '/api/admin/exports/insurance-bagani.xlsx?reason=',
      '/api/admin/exports/masterlist.csv?reason=%20%20%20%20%20%20',
      '/api/admin/exports/incidents.csv?reason=abcd',
    ]) {
      const res = await get(url);
      expect([url, res.statusCode, res.json()]).toEqual([
        url,
        400,
        { success: false, message: REQUIRED, code: 'REASON_REQUIRED' },
      ]);
    }
    const long = await get(`/api/admin/exports/masterlist.csv?reason=${'x'.repeat(301)}`);
    expect([long.statusCode, long.json().message]).toEqual([400, 'reason must be at most 300 characters']);
    expect(await traces()).toEqual(before);
  });

  it('keeps the reason on every line the download writes, for view_logs and for the rider', async () => {
    const rider = await approvedRider(t.app, admin, { category: 'bagani' });
    const other = await approvedRider(t.app, admin, { category: 'bagani' });
    const reason = `Insurer's list ${rider.riderNumber}`;
    const res = await get(`/api/admin/exports/insurance-bagani.csv?reason=${encodeURIComponent(`  ${reason} `)}`);
    expect(res.statusCode, res.body).toBe(200);

    const lines = await t.database.db
      .select({ riderId: dataAccess.riderId, reason: dataAccess.reason, source: dataAccess.source })
      .from(dataAccess)
      .where(and(eq(dataAccess.staffId, marshall.userId), eq(dataAccess.source, 'export insurance-bagani.csv')));
    for (const who of [rider, other])
      expect(lines.filter((l) => l.riderId === who.userId)).toEqual([
        { riderId: who.userId, reason, source: 'export insurance-bagani.csv' },
      ]);

    const log = await injectAs(t.app, admin, 'GET', `/api/admin/data-access?userId=${rider.userId}`);
    expect(log.statusCode, log.body).toBe(200);
    expect(log.json().data.entries).toContainEqual(
      expect.objectContaining({ staffId: marshall.userId, source: 'export insurance-bagani.csv', reason }),
    );
    const mine = await injectAs(t.app, rider, 'GET', '/api/my/data-access');
    expect(mine.json().data).toContainEqual(
      expect.objectContaining({ staffName: 'Marshall Account', source: 'export insurance-bagani.csv', reason }),
    );
    // A staff answer on a screen asks nothing: its line has no reason.
    expect((await get(`/api/admin/users/${rider.userId}`)).statusCode).toBe(200);
    const screen = await injectAs(
      t.app,
      admin,
      'GET',
      `/api/admin/data-access?userId=${rider.userId}&staffId=${marshall.userId}`,
    );
    expect(screen.json().data.entries[0]).toMatchObject({ source: 'GET /api/admin/users/:id', reason: null });
  });

  it('does not ask for an export without sensitive columns', async () => {
    await approvedRider(t.app, admin, { category: 'bagani' });
    const before = await traces();
    for (const file of ['sizes.csv', 'payments.xlsx', 'finishers.csv', 'dnf.csv']) {
      const res = await get(`/api/admin/exports/${file}`);
      expect([file, res.statusCode]).toEqual([file, 200]);
    }
    const after = await traces();
    expect(after).toEqual({ lines: before.lines, downloads: before.downloads + 4 });
  });
});
