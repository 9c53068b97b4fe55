// A rider's kit belongs to one edition (DESIGN.md §9): after the rollover, last year's
// hand-over stays in kit_tracking with last year's edition. The current edition's tracker
// neither shows nor counts it, staff read it with ?edition=, and this year's hand-over of the
// same rider (who joined again) is a row of its own that leaves last year's untouched.
import { and, eq } from 'drizzle-orm';
import { describe, expect, it } from 'vitest';
import { kitTracking } from '../../db/schema/kit';
import { DB_KINDS, useTestApp } from '../../test/build-app';
import { type Actor, approvedRider, injectAs, rejoinedRider, rollOver } from '../../test/factories';

type Method = 'GET' | 'PUT' | 'POST';

describe.each(DB_KINDS)('kit tracking across editions (%s)', (kind) => {
  const t = useTestApp(kind, 'admin');
  const { admin } = t.staff;

  const ok = async (actor: Actor, method: Method, url: string, payload?: unknown) => {
    const res = await injectAs(t.app, actor, method, url, payload);
    expect(res.statusCode, `${method} ${url}: ${res.body}`).toBe(200);
    return res.json().data;
  };

  const kitRows = (userId: string) =>
    t.database.db
      .select({
        editionId: kitTracking.editionId,
        tshirtGiven: kitTracking.tshirtGiven,
        vestGiven: kitTracking.vestGiven,
        finisherSleeveGiven: kitTracking.finisherSleeveGiven,
        notes: kitTracking.notes,
        updatedAt: kitTracking.updatedAt,
      })
      .from(kitTracking)
      .where(eq(kitTracking.userId, userId));

  it('shows last year’s hand-over in last year only, and leaves it alone this year', async () => {
    const rider = await approvedRider(t.app, admin, { firstName: 'Returning', category: 'bagani' });
    await ok(admin, 'PUT', `/api/admin/kit-tracking/${rider.userId}`, { tshirt_given: true });
    await ok(admin, 'PUT', `/api/admin/kit-tracking/${rider.userId}`, { notes: 'Vest next year' });
    const lastYear = await ok(admin, 'GET', `/api/admin/kit-tracking/${rider.userId}`);
    expect(lastYear).toMatchObject({ tshirt_given: true, vest_given: false, kit_notes: 'Vest next year' });
    const lastYearList = await ok(admin, 'GET', '/api/admin/kit-tracking');

    const { past, next } = await rollOver(t.app, admin);

    // Not entered this year: no kit to track, nothing counted.
    const current = await ok(admin, 'GET', '/api/admin/kit-tracking');
    expect(current.participants).toEqual([]);
    expect(current.stats).toMatchObject({ total: 0, itemsGiven: { tshirts: 0, vests: 0, sleeves: 0 } });
    const notEntered = await injectAs(t.app, admin, 'GET', `/api/admin/kit-tracking/${rider.userId}`);
    expect(notEntered.statusCode).toBe(409);
    expect((await injectAs(t.app, rider, 'GET', '/api/my/rider-code')).statusCode).toBe(404);

    // Last year, through the same calls.
    expect(await ok(admin, 'GET', `/api/admin/kit-tracking?edition=${past}`)).toEqual(lastYearList);
    expect(await ok(admin, 'GET', `/api/admin/kit-tracking/${rider.userId}?edition=${past}`)).toEqual(lastYear);

    // This year: the rider joins again; their kit starts empty, whatever last year's was.
    await rejoinedRider(t.app, admin, rider);
    expect(await ok(admin, 'GET', `/api/admin/kit-tracking/${rider.userId}`)).toMatchObject({
      tshirt_given: false,
      vest_given: false,
      finisher_sleeve_given: false,
      kit_notes: null,
      kit_last_updated: null,
    });
    const joined = await ok(admin, 'GET', '/api/admin/kit-tracking');
    expect(joined.participants).toHaveLength(1);
    expect(joined.stats).toMatchObject({
      total: 1,
      completedKits: 0,
      itemsGiven: { tshirts: 0, vests: 0, sleeves: 0 },
    });
    expect((await ok(admin, 'GET', '/api/admin/kit-tracking?filter_status=completed')).participants).toEqual([]);

    // This year's hand-over, every way of writing it.
    await ok(admin, 'PUT', `/api/admin/kit-tracking/${rider.userId}`, { notes: 'Collected by a friend' });
    await ok(admin, 'POST', `/api/admin/kit-tracking/${rider.userId}/hand-over-all`);
    await ok(admin, 'POST', '/api/admin/kit-tracking/bulk-update', {
      updates: [{ user_id: rider.userId, tshirt_given: false }],
    });
    expect(await ok(admin, 'GET', `/api/admin/kit-tracking/${rider.userId}`)).toMatchObject({
      tshirt_given: false,
      vest_given: true,
      finisher_sleeve_given: true,
      kit_notes: 'Collected by a friend',
    });
    expect((await ok(admin, 'GET', '/api/admin/kit-tracking')).stats).toMatchObject({
      total: 1,
      itemsGiven: { tshirts: 0, vests: 1, sleeves: 1 },
    });

    // Last year reads exactly as it did, and its row is as it was.
    expect(await ok(admin, 'GET', `/api/admin/kit-tracking?edition=${past}`)).toEqual(lastYearList);
    expect(await ok(admin, 'GET', `/api/admin/kit-tracking/${rider.userId}?edition=${past}`)).toEqual(lastYear);
    const rows = await kitRows(rider.userId);
    expect(rows).toHaveLength(2);
    expect(rows.find((r) => r.editionId === past)).toMatchObject({
      tshirtGiven: true,
      vestGiven: false,
      finisherSleeveGiven: false,
      notes: 'Vest next year',
    });
    expect(rows.find((r) => r.editionId === next)).toMatchObject({
      tshirtGiven: false,
      vestGiven: true,
      finisherSleeveGiven: true,
      notes: 'Collected by a friend',
    });
    // A past edition is read-only.
    const write = await injectAs(t.app, admin, 'PUT', `/api/admin/kit-tracking/${rider.userId}?edition=${past}`, {
      vest_given: true,
    });
    expect(write.statusCode).toBe(409);
    expect(
      await t.database.db
        .select({ vestGiven: kitTracking.vestGiven })
        .from(kitTracking)
        .where(and(eq(kitTracking.userId, rider.userId), eq(kitTracking.editionId, past))),
    ).toEqual([{ vestGiven: false }]);
  });
});
