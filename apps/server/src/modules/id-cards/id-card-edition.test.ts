// A sticker print belongs to one edition (DESIGN.md §9): after the rollover, last year's
// prints stay in id_card_prints with last year's edition. The current edition neither shows
// nor counts them (a returning rider's sticker is "not printed" until printed this year),
// staff read them with ?edition=, and this year's prints leave last year's untouched.
import { and, eq, sql } from 'drizzle-orm';
import { describe, expect, it } from 'vitest';
import { idCardPrints } from '../../db/schema/kit';
import { DB_KINDS, useTestApp } from '../../test/build-app';
import { approvedRider, injectAs, rejoinedRider, rollOver } from '../../test/factories';

type Method = 'GET' | 'POST';

describe.each(DB_KINDS)('QR sticker prints across editions (%s)', (kind) => {
  const t = useTestApp(kind, 'admin');
  const { admin } = t.staff;

  const ok = async (method: Method, url: string, payload?: unknown) => {
    const res = await injectAs(t.app, admin, method, url, payload);
    expect(res.statusCode, `${method} ${url}: ${res.body}`).toBe(200);
    return res;
  };
  const data = async (url: string) => (await ok('GET', url)).json().data;
  const sheet = (payload: object) => injectAs(t.app, admin, 'POST', '/api/admin/stickers/sheet', payload);

  const printsByEdition = async (userId: string) =>
    Object.fromEntries(
      (
        await t.database.db
          .select({ editionId: idCardPrints.editionId, count: sql<number>`count(*)::int` })
          .from(idCardPrints)
          .where(eq(idCardPrints.userId, userId))
          .groupBy(idCardPrints.editionId)
      ).map((r) => [r.editionId, r.count]),
    );

  it('counts last year’s prints in last year only, and leaves them alone this year', async () => {
    const rider = await approvedRider(t.app, admin, { firstName: 'Returning', category: 'bagani' });
    const other = await approvedRider(t.app, admin, { firstName: 'Oneyear' });
    await ok('POST', `/api/admin/id-cards/mark-printed/${rider.userId}`, { notes: 'First sticker' });
    expect((await sheet({ riderIds: [rider.userId, other.userId] })).statusCode).toBe(200);
    const lastYear = {
      stats: await data('/api/admin/id-cards/stats'),
      search: await data('/api/admin/id-cards/search'),
      card: await data(`/api/admin/id-cards/user/${rider.userId}`),
    };
    expect(lastYear.stats).toEqual({ total_users: 2, printed_count: 2, not_printed_count: 0, total_prints: 3 });
    expect(lastYear.card).toMatchObject({ is_printed: true, print_count: 2 });

    const { past, next } = await rollOver(t.app, admin);

    // Not entered this year: no sticker, nothing counted.
    expect(await data('/api/admin/id-cards/stats')).toEqual({
      total_users: 0,
      printed_count: 0,
      not_printed_count: 0,
      total_prints: 0,
    });
    expect((await data('/api/admin/id-cards/search')).users).toEqual([]);
    const card = await injectAs(t.app, admin, 'GET', `/api/admin/id-cards/user/${rider.userId}`);
    expect(card.statusCode).toBe(409);
    expect(card.json()).toMatchObject({ code: 'NOT_VERIFIED' });
    expect((await sheet({ riderIds: [rider.userId] })).statusCode).toBe(409);

    // Last year, through the same calls.
    const readLastYear = async () => ({
      stats: await data(`/api/admin/id-cards/stats?edition=${past}`),
      search: await data(`/api/admin/id-cards/search?edition=${past}`),
      card: await data(`/api/admin/id-cards/user/${rider.userId}?edition=${past}`),
    });
    expect(await readLastYear()).toEqual(lastYear);

    // This year: the rider joins again; their sticker is not printed yet, whatever last year's.
    await rejoinedRider(t.app, admin, rider);
    expect(await data(`/api/admin/id-cards/user/${rider.userId}`)).toMatchObject({
      is_printed: false,
      print_count: 0,
      printed_at: null,
    });
    expect(await data('/api/admin/id-cards/stats')).toEqual({
      total_users: 1,
      printed_count: 0,
      not_printed_count: 1,
      total_prints: 0,
    });
    expect((await data('/api/admin/id-cards/search?isPrinted=false')).users.map((u: { id: string }) => u.id)).toEqual([
      rider.userId,
    ]);

    // This year's prints: the sheet of the unprinted takes them, then a reprint counts from there.
    const unprinted = await sheet({ allUnprinted: true });
    expect(unprinted.statusCode, unprinted.body).toBe(200);
    expect(unprinted.headers['x-sticker-count']).toBe('1');
    const reprint = await ok('POST', `/api/admin/id-cards/mark-printed/${rider.userId}`, {});
    expect(reprint.json().data).toMatchObject({ id: rider.userId, print_count: 2 });
    expect(await data('/api/admin/id-cards/stats')).toEqual({
      total_users: 1,
      printed_count: 1,
      not_printed_count: 0,
      total_prints: 2,
    });

    // Last year reads exactly as it did, and its rows are as they were.
    expect(await readLastYear()).toEqual(lastYear);
    expect(await printsByEdition(rider.userId)).toEqual({ [past]: 2, [next]: 2 });
    expect(await printsByEdition(other.userId)).toEqual({ [past]: 1 });
    // A past edition is read-only.
    const write = await injectAs(
      t.app,
      admin,
      'POST',
      `/api/admin/id-cards/mark-printed/${rider.userId}?edition=${past}`,
      {},
    );
    expect(write.statusCode).toBe(409);
    const pastRows = await t.database.db
      .select({ id: idCardPrints.id })
      .from(idCardPrints)
      .where(and(eq(idCardPrints.userId, rider.userId), eq(idCardPrints.editionId, past)));
    expect(pastRows).toHaveLength(2);
  });
});
