// A rider has one verification per edition they entered, and a past edition's stays in the
// table after the rollover. The roster, the scans and the course must read the current
// edition's: a rider verified only last year is no verified rider this year until staff
// verify them again, even while they still carry the QR code (kept across an undo).
import { and, eq } from 'drizzle-orm';
import { describe, expect, it } from 'vitest';
import { entries } from '../../db/schema/entries';
import { inEdition } from '../../lib/edition-of';
import { DB_KINDS, useTestApp } from '../../test/build-app';
import { type Actor, codedRider, createStation, injectAs, joinEdition, rollOver, syncScan } from '../../test/factories';

interface RosterRider {
  id: string;
  status: string;
}

type Method = 'GET' | 'POST';

describe.each(DB_KINDS)('scan roster and scans across editions (%s)', (kind) => {
  const t = useTestApp(kind, 'admin', 'marshall', 'developer');
  const { admin, marshall, developer } = t.staff;

  const ok = async (actor: Actor, method: Method, url: string, payload?: unknown) => {
    const res = await injectAs(t.app, actor, method, url, payload);
    expect(res.statusCode, `${method} ${url}: ${res.body}`).toBeLessThan(300);
    return res;
  };
  const roster = async (query = '') =>
    (await ok(marshall, 'GET', `/api/admin/scan-roster${query}`)).json().data as {
      riders: RosterRider[];
      removed: string[];
      cursor: string;
    };
  const onCourse = async (userId: string) =>
    ((await ok(admin, 'GET', '/api/admin/event/riders?day=1')).json().data.riders as Array<{ riderId: string }>).filter(
      (r) => r.riderId === userId,
    ).length;
  const inRoster = async (userId: string, query = '') =>
    (await roster(query)).riders.filter((r) => r.id === userId).map((r) => r.status);

  it('takes only the current edition’s verification: last year’s does not make a verified rider this year', async () => {
    const start = await createStation(t.app, admin, { name: 'Flag-off', kind: 'start', day: 1, order: 0 });
    const rider = await codedRider(t.app, t.database.db, admin, { category: 'bagani' });
    expect(await inRoster(rider.userId)).toEqual(['verified']);
    expect(await syncScan(t.app, marshall, { stationId: start, riderCode: rider.riderCode })).toMatchObject({
      status: 'accepted',
    });

    const { past } = await rollOver(t.app, admin);
    // Back this year, pending; verified then undone, so the QR code is theirs again while
    // only last year's verification says "verified".
    const code = await joinEdition(t.app, rider);
    await ok(admin, 'POST', '/api/admin/verifications/verify', { verification_code: code, action: 'verified' });
    // This year's QR code: a new one (the rollover took last year's).
    const [row] = await t.database.db
      .select({ code: entries.riderCode })
      .from(entries)
      .where(and(eq(entries.userId, rider.userId), inEdition(entries.editionId)));
    const riderCode = row?.code as string;
    expect(riderCode).toBeTruthy();
    const { cursor } = await roster();
    await ok(developer, 'POST', `/api/admin/verifications/undo/${rider.userId}`);

    expect(await inRoster(rider.userId)).toEqual([]);
    expect((await roster(`?since=${encodeURIComponent(cursor)}`)).removed).toContain(rider.userId);
    // The station (copied into this edition with the same id) flags both ways of naming them.
    for (const named of [{ riderCode }, { riderNumber: rider.riderNumber }]) {
      expect(await syncScan(t.app, marshall, { stationId: start, ...named })).toMatchObject({
        status: 'flagged',
        reason: 'not_verified',
      });
    }
    // Not on the course either.
    const timeline = await injectAs(t.app, admin, 'GET', `/api/admin/event/riders/${rider.userId}/timeline`);
    expect(timeline.statusCode).toBe(404);
    expect(await onCourse(rider.userId)).toBe(0);
    // Last year's roster still lists them, verified.
    expect(await inRoster(rider.userId, `?edition=${past}`)).toEqual(['verified']);

    // Verified again this year: on the roster once, and scanned in.
    await ok(admin, 'POST', '/api/admin/verifications/verify', { verification_code: code, action: 'verified' });
    expect(await inRoster(rider.userId)).toEqual(['verified']);
    expect(await syncScan(t.app, marshall, { stationId: start, riderCode })).toMatchObject({
      status: 'accepted',
    });
    expect((await injectAs(t.app, admin, 'GET', `/api/admin/event/riders/${rider.userId}/timeline`)).statusCode).toBe(
      200,
    );
    expect(await onCourse(rider.userId)).toBe(1);
  });
});
