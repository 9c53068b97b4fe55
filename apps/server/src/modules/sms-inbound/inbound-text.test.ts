// Reading a text to the SMS line, and the webhook's signature, without a server.
import { createHmac } from 'node:crypto';
import { SMS_HELP_TEXT } from '@rally/shared/catalog/messages';
import { describe, expect, it } from 'vitest';
import { z } from 'zod';
import { toE164, typedForms } from '../../lib/phone-numbers';
import {
  checkSignature,
  cleanText,
  looksAutomated,
  maskPin,
  nameUuid,
  parseInboundText,
  scanWord,
  textShape,
} from './inbound-text';

const read = (text: string) => parseInboundText(cleanText(text));

describe('a text to the SMS line', () => {
  it('reads an SOS: rider number, kind from the first word, the words as the note', () => {
    expect(read('SOS 42 crash near the bridge, leg hurts')).toEqual({
      kind: 'sos',
      riderNumber: 42,
      incidentKind: 'crash',
      note: 'crash near the bridge, leg hurts',
    });
    expect(read('sos #7\nMedical: dizzy')).toMatchObject({
      riderNumber: 7,
      incidentKind: 'medical',
      note: 'Medical: dizzy',
    });
    expect(read('Sos: 118')).toEqual({ kind: 'sos', riderNumber: 118, incidentKind: 'other', note: '' });
    expect(read('SOS flat tyre')).toEqual({ kind: 'help', problem: 'An SOS needs your rider number first.' });
    // SOS is a word of its own: SOSA could be a station.
    expect(read('SOSA 42')).toEqual({ kind: 'scans', stationCode: 'SOSA', riderNumbers: [42], pin: null });
  });

  it('reads a station code and rider numbers, however separated, once each', () => {
    expect(read('cp3 42 57, 118;42')).toEqual({
      kind: 'scans',
      stationCode: 'CP3',
      riderNumbers: [42, 57, 118],
      pin: null,
    });
    expect(read('FIN1 #9')).toEqual({ kind: 'scans', stationCode: 'FIN1', riderNumbers: [9], pin: null });
    expect(read('CP3 42 and 57')).toEqual({ kind: 'help', problem: 'After CP3, send only rider numbers.' });
    expect(read('CP3')).toMatchObject({ kind: 'help' });
    expect(read('CP3 9999999')).toMatchObject({ kind: 'help' });
  });

  it('reads the PIN that ends a marshal’s text, the word in any case', () => {
    expect(read('CP3 42 57 PIN 4821')).toEqual({
      kind: 'scans',
      stationCode: 'CP3',
      riderNumbers: [42, 57],
      pin: '4821',
    });
    expect(read('cp3 42, 57 pin 4821')).toMatchObject({ riderNumbers: [42, 57], pin: '4821' });
    expect(read('CP3 42 Pin: 4821')).toMatchObject({ pin: '4821' });
    expect(read('CP3 42 PIN:4821')).toMatchObject({ riderNumbers: [42], pin: '4821' });
    // A PIN word without a PIN is no PIN; a wrong-looking one is judged (and fails) as sent.
    expect(read('CP3 42 PIN')).toMatchObject({ kind: 'scans', pin: '' });
    expect(read('CP3 42 PIN abc')).toMatchObject({ kind: 'scans', pin: 'abc' });
    expect(read('CP3 42 PIN 4821 57')).toEqual({
      kind: 'help',
      problem: 'End with PIN and your PIN only, e.g. CP3 42 57 PIN 4821.',
    });
    expect(read('CP3 PIN 4821')).toMatchObject({ kind: 'help' });
  });

  it('keeps a text with its PIN masked', () => {
    expect(maskPin('CP3 42 57 pin 4821')).toBe('CP3 42 57 PIN ****');
    expect(maskPin('CP3 42 PIN:4821')).toBe('CP3 42 PIN ****');
    expect(maskPin('SOS 42 my spine hurts')).toBe('SOS 42 my spine hurts');
  });

  it('tells texts machines send: auto-replies, reports, our own help text', () => {
    for (const text of [
      'Auto-reply: out of office',
      'AUTOREPLY I am driving',
      'I am out of the office until the 20th',
      'Delivery report: delivered 10:32',
      'Message not delivered to 0917',
      'This is an automated message. Please do not reply.',
      SMS_HELP_TEXT,
    ]) {
      expect(looksAutomated(text), text).toBe(true);
    }
    for (const text of ['hello?', 'SOS 42 crash', 'Where do I reply to the survey', 'CP3 42 PIN 4821']) {
      expect(looksAutomated(text), text).toBe(false);
    }
  });

  it('shapes texts so a machine repeating itself with new numbers is seen', () => {
    expect(textShape('Your code is 1234. Thank you!')).toBe(textShape('your code is 9876 thank you'));
    expect(textShape('hello')).not.toBe(textShape('where do I park?'));
    expect(textShape('CP3 42 PIN ****')).toBe('cp# # pin');
  });

  it('answers anything else with help, control characters and all', () => {
    expect(read('Hello? Where is the finish')).toEqual({ kind: 'help', problem: null });
    expect(read('THANKS')).toEqual({ kind: 'help', problem: null });
    expect(cleanText('SOS\u0000 42\u0007\r\ncrash\u009b  ')).toBe('SOS 42 crash');
    expect(read('\u0000\u0001')).toEqual({ kind: 'help', problem: null });
  });

  it('sums a marshal’s scans up in words', () => {
    expect(scanWord({ status: 'accepted' })).toBe('ok');
    expect(scanWord({ status: 'duplicate', original: 'accepted' })).toBe('ok');
    expect(scanWord({ status: 'flagged', reason: 'unknown_rider' })).toBe('unknown rider');
    expect(scanWord({ status: 'flagged', reason: 'rescan' })).toBe('flagged: re-scan at the same station');
    expect(scanWord({ status: 'invalid' })).toBe('not recorded');
  });

  it('makes the same UUID from the same name, and a valid one', () => {
    expect(nameUuid('hook-1:sos')).toBe(nameUuid('hook-1:sos'));
    expect(nameUuid('hook-1:scan:0')).not.toBe(nameUuid('hook-1:scan:1'));
    expect(z.uuid().safeParse(nameUuid('x')).success).toBe(true);
  });

  it('compares phone numbers in E.164', () => {
    expect(toE164('0917 123 4567')).toBe('+639171234567');
    expect(toE164('+63 917-123-4567')).toBe('+639171234567');
    expect(toE164('639171234567')).toBe('+639171234567');
    expect(toE164('+1 (415) 555-0100')).toBe('+14155550100');
    expect(toE164('9171234567')).toBe('+639171234567');
    expect(toE164('GLOBE')).toBeNull();
    expect(toE164('911')).toBeNull();
    expect(toE164(null)).toBeNull();
    expect(typedForms('+639171234567')).toEqual(['+639171234567', '639171234567', '09171234567', '9171234567']);
  });
});

