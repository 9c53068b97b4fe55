import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { parseMessages } from '../../../config';
import type { OutboxRow } from '../../../db/schema/messages';
import { buildTestApp, DB_KINDS, type TestApp } from '../../../test/build-app';
import { sendThroughOutbox } from '../../../test/send-through-outbox';
import { type SmsGatewaySim, startSmsGatewaySim } from '../../../test/sms-gateway-sim';
import { enqueueMessages, type NewMessage } from '../outbox';
import { renderMessage } from '../templates';
import { smsCapacity, smsGatewayChannel, smsText } from './sms-gateway';

const text = (address: string): NewMessage => ({
  channel: 'sms',
  template: 'incident_escalated',
  address,
  data: { incidentId: 'x', riderNumber: 42, kitName: 'ANG MANDIRIGMA', kindLabel: 'Crash', lastStation: 'CP3' },
});

describe.each(DB_KINDS)('SMS through SMS Gateway for Android (%s)', (kind) => {
  let phone: SmsGatewaySim;
  let t: TestApp;

  beforeAll(async () => {
    phone = await startSmsGatewaySim();
    t = await buildTestApp(kind, { messages: parseMessages({ SMS_GATEWAY_URL: phone.url }) });
  });
  afterAll(async () => {
    await t?.close();
    await phone?.close();
  });

  const sendOne = async (message: NewMessage) => (await sendThroughOutbox(t, [message]))[0] as OutboxRow;

  it('asks the phone to text the number, with basic auth and the row id, which a resend repeats', async () => {
    const row = await sendOne(text('+639171234567'));
    expect(row.status).toBe('sent');
    const got = phone.sent.find((s) => s.id === row.id);
    expect(got?.authorization).toBe(`Basic ${Buffer.from('sms:gateway-pass').toString('base64')}`);
    expect(got?.phoneNumbers).toEqual(['+639171234567']);
    expect(got?.text).toMatch(/^UNANSWERED SOS #42 ANG MANDIRIGMA: Crash.*Last passed: CP3/);
    expect(row.providerAnswer).toBe(`202 Pending, id ${row.id}`);
    // A resend after a crash carries the same id: the phone knows it and texts nothing more.
    const channel = t.app.messenger.channels.get('sms');
    const again = await channel?.send(renderMessage(row.template as 'incident_escalated', row.data, 'http://x'), row);
    expect(again?.ok).toBe(true);
    expect(phone.repeats).toContain(row.id);
    expect(phone.sent.filter((s) => s.id === row.id)).toHaveLength(1);
    // The console shows where it sends, never the phone's password.
    expect(channel?.describe()).toMatch(/^On: the phone at 127\.0\.0\.1:\d+$/);
  });

  it('keeps a text for later when the phone fails or is off, saying so readably', async () => {
    phone.answer(500);
    const busy = await sendOne(text('+639171234568'));
    expect(busy).toMatchObject({ status: 'pending', attempts: 1 });
    expect(busy.providerAnswer).toBe('SMS gateway answered 500 Failed to enqueue message: simulated failure');
    expect(busy.nextAttemptAt.getTime() - Date.now()).toBeGreaterThan(5_000);

    phone.answer(202);
    await phone.down();
    try {
      const off = await sendOne(text('+639171234569'));
      expect(off).toMatchObject({ status: 'pending', attempts: 1 });
      expect(off.providerAnswer).toMatch(/^SMS gateway unreachable: connect ECONNREFUSED 127\.0\.0\.1:\d+$/);
      expect(off.providerAnswer).not.toContain('gateway-pass');
    } finally {
      await phone.up();
    }
  });

  it('fails at once when the phone refuses the login or the request', async () => {
    const wrongLogin = smsGatewayChannel(
      parseMessages({ SMS_GATEWAY_URL: phone.url.replace('gateway-pass', 'wrong') }),
    );
    const [row] = await t.database.db.transaction((tx) => enqueueMessages(tx, [text('+639171234570')]));
    const rendered = renderMessage('sms_reply', { text: 'hello' }, 'http://x');
    const refused = await wrongLogin.send(rendered, row as OutboxRow);
    expect(refused).toMatchObject({ ok: false, permanent: true });
    expect(refused.ok === false && refused.answer).toMatch(/^SMS gateway answered 401 Unauthorized \(check the login/);
    const empty = await t.app.messenger.channels.get('sms')?.send({ ...rendered, text: '' }, row as OutboxRow);
    expect(empty).toEqual({ ok: false, permanent: true, answer: 'SMS gateway answered 400 Text message is empty' });
  });
});

describe('the text an SMS carries', () => {
  const message = (text: string, url: string | null = 'http://rally.test/me') => ({
    subject: 's',
    text,
    url,
    urgent: false,
    tag: 't',
  });

  it('keeps the link when it fits, else cuts the text to three parts with an ellipsis', () => {
    expect(smsText(message('Verified.'))).toBe('Verified. http://rally.test/me');
    const long = smsText(message('x'.repeat(600)));
    expect(long).toHaveLength(smsCapacity('x').max);
    expect(long).toHaveLength(459);
    expect(long.endsWith('...')).toBe(true);
    // One emoji makes the whole text UCS-2: 67 characters a part.
    const unicode = smsText(message(`🚨 ${'y'.repeat(600)}`, null));
    expect(unicode.length).toBeLessThanOrEqual(201);
    expect(unicode.endsWith('…')).toBe(true);
  });
});
