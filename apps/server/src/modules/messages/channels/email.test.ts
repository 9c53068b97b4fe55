// Email through a real SMTP server (test/smtp-sink.ts), sent by the app's own outbox worker:
// what arrives on the wire, what a refusal and a dead server leave in the outbox. The
// channel itself never touches the database, so one kind suffices here; the outbox's own
// bookkeeping is proven on both kinds in outbox.test.ts.
import { createServer } from 'node:net';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { parseMessages } from '../../../config';
import { buildTestApp, type TestApp } from '../../../test/build-app';
import { staff } from '../../../test/factories';
import { sendThroughOutbox } from '../../../test/send-through-outbox';
import { type SmtpSink, startSmtpSink } from '../../../test/smtp-sink';

const MAIL_FROM = 'Rally HQ <rally@example.test>';

function appWithSmtp(smtpUrl: string) {
  return buildTestApp('pglite', { messages: parseMessages({ SMTP_URL: smtpUrl, MAIL_FROM }) });
}

describe('email over SMTP', () => {
  let sink: SmtpSink;
  let t: TestApp;
  let userId: string;

  beforeAll(async () => {
    sink = await startSmtpSink({
      refuseRecipient: (address) => (address.startsWith('refuse-') ? [550, 'No such user here'] : null),
    });
    t = await appWithSmtp(sink.url);
    userId = (await staff(t.app, t.database.db, 'marshall')).userId;
  });
  afterAll(async () => {
    await t?.close();
    await sink?.close();
  });

  const arrived = (rowId: string) => sink.messages.filter((m) => m.header('message-id') === `<${rowId}@rally.test>`);

  it('sends text and HTML from MAIL_FROM under the row id, with one-click unsubscribe unless urgent', async () => {
    const [plain, urgent] = await sendThroughOutbox(t, [
      {
        channel: 'email',
        template: 'verified',
        address: 'juan@example.test',
        userId,
        data: { firstName: 'Juan', riderNumber: 42 },
      },
      {
        channel: 'email',
        template: 'incident_opened',
        address: 'oncall@example.test',
        userId,
        data: { riderNumber: 42, kitName: 'ANG MANDIRIGMA', kindLabel: 'Crash', incidentId: userId },
      },
    ]);
    expect(plain).toMatchObject({ status: 'sent', attempts: 1 });
    expect(plain?.providerAnswer).toMatch(/^250 OK: queued as sink-\d+$/);
    expect(urgent).toMatchObject({ status: 'sent', attempts: 1 });

    const [mail] = arrived(plain?.id as string);
    expect(arrived(plain?.id as string)).toHaveLength(1);
    expect(mail?.headerAll('from')).toEqual([MAIL_FROM]);
    expect(mail?.envelope).toEqual({ from: 'rally@example.test', to: ['juan@example.test'] });
    expect(mail?.header('subject')).toBe('You are verified, warrior');
    expect(mail?.header('content-type')).toMatch(/^multipart\/alternative/);
    expect(mail?.text).toContain('Juan, you are verified as rider #42');
    expect(mail?.text).toContain('http://rally.test/me');
    expect(mail?.html).toContain('Mindanao Warriors Rally');
    expect(mail?.html).toContain('href="http://rally.test/me"');
    const unsubscribe = mail?.header('list-unsubscribe');
    expect(unsubscribe).toMatch(/^<http:\/\/rally\.test\/api\/unsubscribe\?token=[A-Za-z0-9_.-]+>$/);
    expect(mail?.headerAll('list-unsubscribe-post')).toEqual(['List-Unsubscribe=One-Click']);
    // The link in the header works: it names this account.
    const token = /token=([A-Za-z0-9_.-]+)/.exec(unsubscribe ?? '')?.[1];
    const page = await t.app.inject({ method: 'GET', url: `/api/unsubscribe?token=${token}` });
    expect(page.statusCode).toBe(200);

    const [alarm] = arrived(urgent?.id as string);
    expect(alarm?.header('subject')).toBe('SOS #42 ANG MANDIRIGMA: Crash');
    expect(alarm?.header('list-unsubscribe')).toBeUndefined();
    expect(alarm?.header('list-unsubscribe-post')).toBeUndefined();
    expect(alarm?.html).not.toContain('Unsubscribe');
  });

  it('never lets a name or an address add a header or a recipient', async () => {
    const before = sink.messages.length;
    const [named, forged] = await sendThroughOutbox(t, [
      {
        channel: 'email',
        template: 'follower_passage',
        address: 'fan@example.test',
        data: { riderNumber: 7, kitName: 'Juan\r\nBcc: x@evil.test', stationName: 'CP1\nX-Evil: 1', time: '08:00' },
      },
      {
        channel: 'email',
        template: 'verified',
        address: 'victim@example.test\r\nBcc: x@evil.test',
        data: { firstName: 'Juan\r\nBcc: x@evil.test' },
      },
    ]);
    expect(named?.status).toBe('sent');
    // An address that is more than one plain address is refused for good, never sent.
    expect(forged).toMatchObject({ status: 'failed', attempts: 1, providerAnswer: 'not a single plain email address' });
    expect(sink.messages.length).toBe(before + 1);

    const [mail] = arrived(named?.id as string);
    expect(mail?.envelope.to).toEqual(['fan@example.test']);
    expect(mail?.header('bcc')).toBeUndefined();
    expect(mail?.header('x-evil')).toBeUndefined();
    expect(mail?.header('subject')).toBe('#7 Juan Bcc: x@evil.test passed CP1 X-Evil: 1');
    // The lines survive in the body parts, where they are text; the header block has none.
    const headerBlock = mail?.raw.slice(0, mail.raw.indexOf('\r\n\r\n')) ?? '';
    expect(headerBlock).not.toMatch(/^(Bcc|X-Evil):/im);
    expect(sink.messages.some((m) => m.envelope.to.includes('x@evil.test'))).toBe(false);
  });

  it('fails a message the server refuses (550) at once, without retrying', async () => {
    const [row] = await sendThroughOutbox(t, [
      { channel: 'email', template: 'verified', address: 'refuse-me@example.test', data: { firstName: 'Ana' } },
    ]);
    expect(row).toMatchObject({ status: 'failed', attempts: 1 });
    expect(row?.providerAnswer).toMatch(/550 No such user here/);
    expect(arrived(row?.id as string)).toHaveLength(0);
  });
});

describe('email when the SMTP server is down', () => {
  let t: TestApp;

  beforeAll(async () => {
    // A port that was free a moment ago: nothing listens there.
    const probe = createServer();
    await new Promise<void>((resolve) => probe.listen(0, '127.0.0.1', resolve));
    const { port } = probe.address() as { port: number };
    await new Promise((resolve) => probe.close(resolve));
    t = await appWithSmtp(`smtp://127.0.0.1:${port}`);
  });
  afterAll(() => t?.close());

  it('keeps the message and tries again after the backoff', async () => {
    const started = Date.now();
    const [row] = await sendThroughOutbox(t, [
      { channel: 'email', template: 'verified', address: 'juan@example.test', data: { firstName: 'Juan' } },
    ]);
    expect(row).toMatchObject({ status: 'pending', attempts: 1, lockedUntil: null });
    expect(row?.providerAnswer).toMatch(/ECONNREFUSED|connect/i);
    // The first wait is 10 s (MESSAGE_BACKOFF_SECONDS[0]).
    expect(row?.nextAttemptAt.getTime()).toBeGreaterThanOrEqual(started + 9_000);
  });
});
