// The organisers' spreadsheets of one edition (DESIGN.md §9): after the rollover a returning
// rider has a verification in each edition. This year's payments, sizes, insurance and
// masterlist list them once, with this year's entry; last year's rider who did not come back
// is not in them; ?edition= of last year still lists both as they were.
import { describe, expect, it } from 'vitest';
import { DB_KINDS, useTestApp } from '../../test/build-app';
import { approvedRider, injectAs, rejoinedRider, rollOver } from '../../test/factories';

describe.each(DB_KINDS)('exports of one edition (%s)', (kind) => {
  const t = useTestApp(kind, 'admin');
  const { admin } = t.staff;

  /** The CSV's lines after the header (the files here hold no quoted line breaks). */
  const lines = async (name: string, edition?: string) => {
    const res = await injectAs(
      t.app,
      admin,
      'GET',
      // The insurers' and the masterlist carry birthdates: they ask why (export-reason.test.ts).
      `/api/admin/exports/${name}.csv?reason=Edition+check${edition ? `&edition=${edition}` : ''}`,
    );
    expect(res.statusCode, res.body).toBe(200);
    return res.rawPayload
      .toString('utf8')
      .replace(/^\uFEFF/, '')
      .split('\r\n')
      .filter(Boolean)
      .slice(1);
  };
  const linesOf = (all: string[], riderNumber: number) => all.filter((l) => l.startsWith(`${riderNumber},`));
  /** Riders counted for one item of the sizes export (its last column). */
  const sized = (all: string[], item: string) =>
    all.filter((l) => l.startsWith(`${item},`)).reduce((sum, l) => sum + Number(l.split(',').at(-1)), 0);

  it('lists a returning rider once, with this year’s entry, and last year’s as it was', async () => {
    const returning = await approvedRider(t.app, admin, { category: 'bagani' });
    const oneYear = await approvedRider(t.app, admin, { category: 'bagani' });
    const lastYear = {
      payments: await lines('payments'),
      sizes: await lines('sizes'),
      insurance: await lines('insurance-bagani'),
    };
    expect(lastYear.payments).toHaveLength(2);

    const { past } = await rollOver(t.app, admin);
    const code = await rejoinedRider(t.app, admin, returning);

    const payments = await lines('payments');
    expect(payments).toHaveLength(1);
    expect(payments[0]).toContain(code);
    expect(linesOf(payments, oneYear.riderNumber)).toEqual([]);
    const sizes = await lines('sizes');
    for (const item of ['T-shirt', 'Finisher Sleeve', 'Vest']) expect(sized(sizes, item), item).toBe(1);
    const insurance = await lines('insurance-bagani');
    expect(insurance).toHaveLength(1);
    expect(linesOf(insurance, returning.riderNumber)).toHaveLength(1);
    const masterlist = await lines('masterlist');
    expect(linesOf(masterlist, returning.riderNumber)).toHaveLength(1);
    expect(linesOf(masterlist, returning.riderNumber)[0]).toContain('verified');

    expect({
      payments: await lines('payments', past),
      sizes: await lines('sizes', past),
      insurance: await lines('insurance-bagani', past),
    }).toEqual(lastYear);
  });
});
