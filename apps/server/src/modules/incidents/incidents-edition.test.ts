// Issue 40: every edition's incidents and abuse marks share their tables. A past edition's
// rows must never reach this year's answers: not the staff list, the rider's own list, the
// join of a further press, nor the abuse mark that mutes a call.
import { randomUUID } from 'node:crypto';
import type { Incident, MyIncident } from '@rally/shared/contracts/incidents';
import { describe, expect, it } from 'vitest';
import { editions } from '../../db/schema/editions';
import { incidents, sosAbuseMarks } from '../../db/schema/incidents';
import { DB_KINDS, useTestApp } from '../../test/build-app';
import { injectAs, registerRider } from '../../test/factories';

describe.each(DB_KINDS)('incidents of another edition (%s)', (kind) => {
  const t = useTestApp(kind, 'marshall');
  const { marshall } = t.staff;

  it('answers for the current edition only', async () => {
    const rider = await registerRider(t.app);
    const [past] = await t.database.db
      .insert(editions)
      .values({ name: `Rally ${randomUUID()}`, year: 2020, current: false, closedAt: new Date() })
      .returning({ id: editions.id });
    const pastId = randomUUID();
    // Left unresolved last year, and the account marked then.
    await t.database.db.insert(incidents).values({
      id: pastId,
      editionId: past?.id,
      riderId: rider.userId,
      kind: 'crash',
      source: 'rider',
      status: 'open',
    });
    await t.database.db
      .insert(sosAbuseMarks)
      .values({ editionId: past?.id, userId: rider.userId, note: 'Last year', incidentId: pastId });

    const res = await injectAs(t.app, rider, 'POST', '/api/my/sos', { id: randomUUID(), kind: 'lost' });
    expect(res.statusCode, res.body).toBe(201);
    const now = res.json().data.incident;
    // A new incident of its own, ringing: last year's neither takes the press nor mutes it.
    expect(now.id).not.toBe(pastId);
    expect(now).not.toHaveProperty('muted');

    const list = (await injectAs(t.app, marshall, 'GET', '/api/admin/incidents')).json().data as Incident[];
    expect(list.map((i) => i.id)).toContain(now.id);
    expect(list.map((i) => i.id)).not.toContain(pastId);
    expect(list.find((i) => i.id === now.id)?.abuseMark).toBeNull();
    expect((await injectAs(t.app, marshall, 'GET', `/api/admin/incidents/${pastId}`)).statusCode).toBe(404);
    const mine = (await injectAs(t.app, rider, 'GET', '/api/my/incidents')).json().data as MyIncident[];
    expect(mine.map((i) => i.id)).toEqual([now.id]);
    const marks = (await injectAs(t.app, marshall, 'GET', '/api/admin/incidents/abuse-marks')).json().data as Array<{
      userId: string;
    }>;
    expect(marks.map((m) => m.userId)).not.toContain(rider.userId);
  });
});
