// The Analytics tab counts one edition's entries (DESIGN.md §9): after the rollover a
// returning rider has a verification in each edition, and this year's figures count them
// once, by this year's entry; last year's, read with ?edition=, are as they were.
import { describe, expect, it } from 'vitest';
import { DB_KINDS, useTestApp } from '../../test/build-app';
import { approvedRider, injectAs, rejoinedRider, rollOver } from '../../test/factories';

describe.each(DB_KINDS)('analytics of one edition (%s)', (kind) => {
  const t = useTestApp(kind, 'admin');
  const { admin } = t.staff;

  const read = async (edition?: string) => {
    const res = await injectAs(t.app, admin, 'GET', `/api/admin/analytics${edition ? `?edition=${edition}` : ''}`);
    expect(res.statusCode, res.body).toBe(200);
    return res.json().data;
  };
  const total = (lines: Array<{ riders: number }>) => lines.reduce((sum, l) => sum + l.riders, 0);

  it('counts a returning rider once, by this year’s entry', async () => {
    const returning = await approvedRider(t.app, admin, { category: 'bagani', paymentMethod: 'gcash' });
    await approvedRider(t.app, admin, { category: 'lakan', paymentMethod: 'gcash' });
    const lastYear = await read();
    expect(lastYear.riders).toBe(2);
    expect(lastYear.status).toEqual({ verified: 2, pending: 0, rejected: 0 });

    const { past } = await rollOver(t.app, admin);
    await rejoinedRider(t.app, admin, returning, { paymentMethod: 'cash' });

    const now = await read();
    expect(now.riders).toBe(1);
    expect(now.status).toEqual({ verified: 1, pending: 0, rejected: 0 });
    expect(now.payment_methods).toEqual(
      expect.arrayContaining([
        { method: 'cash', riders: 1 },
        { method: 'gcash', riders: 0 },
      ]),
    );
    expect(total(now.sizes.tshirt)).toBe(1);
    expect(now.turnaround.verified).toBe(1);

    const then = await read(past);
    expect(then.riders).toBe(2);
    expect(then.status).toEqual(lastYear.status);
    expect(then.payment_methods).toEqual(lastYear.payment_methods);
    expect(then.sizes).toEqual(lastYear.sizes);
    expect(then.turnaround).toEqual(lastYear.turnaround);
  });
});
