// Issue 41: the taken list is answered from the answer cache, which on the embedded database
// keeps an answer until the next write. A number held for a returning rider stops being
// taken at a moment the answer itself names, so the stored answer ends then, not at the
// next write (moved here with the app's clock, as the test clock moves a running server).
import { randomUUID } from 'node:crypto';
import type { Edition } from '@rally/shared/contracts/editions';
import { describe, expect, it } from 'vitest';
import { DB_KINDS, useTestApp } from '../../test/build-app';
import { type Actor, approvedRider, injectAs } from '../../test/factories';

describe.each(DB_KINDS)('a held number in the cached taken list (%s)', (kind) => {
  const t = useTestApp(kind, 'admin');
  const { admin } = t.staff;
  const ok = async (actor: Actor | null, method: 'GET' | 'POST', url: string, payload?: unknown) => {
    const res = await injectAs(t.app, actor, method, url, payload);
    expect(res.statusCode, `${method} ${url}: ${res.body}`).toBeLessThan(300);
    return res;
  };
  const taken = async () => (await ok(null, 'GET', '/api/rider-numbers/taken')).json().data.takenNumbers as number[];

  it('drops the number from the taken list when its hold ends, with no write in between', async () => {
    const returning = await approvedRider(t.app, admin);
    const outgoing = ((await ok(null, 'GET', '/api/editions')).json().data as Edition[]).find((e) => e.current)!;
    const heldForMs = 10 * 60_000;
    const next = (
      await ok(admin, 'POST', '/api/admin/editions', {
        name: `Warriors ${randomUUID().slice(0, 6)}`,
        year: outgoing.year + 1,
        startsOn: `${outgoing.year + 1}-03-14`,
        endsOn: `${outgoing.year + 1}-03-16`,
        numbersHeldUntil: new Date(t.app.clock.now().getTime() + heldForMs).toISOString(),
        copyFrom: outgoing.id,
      })
    ).json().data.edition as Edition;
    await ok(admin, 'POST', `/api/admin/editions/${next.id}/make-current`);

    // Read (and so cached) while the number is held.
    expect(await taken()).toContain(returning.riderNumber);
    const realClock = t.app.clock.now;
    t.app.clock.now = () => new Date(realClock().getTime() + heldForMs + 1000);
    try {
      expect(await taken()).not.toContain(returning.riderNumber);
    } finally {
      t.app.clock.now = realClock;
    }
  });
});
