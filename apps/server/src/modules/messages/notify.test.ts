// Who hears what: the events of the real routes write the outbox rows they should, to the
// addresses they should, and nothing for a channel that is off. Email and SMS are on (their
// settings point at closed ports) and the worker is off, so every row stays as written.
import { randomBytes, randomUUID } from 'node:crypto';
import { and, eq } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { entries } from '../../db/schema/entries';
import { followers, notificationSettings, outboxMessages, pushSubscriptions } from '../../db/schema/messages';
import { buildTestApp, DB_KINDS, type TestApp } from '../../test/build-app';
import { type Actor, approvedRider, injectAs, registerRider, staff, syncScan } from '../../test/factories';
import { addPushDevice } from '../../test/push-devices';
import { writeOnlyMessages } from '../../test/write-only-messages';
import { SILENT_MESSENGER } from './messenger';
import { notifyUser } from './notify';

const WRITE_ONLY_MESSAGES = writeOnlyMessages();

describe.each(DB_KINDS)('who hears what (%s)', (kind) => {
  let t: TestApp;
  let admin: Actor;
  let marshall: Actor;
  let stationId: string;

  beforeAll(async () => {
    t = await buildTestApp(kind, { messages: WRITE_ONLY_MESSAGES });
    admin = await staff(t.app, t.database.db, 'admin');
    marshall = await staff(t.app, t.database.db, 'marshall');
    const st = await injectAs(t.app, admin, 'POST', '/api/admin/stations', {
      name: 'Checkpoint Malaybalay',
      kind: 'checkpoint',
    });
    expect(st.statusCode, st.body).toBe(201);
    stationId = st.json().data.id;
  });
  afterAll(async () => t?.close());

  const rowsFor = (where: { userId?: string; template?: string; incidentId?: string }) =>
    t.database.db
      .select()
      .from(outboxMessages)
      .where(
        and(
          where.userId ? eq(outboxMessages.userId, where.userId) : undefined,
          where.template ? eq(outboxMessages.template, where.template) : undefined,
          where.incidentId ? eq(outboxMessages.incidentId, where.incidentId) : undefined,
        ),
      );

  /** An account's signed-in browser, or (null) a follower's. */
  async function subscribe(actor: Actor | null) {
    if (actor) return addPushDevice(t.database.db, actor);
    const [row] = await t.database.db
      .insert(pushSubscriptions)
      .values({ userId: null, endpoint: `https://push.example.com/${randomUUID()}`, p256dh: 'k', auth: 'a' })
      .returning({ id: pushSubscriptions.id });
    return row?.id as string;
  }

  async function follow(riderId: string, how: { email: string } | { pushSubscriptionId: string }, confirmed: boolean) {
    await t.database.db.insert(followers).values({
      riderId,
      ...how,
      tokenHash: randomBytes(16).toString('hex'),
      confirmedAt: confirmed ? new Date() : null,
    });
  }

  it('tells a rider their registration (with the code), then the verification decision', async () => {
    const rider = await registerRider(t.app);
    const received = await rowsFor({ userId: rider.userId, template: 'registration_received' });
    // Email and SMS on, no browser subscribed: one email, one text to the E.164 number.
    expect(received.map((r) => [r.channel, r.address]).sort()).toEqual([
      ['email', rider.email],
      ['sms', '+639171234567'],
    ]);
    expect(received[0]?.data).toMatchObject({ verificationCode: rider.verificationCode });
    expect(received.every((r) => r.status === 'pending')).toBe(true);

    const verify = await injectAs(t.app, admin, 'POST', '/api/admin/verifications/verify', {
      verification_code: rider.verificationCode,
      action: 'verified',
    });
    expect(verify.statusCode, verify.body).toBe(200);
    const verified = await rowsFor({ userId: rider.userId, template: 'verified' });
    expect(verified).toHaveLength(2);
    expect(verified[0]?.data).toMatchObject({ riderNumber: rider.riderNumber });

    const other = await registerRider(t.app);
    await subscribe(other);
    const reject = await injectAs(t.app, admin, 'POST', '/api/admin/verifications/verify', {
      verification_code: other.verificationCode,
      action: 'rejected',
      notes: 'Receipt is unreadable',
    });
    expect(reject.statusCode, reject.body).toBe(200);
    const rejected = await rowsFor({ userId: other.userId, template: 'rejected' });
    // The rider's browser too, now that one is subscribed.
    expect(rejected.map((r) => r.channel).sort()).toEqual(['email', 'push', 'sms']);
    expect(rejected[0]?.data).toMatchObject({ reason: 'Receipt is unreadable' });
  });

  it('pushes a new SOS to on-call staff only, and tells the rider who acknowledged it', async () => {
    const rider = await approvedRider(t.app, admin);
    const marshallDevice = await subscribe(marshall);
    await t.database.db.insert(notificationSettings).values({ userId: marshall.userId, onCall: true });
    // Off call: hears nothing. A rider marked on call (only staff may be): hears nothing either.
    const offCall = await staff(t.app, t.database.db, 'admin');
    await subscribe(offCall);
    const prankster = await approvedRider(t.app, admin);
    const pranksterDevice = await subscribe(prankster);
    await t.database.db.insert(notificationSettings).values({ userId: prankster.userId, onCall: true });

    const id = randomUUID();
    const sos = await injectAs(t.app, rider, 'POST', '/api/my/sos', { id, kind: 'crash', note: 'Near the bridge' });
    expect(sos.statusCode, sos.body).toBe(201);
    const opened = await rowsFor({ template: 'incident_opened', incidentId: id });
    expect(opened.map((r) => r.address)).toContain(marshallDevice);
    expect(opened.map((r) => r.address)).not.toContain(pranksterDevice);
    expect(opened.every((r) => r.channel === 'push' && r.userId !== offCall.userId)).toBe(true);
    expect(opened[0]?.data).toMatchObject({ incidentId: id, riderNumber: rider.riderNumber, kindLabel: 'Crash' });

    const ack = await injectAs(t.app, marshall, 'POST', `/api/admin/incidents/${id}/acknowledge`);
    expect(ack.statusCode, ack.body).toBe(200);
    const told = await rowsFor({ userId: rider.userId, template: 'sos_acknowledged' });
    expect(told.map((r) => r.channel).sort()).toEqual(['email', 'sms']);
    expect(told[0]).toMatchObject({ incidentId: id, data: { status: 'acknowledged' } });
    // The incident's timeline lists its messages, masked as the delivery log masks them
    // (in full for a marshal, who may read users; not for an officer), a push by its host only.
    const steps = ack.json().data.messages as Array<{
      template: string;
      channel: string;
      recipient: string;
      status: string;
    }>;
    expect(steps.map((s) => s.template)).toEqual(expect.arrayContaining(['incident_opened', 'sos_acknowledged']));
    expect(steps.find((s) => s.template === 'sos_acknowledged' && s.channel === 'sms')?.recipient).toBe(
      '+639171234567',
    );
    const officer = await staff(t.app, t.database.db, 'officer');
    const listed = await injectAs(t.app, officer, 'GET', '/api/admin/incidents');
    const seen = (listed.json().data as Array<{ id: string; messages: typeof steps }>).find((i) => i.id === id);
    expect(seen?.messages.find((s) => s.template === 'sos_acknowledged' && s.channel === 'sms')?.recipient).toBe(
      '+63*****4567',
    );
    expect(steps.find((s) => s.template === 'incident_opened')?.recipient).toMatch(/^push: [a-z0-9.-]+(:\d+)?$/);
    expect(steps.every((s) => s.status === 'pending')).toBe(true);
  });

  it('tells a DNF rider, and their confirmed followers that the rider is out', async () => {
    const rider = await approvedRider(t.app, admin);
    await follow(rider.userId, { email: `fan.${randomUUID()}@example.com` }, true);
    const res = await injectAs(t.app, admin, 'POST', `/api/admin/event/riders/${rider.userId}/decision`, {
      decision: 'dnf',
      reason: 'withdrew',
      note: 'Engine failure',
    });
    expect(res.statusCode, res.body).toBe(200);
    const dnf = await rowsFor({ userId: rider.userId, template: 'dnf_decided' });
    expect(dnf).toHaveLength(2);
    expect(dnf[0]?.data).toMatchObject({ reason: 'Withdrew' });
    const out = await rowsFor({ template: 'follower_out' });
    const mine = out.filter((r) => r.data.riderId === rider.userId);
    expect(mine).toHaveLength(1);
    // Followers never hear the note, a position or an incident.
    expect(JSON.stringify(mine[0]?.data)).not.toContain('Engine failure');
  });

  it("tells a rider's confirmed followers of a passage, and unconfirmed ones nothing", async () => {
    const rider = await approvedRider(t.app, admin);
    const fan = `fan.${randomUUID()}@example.com`;
    const stranger = `stranger.${randomUUID()}@example.com`;
    const browser = await subscribe(null);
    await follow(rider.userId, { email: fan }, true);
    await follow(rider.userId, { pushSubscriptionId: browser }, true);
    await follow(rider.userId, { email: stranger }, false);
    const [coded] = await t.database.db
      .select({ code: entries.riderCode })
      .from(entries)
      .where(eq(entries.userId, rider.userId));
    const scan = await syncScan(t.app, marshall, { stationId, riderCode: coded?.code });
    expect(scan.status).toBe('accepted');
    const passage = (await rowsFor({ template: 'follower_passage' })).filter((r) => r.data.riderId === rider.userId);
    expect(passage.map((r) => [r.channel, r.address]).sort()).toEqual([
      ['email', fan],
      ['push', browser],
    ]);
    expect(passage[0]?.data).toMatchObject({ stationName: 'Checkpoint Malaybalay', riderNumber: rider.riderNumber });
  });

  it('writes nothing for a channel that is off', async () => {
    const rider = await registerRider(t.app);
    await subscribe(rider);
    const smsOnly = { ...SILENT_MESSENGER, on: new Set(['sms'] as const) };
    await notifyUser(t.database.db, smsOnly, rider.userId, 'test_message', {});
    await notifyUser(t.database.db, SILENT_MESSENGER, rider.userId, 'test_message', {});
    const rows = await rowsFor({ userId: rider.userId, template: 'test_message' });
    expect(rows.map((r) => r.channel)).toEqual(['sms']);
  });
});
