// The SOS escalation: an incident nobody acknowledges is texted to every on-call phone and
// the hotline when its period is up, again each period, and no more once acknowledged. The
// app's clock is moved instead of waiting; the worker is off, so the job runs when called,
// with that clock's time, as the worker would run it.
import { randomUUID } from 'node:crypto';
import { and, eq } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { incidentEscalations, notificationSettings, outboxMessages } from '../../db/schema/messages';
import { users } from '../../db/schema/users';
import { buildTestApp, DB_KINDS, type TestApp } from '../../test/build-app';
import { type Actor, approvedRider, injectAs, staff } from '../../test/factories';
import { addPushDevice } from '../../test/push-devices';
import { writeOnlyMessages } from '../../test/write-only-messages';
import { escalationJob } from './escalation';

const PERIOD_S = 60;

describe.each(DB_KINDS)('SOS escalation (%s)', (kind) => {
  let t: TestApp;
  let admin: Actor;
  let marshall: Actor;
  let marshallDevice: string;

  beforeAll(async () => {
    t = await buildTestApp(kind, {
      messages: writeOnlyMessages({ SOS_ESCALATE_AFTER_S: String(PERIOD_S) }),
    });
    admin = await staff(t.app, t.database.db, 'admin');
    marshall = await staff(t.app, t.database.db, 'marshall');
    // On call, with a phone (written as riders type theirs) and a browser.
    await t.database.db.update(users).set({ phoneNumber: '0918 765 4321' }).where(eq(users.id, marshall.userId));
    await t.database.db.insert(notificationSettings).values({ userId: marshall.userId, onCall: true });
    marshallDevice = await addPushDevice(t.database.db, marshall);
    const hotline = await injectAs(t.app, admin, 'PUT', '/api/admin/settings/event', {
      name: 'Mindanao Warriors Rally',
      startsOn: null,
      endsOn: null,
      hotline: '0917 000 1111',
    });
    expect(hotline.statusCode, hotline.body).toBe(200);
  });
  afterAll(async () => t?.close());

  const escalated = (incidentId: string) =>
    t.database.db
      .select()
      .from(outboxMessages)
      .where(and(eq(outboxMessages.incidentId, incidentId), eq(outboxMessages.template, 'incident_escalated')));

  /** Moves the app's clock `seconds` on from now and runs the job as the worker would. */
  async function after(seconds: number) {
    const at = Date.now() + seconds * 1000;
    t.app.clock.now = () => new Date(at);
    return escalationJob(t.database.db, t.app.messenger).run(t.app.clock.now());
  }

  it('texts on-call phones and the hotline each period until someone acknowledges', async () => {
    const rider = await approvedRider(t.app, admin);
    const id = randomUUID();
    const sos = await injectAs(t.app, rider, 'POST', '/api/my/sos', { id, kind: 'medical' });
    expect(sos.statusCode, sos.body).toBe(201);

    // Not yet due: nothing, and the job says when it will be.
    const next = await after(0);
    expect(await escalated(id)).toHaveLength(0);
    expect(next && next.getTime() - Date.now()).toBeGreaterThan((PERIOD_S - 10) * 1000);

    await after(PERIOD_S + 1);
    const first = await escalated(id);
    expect(first.map((r) => [r.channel, r.address]).sort()).toEqual([
      ['push', marshallDevice],
      ['sms', '+639170001111'],
      ['sms', '+639187654321'],
    ]);
    expect(first[0]?.data).toMatchObject({ incidentId: id, riderNumber: rider.riderNumber, round: 1 });

    // The same moment again: that round is done.
    await after(PERIOD_S + 2);
    expect(await escalated(id)).toHaveLength(3);

    await after(2 * PERIOD_S + 5);
    const second = await escalated(id);
    expect(second).toHaveLength(6);
    expect(second.filter((r) => r.data.round === 2)).toHaveLength(3);

    const ack = await injectAs(t.app, marshall, 'POST', `/api/admin/incidents/${id}/acknowledge`);
    expect(ack.statusCode, ack.body).toBe(200);
    // The timeline lists the rounds' texts.
    const steps = ack.json().data.messages as Array<{ template: string; round?: number }>;
    expect(steps.filter((s) => s.template === 'incident_escalated' && s.round === 2)).toHaveLength(3);

    await after(5 * PERIOD_S);
    expect(await escalated(id)).toHaveLength(6);
    expect(
      await t.database.db.select().from(incidentEscalations).where(eq(incidentEscalations.incidentId, id)),
    ).toHaveLength(0);
  });

  it('raises nothing for the calls of an account marked as abuse', async () => {
    const prankster = await approvedRider(t.app, admin);
    const first = randomUUID();
    expect((await injectAs(t.app, prankster, 'POST', '/api/my/sos', { id: first, kind: 'other' })).statusCode).toBe(
      201,
    );
    const mark = await injectAs(t.app, marshall, 'POST', `/api/admin/incidents/${first}/abuse`, {
      note: 'Prank calls',
    });
    expect(mark.statusCode, mark.body).toBe(200);
    const muted = randomUUID();
    expect((await injectAs(t.app, prankster, 'POST', '/api/my/sos', { id: muted, kind: 'other' })).statusCode).toBe(
      201,
    );
    const rows = await t.database.db.select().from(outboxMessages).where(eq(outboxMessages.incidentId, muted));
    expect(rows).toHaveLength(0);
    expect(
      await t.database.db.select().from(incidentEscalations).where(eq(incidentEscalations.incidentId, muted)),
    ).toHaveLength(0);
  });

  it('keeps no escalation for an incident staff opened (they took the call)', async () => {
    const rider = await approvedRider(t.app, admin);
    const res = await injectAs(t.app, marshall, 'POST', '/api/admin/incidents', {
      riderNumber: rider.riderNumber,
      kind: 'mechanical',
    });
    expect(res.statusCode, res.body).toBe(201);
    const id = res.json().data.id as string;
    expect(
      await t.database.db.select().from(incidentEscalations).where(eq(incidentEscalations.incidentId, id)),
    ).toHaveLength(0);
  });
});
