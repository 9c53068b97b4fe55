// Issue 41: a rider whose SOS calls staff marked as abuse still read "Waiting for a marshal"
// on their phone, though their calls ring no alarm. Their own incidents now say they are
// muted, so the phone can tell them to call the hotline instead; the mark lifted, they are not.
import { randomUUID } from 'node:crypto';
import { type MyIncident, SOS_MUTED_MESSAGE } from '@rally/shared/contracts/incidents';
import { describe, expect, it } from 'vitest';
import { DB_KINDS, useTestApp } from '../../test/build-app';
import { type Actor, injectAs, registerRider } from '../../test/factories';

describe.each(DB_KINDS)('a marked rider’s own incidents (%s)', (kind) => {
  const t = useTestApp(kind, 'marshall', 'admin');
  const { marshall, admin } = t.staff;
  const sos = async (rider: Actor, kind: string) => {
    const res = await injectAs(t.app, rider, 'POST', '/api/my/sos', { id: randomUUID(), kind });
    expect(res.statusCode, res.body).toBeLessThan(300);
    return res.json();
  };
  const mine = async (rider: Actor) =>
    (await injectAs(t.app, rider, 'GET', '/api/my/incidents')).json().data as MyIncident[];

  it('says which of a rider’s calls rang no alarm', async () => {
    const prankster = await registerRider(t.app);
    const first = (await sos(prankster, 'crash')).data.incident.id as string;
    expect((await mine(prankster))[0]).toMatchObject({ id: first, status: 'open', muted: false });
    const marked = await injectAs(t.app, marshall, 'POST', `/api/admin/incidents/${first}/abuse`, { note: 'Prank' });
    expect(marked.statusCode, marked.body).toBe(200);

    const later = await sos(prankster, 'medical');
    // The answer itself says so, before the list is read again: never "help is on the way".
    expect(later.data.incident).toMatchObject({ status: 'open', muted: true });
    expect(later.message).toBe(SOS_MUTED_MESSAGE);
    const [latest] = await mine(prankster);
    expect(latest).toMatchObject({ id: later.data.incident.id, status: 'open', muted: true });

    // Another rider's calls are as before.
    const genuine = await registerRider(t.app);
    const theirSos = await sos(genuine, 'lost');
    expect(theirSos.message).toBe('SOS received. Help is on the way.');
    expect(theirSos.data.incident).not.toHaveProperty('muted');
    const theirs = theirSos.data.incident.id as string;
    expect(await mine(genuine)).toEqual([expect.objectContaining({ id: theirs, muted: false })]);

    // The mark lifted, the waiting call rings after all: no longer muted.
    const lifted = await injectAs(t.app, admin, 'DELETE', `/api/admin/incidents/abuse-marks/${prankster.userId}`);
    expect(lifted.statusCode, lifted.body).toBe(200);
    expect((await mine(prankster))[0]).toMatchObject({ id: later.data.incident.id, muted: false });
  });
});
