// SMS in, end to end on a real app: signed webhooks as SMS Gateway for Android sends them
// (test/sms-gateway-sim.ts), the incident or scans they cause, and the reply the app's own
// outbox worker texts back through the same simulated phone.
import { randomUUID } from 'node:crypto';
import { SMS_HELP_TEXT } from '@rally/shared/catalog/messages';
import { and, eq } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { parseMessages } from '../../config';
import { scans } from '../../db/schema/event-day';
import { incidents } from '../../db/schema/incidents';
import { inboundTexts, outboxMessages, smsPins } from '../../db/schema/messages';
import { users } from '../../db/schema/users';
import { buildTestApp, DB_KINDS, type TestApp } from '../../test/build-app';
import { type Actor, approvedRider, injectAs, staff } from '../../test/factories';
import {
  type ReceivedText,
  type SmsGatewaySim,
  signedInboundText,
  startSmsGatewaySim,
} from '../../test/sms-gateway-sim';

const KEY = 'sms-webhook-key-for-tests-0123456789';
/** The shared marshal's SMS PIN (set through PUT /api/my/sms-pin). */
const MARSHAL_PIN = '482913';

/** A mobile number of this test's own ("0966 xxx xxxx"), and its E.164 form. */
function newPhone() {
  const digits = String(Math.floor(Math.random() * 1e7)).padStart(7, '0');
  return { typed: `0966 ${digits.slice(0, 3)} ${digits.slice(3)}`, e164: `+63966${digits}` };
}

