// Entries (DESIGN.md §9): GET /api/my/entries answers the signed-in rider's entries, with
// verification and, once verified, the result. Staff enter no edition.
import type { Edition, MyEntry } from '@rally/shared/contracts/editions';
import { describe, expect, it } from 'vitest';
import { DB_KINDS, useTestApp } from '../../test/build-app';
import { type Actor, approvedRider, injectAs, registerRider } from '../../test/factories';

describe.each(DB_KINDS)('entries (%s)', (kind) => {
  const t = useTestApp(kind, 'admin', 'marshall');
  const { admin, marshall } = t.staff;
  const call = (actor: Actor | null, method: 'GET', url: string) => injectAs(t.app, actor, method, url);
  const current = async () =>
    ((await call(null, 'GET', '/api/editions')).json().data as Edition[]).find((e) => e.current) as Edition;

  it('answers a rider their entry in the current edition, with the result once verified', async () => {
    const { id, name, year } = await current();
    const entries = async (actor: Actor | null) => {
      const res = await call(actor, 'GET', '/api/my/entries');
      return { status: res.statusCode, data: res.json().data as MyEntry[] };
    };
    const pending = await registerRider(t.app);
    expect(await entries(pending)).toEqual({
      status: 200,
      data: [
        {
          id: expect.any(String),
          editionId: id,
          editionName: name,
          year,
          current: true,
          riderNumber: pending.riderNumber,
          category: 'bagani',
          verificationCode: pending.verificationCode,
          verificationStatus: 'pending',
          result: null,
        },
      ],
    });
    const verified = await approvedRider(t.app, admin);
    const [entry] = (await entries(verified)).data;
    expect(entry).toMatchObject({ verificationStatus: 'verified', result: { state: 'not_started', elapsedMs: null } });
    // Staff have no entry; signed out is refused.
    expect(await entries(marshall)).toEqual({ status: 200, data: [] });
    expect((await call(null, 'GET', '/api/my/entries')).statusCode).toBe(401);
  });
});