describe('the webhook signature', () => {
  const key = 'k'.repeat(32);
  const body = Buffer.from('{"event":"sms:received"}');
  const now = new Date('2026-11-15T08:00:00Z');
  const ts = String(now.getTime() / 1000);
  const sign = (t: string, b = body, k = key) =>
    createHmac('sha256', k)
      .update(b.toString() + t)
      .digest('hex');

  it('takes the HMAC of the raw body and the timestamp, within 5 minutes either way', () => {
    expect(checkSignature(body, ts, sign(ts), key, now)).toBeNull();
    expect(checkSignature(body, ts, sign(ts).toUpperCase(), key, now)).toBeNull();
    const early = String(Number(ts) - 299);
    expect(checkSignature(body, early, sign(early), key, now)).toBeNull();
    const stale = String(Number(ts) - 301);
    expect(checkSignature(body, stale, sign(stale), key, now)).toBe('stale');
    const ahead = String(Number(ts) + 301);
    expect(checkSignature(body, ahead, sign(ahead), key, now)).toBe('stale');
  });

  it('refuses a missing, malformed or wrong signature', () => {
    expect(checkSignature(body, undefined, sign(ts), key, now)).toBe('missing');
    expect(checkSignature(body, ts, undefined, key, now)).toBe('missing');
    expect(checkSignature(body, ts, 'abc', key, now)).toBe('mismatch');
    expect(checkSignature(body, ts, sign(ts, body, 'other-key-of-32-characters-long!'), key, now)).toBe('mismatch');
    expect(checkSignature(Buffer.from('{"event":"sms:sent"}'), ts, sign(ts), key, now)).toBe('mismatch');
    expect(checkSignature(body, `${ts}0`, sign(ts), key, now)).toBe('mismatch');
  });
});