describe.each(DB_KINDS)('SMS in (%s)', (kind) => {
  let phone: SmsGatewaySim;
  let t: TestApp;
  let admin: Actor;
  let marshal: ReturnType<typeof newPhone>;
  let stationId: string;

  /** A marshal of this test's own: a fresh phone number and, given one, their SMS PIN set. */
  async function newMarshal(pin?: string) {
    const actor = await staff(t.app, t.database.db, 'marshall');
    const own = newPhone();
    await t.database.db.update(users).set({ phoneNumber: own.typed }).where(eq(users.id, actor.userId));
    if (pin) {
      const set = await injectAs(t.app, actor, 'PUT', '/api/my/sms-pin', { pin });
      expect(set.statusCode, set.body).toBe(204);
    }
    return { actor, phone: own };
  }

  beforeAll(async () => {
    phone = await startSmsGatewaySim();
    t = await buildTestApp(kind, {
      messages: parseMessages({ SMS_GATEWAY_URL: phone.url, SMS_WEBHOOK_KEY: KEY }),
    });
    admin = await staff(t.app, t.database.db, 'admin');
    marshal = (await newMarshal(MARSHAL_PIN)).phone;
    const hotline = await injectAs(t.app, admin, 'PUT', '/api/admin/settings/event', {
      name: 'Mindanao Warriors Rally',
      startsOn: null,
      endsOn: null,
      hotline: '0917 000 1111',
    });
    expect(hotline.statusCode, hotline.body).toBe(200);
    const station = await injectAs(t.app, admin, 'POST', '/api/admin/stations', {
      name: 'Calinan',
      kind: 'checkpoint',
      code: 'cp3',
    });
    expect(station.statusCode, station.body).toBe(201);
    stationId = station.json().data.id;
  });
  afterAll(async () => {
    await t?.close();
    await phone?.close();
  });

  const send = (signed: ReturnType<typeof signedInboundText>) =>
    t.app.inject({ method: 'POST', url: '/api/sms/inbound', headers: signed.headers, payload: signed.body });
  const text = (received: ReceivedText) => send(signedInboundText(KEY, received));
  const replies = (address: string) =>
    t.database.db
      .select()
      .from(outboxMessages)
      .where(and(eq(outboxMessages.address, address), eq(outboxMessages.template, 'sms_reply')));
  const stored = async (webhookId: string) =>
    (await t.database.db.select().from(inboundTexts).where(eq(inboundTexts.webhookId, webhookId)))[0];

  it('takes only a signed, fresh webhook, and a repeat of one changes nothing', async () => {
    const sender = newPhone();
    const signed = signedInboundText(KEY, { message: 'hello?', phoneNumber: sender.e164 });
    const unsigned = await t.app.inject({
      method: 'POST',
      url: '/api/sms/inbound',
      headers: { 'content-type': 'application/json' },
      payload: signed.body,
    });
    expect(unsigned.statusCode).toBe(401);
    expect(unsigned.json()).toMatchObject({ code: 'SMS_SIGNATURE', message: expect.stringMatching(/required/) });
    const forged = await send(
      signedInboundText('another-key-entirely-0123456789', { message: 'hi', phoneNumber: sender.e164 }),
    );
    expect(forged.statusCode).toBe(401);
    const tampered = await send({ ...signed, body: signed.body.replace('hello?', 'SOS 1 x') });
    expect(tampered.statusCode).toBe(401);
    const old = Math.floor(Date.now() / 1000) - 301;
    const stale = await send(signedInboundText(KEY, { message: 'hi', phoneNumber: sender.e164 }, { timestamp: old }));
    expect(stale.statusCode).toBe(401);
    expect(stale.json().message).toMatch(/5 minutes/);
    expect(await replies(sender.e164)).toHaveLength(0);

    const first = await send(signed);
    expect(first.statusCode, first.body).toBe(200);
    expect(first.json().data).toEqual({ outcome: 'help', repeat: false, replied: true });
    const again = await send(signed);
    expect(again.statusCode).toBe(200);
    expect(again.json()).toMatchObject({ message: 'Already handled', data: { outcome: 'help', repeat: true } });
    expect(await replies(sender.e164)).toHaveLength(1);
    expect((await stored(signed.id))?.outcome).toBe('help');
    const got = await phone.waitForText(sender.e164);
    expect(got.text).toBe(SMS_HELP_TEXT);

    // One recorded but never finished (the server stopped midway) is handled when it comes again.
    const interrupted = signedInboundText(KEY, { message: 'where is CP3?', phoneNumber: sender.e164 });
    await t.database.db.insert(inboundTexts).values({
      webhookId: interrupted.id,
      phoneNumber: sender.e164,
      message: 'where is CP3?',
      receivedAt: new Date(),
      outcome: 'received',
    });
    expect((await send(interrupted)).json().data).toEqual({ outcome: 'help', repeat: false, replied: true });
    expect(await replies(sender.e164)).toHaveLength(2);

    // Signed but not the webhook: 400, nothing recorded.
    const notJson = await send(signedInboundTextRaw('not json'));
    expect(notJson.statusCode).toBe(400);
    const id = randomUUID();
    const shapeless = await send(signedInboundTextRaw(JSON.stringify({ event: 'sms:received', id, payload: {} })));
    expect(shapeless.statusCode).toBe(400);
    expect(shapeless.json().message).toMatch(/payload\.message/);
    expect(await stored(id)).toBeUndefined();
  });

  it('opens one incident for an SOS from the rider’s registered phone, and texts back help and the hotline', async () => {
    const own = newPhone();
    const rider = await approvedRider(t.app, admin, { phoneNumber: own.typed });
    const sos = signedInboundText(KEY, {
      message: `SOS ${rider.riderNumber}\ncrash near the bridge`,
      phoneNumber: own.e164,
    });
    const res = await send(sos);
    expect(res.statusCode, res.body).toBe(200);
    expect(res.json().data).toEqual({ outcome: 'sos', repeat: false, replied: true });
    expect((await send(sos)).json().data.repeat).toBe(true);
    const opened = await t.database.db.select().from(incidents).where(eq(incidents.riderId, rider.userId));
    expect(opened).toHaveLength(1);
    expect(opened[0]).toMatchObject({ kind: 'crash', note: 'crash near the bridge', source: 'sms', status: 'open' });
    // The rider's phone also gets the registration's own texts: the reply is the SOS one.
    const reply = await phone.waitForText(own.e164, (r) => r.text.startsWith('Help is on the way'));
    expect(reply.text).toMatch(new RegExp(`^Help is on the way: SOS for rider #${rider.riderNumber} \\(Crash\\)`));
    expect(reply.text).toContain('Hotline: 0917 000 1111.');
    expect(await replies(own.e164)).toHaveLength(1);

    // Someone else's phone cannot raise an SOS for this rider.
    const stranger = newPhone();
    const refused = await text({ message: `SOS ${rider.riderNumber} lost`, phoneNumber: stranger.e164 });
    expect(refused.json().data).toEqual({ outcome: 'sos_refused', repeat: false, replied: true });
    const [polite] = await replies(stranger.e164);
    expect(polite?.data).toEqual({
      text: `Sorry, this phone is not the registered number of rider #${rider.riderNumber}, so no SOS was opened. Hotline: 0917 000 1111.`,
    });
    expect(await t.database.db.select().from(incidents).where(eq(incidents.riderId, rider.userId))).toHaveLength(1);
  });

  it('records a marshal’s station text as scans with source sms, once, and texts back a summary', async () => {
    const [one, two] = [await approvedRider(t.app, admin), await approvedRider(t.app, admin)];
    const receivedAt = new Date(Date.now() - 120_000);
    const at = new Date(receivedAt.getTime() + 8 * 3600_000).toISOString().replace('Z', '+08:00');
    // The phone reports the marshal's number in another form than the account holds it.
    const signed = signedInboundText(KEY, {
      message: `cp3 ${one.riderNumber}, ${two.riderNumber} 651 pin ${MARSHAL_PIN}`,
      phoneNumber: `+63 ${marshal.e164.slice(3)}`,
      receivedAt: at,
    });
    const res = await send(signed);
    expect(res.statusCode, res.body).toBe(200);
    expect(res.json().data).toEqual({ outcome: 'scans', repeat: false, replied: true });
    expect((await send(signed)).json().data.repeat).toBe(true);
    const recorded = await t.database.db.select().from(scans).where(eq(scans.stationId, stationId));
    expect(recorded).toHaveLength(3);
    expect(recorded.every((s) => s.source === 'sms' && s.scannedAt.getTime() === receivedAt.getTime())).toBe(true);
    expect(
      recorded
        .filter((s) => s.status === 'accepted')
        .map((s) => s.riderId)
        .sort(),
    ).toEqual([one.userId, two.userId].sort());
    const reply = await phone.waitForText(marshal.e164, (r) => r.text.startsWith('CP3:'));
    expect(reply.text).toBe(`CP3: ${one.riderNumber} ok, ${two.riderNumber} ok, 651 unknown rider`);

    // A rider's phone is not a marshal's: nothing is recorded.
    const riderPhone = newPhone();
    await approvedRider(t.app, admin, { phoneNumber: riderPhone.typed });
    const refused = await text({ message: `CP3 ${one.riderNumber} PIN ${MARSHAL_PIN}`, phoneNumber: riderPhone.e164 });
    expect(refused.json().data.outcome).toBe('scans_refused');
    expect(await t.database.db.select().from(scans).where(eq(scans.stationId, stationId))).toHaveLength(3);
  });

  it('holds a text’s scans for review without the sender’s SMS PIN, or with a wrong one, and tells the sender', async () => {
    const { phone: own } = await newMarshal('7305');
    const [one, two] = [await approvedRider(t.app, admin), await approvedRider(t.app, admin)];
    const scansOf = async (riderId: string) =>
      t.database.db
        .select()
        .from(scans)
        .where(and(eq(scans.stationId, stationId), eq(scans.riderId, riderId)));

    // No PIN: anyone could have sent this from a forged number.
    const bare = await text({ message: `CP3 ${one.riderNumber} ${two.riderNumber}`, phoneNumber: own.e164 });
    expect(bare.statusCode, bare.body).toBe(200);
    expect(bare.json().data).toEqual({ outcome: 'scans_unverified', repeat: false, replied: true });
    for (const rider of [one, two]) {
      const [kept] = await scansOf(rider.userId);
      expect(kept).toMatchObject({ status: 'flagged', reason: 'sms_unverified', source: 'sms' });
    }
    const told = await phone.waitForText(own.e164, (r) => r.text.startsWith('CP3: 2 riders kept for review'));
    expect(told.text).toBe(
      'CP3: 2 riders kept for review, not counted: a text needs your SMS PIN (set it in My Profile). Send: CP3 <rider nos.> PIN <your PIN>.',
    );

    // A wrong PIN: kept the same way, never accepted; the PIN is not stored with the text.
    const wrong = signedInboundText(KEY, { message: `CP3 ${one.riderNumber} pin 1111`, phoneNumber: own.e164 });
    expect((await send(wrong)).json().data).toEqual({ outcome: 'scans_unverified', repeat: false, replied: true });
    expect((await scansOf(one.userId)).map((s) => [s.status, s.reason])).toEqual([
      ['flagged', 'sms_unverified'],
      ['flagged', 'sms_unverified'],
    ]);
    expect((await stored(wrong.id))?.message).toBe(`CP3 ${one.riderNumber} PIN ****`);
    const [wrongReply] = (await replies(own.e164)).filter((r) => String(r.data.text).includes('wrong PIN'));
    expect(wrongReply?.data.text).toBe('CP3: 1 rider kept for review, not counted: wrong PIN.');

    // The right PIN (any case of the word): counted as the scanner would.
    const right = await text({ message: `CP3 ${two.riderNumber} Pin 7305`, phoneNumber: own.e164 });
    expect(right.json().data).toEqual({ outcome: 'scans', repeat: false, replied: true });
    expect((await scansOf(two.userId)).map((s) => s.status).sort()).toEqual(['accepted', 'flagged']);
    await phone.waitForText(own.e164, (r) => r.text === `CP3: ${two.riderNumber} ok`);

    // A marshal who never set a PIN is told to set one.
    const { phone: unset } = await newMarshal();
    const noPin = await text({ message: `CP3 ${one.riderNumber} PIN 1234`, phoneNumber: unset.e164 });
    expect(noPin.json().data).toEqual({ outcome: 'scans_unverified', repeat: false, replied: true });
    const [setOne] = await replies(unset.e164);
    expect(setOne?.data.text).toBe(
      'CP3: 1 rider kept for review, not counted: no SMS PIN is set for this phone’s account: set one in My Profile.',
    );

    // The review queue names the reason.
    const queue = await injectAs(t.app, admin, 'GET', '/api/admin/scans/flagged?limit=200');
    expect(queue.statusCode, queue.body).toBe(200);
    const held = queue.json().data.scans.filter((s: { rider: { id: string } | null }) => s.rider?.id === one.userId);
    expect(held.length).toBeGreaterThan(0);
    expect(held.every((s: { reason: string }) => s.reason === 'sms_unverified')).toBe(true);
  });

  it('flags every text from a number for the hour after five wrong PINs, the right PIN too', async () => {
    const { phone: own } = await newMarshal('55123');
    const rider = await approvedRider(t.app, admin);
    const guesses = ['0000', '1234', '9999', '5555', '12345'];
    // Sent at once: the count is kept in the database, so none slips past it.
    const answers = await Promise.all(
      guesses.map((pin) => text({ message: `CP3 ${rider.riderNumber} PIN ${pin}`, phoneNumber: own.e164 })),
    );
    expect(answers.map((a) => a.json().data.outcome)).toEqual(guesses.map(() => 'scans_unverified'));
    const locked = await text({ message: `CP3 ${rider.riderNumber} PIN 55123`, phoneNumber: own.e164 });
    expect(locked.json().data.outcome).toBe('scans_unverified');
    const kept = await t.database.db.select().from(scans).where(eq(scans.riderId, rider.userId));
    expect(kept).toHaveLength(6);
    expect(kept.every((s) => s.status === 'flagged' && s.reason === 'sms_unverified')).toBe(true);
    // Another marshal's phone is not held by this one's guesses.
    const other = await newMarshal('80808');
    const fine = await text({ message: `CP3 ${rider.riderNumber} PIN 80808`, phoneNumber: other.phone.e164 });
    expect(fine.json().data.outcome).toBe('scans');
  });

  it('sets an SMS PIN for qr_scan holders only: 4 to 8 digits, stored hashed, shown nowhere', async () => {
    const { actor } = await newMarshal();
    for (const pin of ['123', '123456789', '12a4', ' 1234', '']) {
      const bad = await injectAs(t.app, actor, 'PUT', '/api/my/sms-pin', { pin });
      expect(bad.statusCode, pin).toBe(400);
      expect(bad.json().message).toBe('pin must be 4 to 8 digits');
    }
    expect((await injectAs(t.app, actor, 'PUT', '/api/my/sms-pin', {})).statusCode).toBe(400);
    const rider = await approvedRider(t.app, admin);
    const refused = await injectAs(t.app, rider, 'PUT', '/api/my/sms-pin', { pin: '1234' });
    expect(refused.statusCode).toBe(403);
    expect((await injectAs(t.app, null, 'PUT', '/api/my/sms-pin', { pin: '1234' })).statusCode).toBe(401);

    const set = await injectAs(t.app, actor, 'PUT', '/api/my/sms-pin', { pin: '20261115' });
    expect(set.statusCode, set.body).toBe(204);
    expect(set.body).toBe('');
    const [row] = await t.database.db.select().from(smsPins).where(eq(smsPins.userId, actor.userId));
    expect(row?.pinHash).toMatch(/^\$argon2id\$/);
    expect(row?.pinHash).not.toContain('20261115');
    // The account as its owner reads it says nothing of the PIN.
    const me = await injectAs(t.app, actor, 'GET', '/api/auth/me');
    expect(me.body).not.toMatch(/20261115|pinHash|argon2/);
    // A new PIN replaces the old one.
    expect((await injectAs(t.app, actor, 'PUT', '/api/my/sms-pin', { pin: '4321' })).statusCode).toBe(204);
    expect(await t.database.db.select().from(smsPins).where(eq(smsPins.userId, actor.userId))).toHaveLength(1);
  });

  it('says an SOS by text comes from a sender nobody verified; the SOS button’s does not', async () => {
    const own = newPhone();
    const byText = await approvedRider(t.app, admin, { phoneNumber: own.typed });
    const res = await text({ message: `SOS ${byText.riderNumber} lost`, phoneNumber: own.e164 });
    expect(res.json().data.outcome).toBe('sos');
    const [opened] = await t.database.db.select().from(incidents).where(eq(incidents.riderId, byText.userId));
    const shown = await injectAs(t.app, admin, 'GET', `/api/admin/incidents/${opened?.id}`);
    expect(shown.statusCode, shown.body).toBe(200);
    expect(shown.json().data).toMatchObject({ source: 'sms', senderVerified: false, kind: 'lost' });

    const byButton = await approvedRider(t.app, admin);
    const sos = await injectAs(t.app, byButton, 'POST', '/api/my/sos', { id: randomUUID(), kind: 'medical' });
    expect(sos.statusCode, sos.body).toBe(201);
    const button = await injectAs(t.app, admin, 'GET', `/api/admin/incidents/${sos.json().data.incident.id}`);
    expect(button.json().data).toMatchObject({ source: 'rider', senderVerified: true });
  });

  it('answers at most 3 texts a day from one number with help, counted race-free', async () => {
    const sender = newPhone();
    const words = ['hello', 'where is the start', 'what time is flag off', 'is CP3 open', 'thanks', 'ok bye'];
    const answers = await Promise.all(words.map((message) => text({ message, phoneNumber: sender.e164 })));
    expect(answers.map((a) => a.json().data.outcome)).toEqual(words.map(() => 'help'));
    expect(answers.filter((a) => a.json().data.replied)).toHaveLength(3);
    expect(await replies(sender.e164)).toHaveLength(3);
    // Refusals are the same kind of reply and share the count.
    const refused = await text({ message: 'SOS 1 help', phoneNumber: sender.e164 });
    expect(refused.json().data).toEqual({ outcome: 'sos_refused', repeat: false, replied: false });
    expect(await replies(sender.e164)).toHaveLength(3);
  });

  it('replies to no number outside the Philippines unless it belongs to an account', async () => {
    const uk = await text({ message: 'hello?', phoneNumber: '+447700900123' });
    expect(uk.json().data).toEqual({ outcome: 'help', repeat: false, replied: false });
    expect(await replies('+447700900123')).toHaveLength(0);
    // A registered rider abroad still hears back.
    const abroad = `+4477009${String(Math.floor(Math.random() * 1e5)).padStart(5, '0')}`;
    await approvedRider(t.app, admin, { phoneNumber: abroad });
    const own = await text({ message: 'hello?', phoneNumber: abroad });
    expect(own.json().data).toEqual({ outcome: 'help', repeat: false, replied: true });
  });

  it('does not answer a text that looks automated: an auto-reply, a report, our own words, a repeat', async () => {
    for (const message of [
      'Auto-reply: I am out of the office until Monday.',
      'Delivery report: your message to 09171234567 was delivered',
      SMS_HELP_TEXT,
      'This is an automated message, do not reply.',
    ]) {
      const sender = newPhone();
      const res = await text({ message, phoneNumber: sender.e164 });
      expect(res.json().data, message).toEqual({ outcome: 'help', repeat: false, replied: false });
    }
    // A number that keeps sending (nearly) the same text is a machine: the first gets help.
    const loop = newPhone();
    const first = await text({ message: 'Your code is 1234. Thank you!', phoneNumber: loop.e164 });
    expect(first.json().data.replied).toBe(true);
    const again = await text({ message: 'your code is 9876. thank you', phoneNumber: loop.e164 });
    expect(again.json().data).toEqual({ outcome: 'help', repeat: false, replied: false });
    const other = await text({ message: 'where do I park?', phoneNumber: loop.e164 });
    expect(other.json().data.replied).toBe(true);
  });

  it('answers garbage, long, control-character and odd texts with help or nothing, never an error', async () => {
    const sender = newPhone();
    const cases: Array<[ReceivedText, string, boolean]> = [
      [{ message: 'x'.repeat(2000), phoneNumber: sender.e164 }, 'help', true],
      [{ message: 'SOS 5\u0000\u0007 crash', phoneNumber: sender.e164 }, 'sos_refused', true],
      [{ message: `CP99 12 PIN ${MARSHAL_PIN}`, phoneNumber: marshal.e164 }, 'help', true],
      [{ message: 'Promo! Load 50 now', phoneNumber: 'GLOBE' }, 'help', false],
    ];
    for (const [received, outcome, replied] of cases) {
      const signed = signedInboundText(KEY, received);
      const res = await send(signed);
      expect(res.statusCode, res.body).toBe(200);
      expect(res.json().data).toEqual({ outcome, repeat: false, replied });
      // biome-ignore lint/suspicious/noControlCharactersInRegex: none may be stored
      expect((await stored(signed.id))?.message).not.toMatch(/[\u0000-\u001f]/);
    }
    // The phone's other events are taken (no retries) and left alone.
    const ping = await send(
      signedInboundTextRaw(JSON.stringify({ event: 'system:ping', id: randomUUID(), payload: {} })),
    );
    expect(ping.json().data).toEqual({ outcome: 'ignored', repeat: false, replied: false });
    const tooLong = await text({ message: 'y'.repeat(5001), phoneNumber: sender.e164 });
    expect(tooLong.statusCode).toBe(400);
    const [unknownStation] = (await replies(marshal.e164)).filter((r) => String(r.data.text).startsWith('No station'));
    expect(unknownStation?.data.text).toBe(`No station has the code CP99. ${SMS_HELP_TEXT}`);
    expect(await t.database.db.select().from(incidents).where(eq(incidents.note, 'crash'))).toHaveLength(0);
  });
});

/** A body signed as the phone signs, whatever it holds. */
const signedInboundTextRaw = (raw: string) => signedInboundText(KEY, { message: '', phoneNumber: '' }, { raw });

describe('SMS in while off', () => {
  let t: TestApp;
  beforeAll(async () => {
    t = await buildTestApp('pglite', { messages: parseMessages({ SMS_WEBHOOK_KEY: KEY }) });
  });
  afterAll(async () => t?.close());

  const post = (key: string) => {
    const signed = signedInboundText(key, { message: 'hi', phoneNumber: newPhone().e164 });
    return t.app.inject({ method: 'POST', url: '/api/sms/inbound', headers: signed.headers, payload: signed.body });
  };

  it('takes texts without replying while SMS out is off, and refuses them all without a key', async () => {
    expect((await post(KEY)).json().data).toEqual({ outcome: 'help', repeat: false, replied: false });
    expect(await t.database.db.select().from(outboxMessages)).toHaveLength(0);
    // The routes read the settings per request: the operator unsetting the key.
    t.config.messages.smsWebhookKey = undefined;
    const off = await post(KEY);
    expect(off.statusCode).toBe(401);
    expect(off.json()).toMatchObject({ code: 'SMS_IN_OFF', message: expect.stringMatching(/^SMS in is off/) });
  });
});
