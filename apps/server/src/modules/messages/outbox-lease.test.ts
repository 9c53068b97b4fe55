// Two workers on one outbox, a slow mail server and a batch bigger than the mail pool: the
// later messages of a batch wait their turn for a connection for longer than a lease. The
// worker holding them renews their leases meanwhile, so the other worker never takes them
// and no message goes out twice. (The lease is 1 s here instead of 60 so that the wait
// outlasts it within a test; the proportions are those of a 50-row batch on a slow server.)
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { loadConfig } from '../../config';
import { DB_KINDS, type OpenedTestDatabase, openTestDatabase } from '../../test/build-app';
import { silentLogger } from '../../test/silent-logger';
import { type SmtpSink, startSmtpSink } from '../../test/smtp-sink';
import type { Channel } from './channel';
import { emailChannel } from './channels/email';
import { enqueueMessages } from './outbox';
import { OutboxWorker } from './outbox-worker';

const MESSAGES = 12;
const LEASE_SECONDS = 1;

describe.each(DB_KINDS)('outbox leases while messages wait in the mail pool (%s)', (kind) => {
  let sink: SmtpSink;
  let opened: OpenedTestDatabase;
  const workers: OutboxWorker[] = [];
  const channels: Channel[] = [];

  beforeAll(async () => {
    // ~0.6 s per message and 4 connections: the last of 12 waits ~1.8 s, beyond the lease.
    sink = await startSmtpSink({ dataDelayMs: 600 });
    opened = await openTestDatabase(kind);
  });
  afterAll(async () => {
    await Promise.all(workers.map((w) => w.stop()));
    await Promise.all(channels.map((c) => c.close?.()));
    await opened?.drop();
    await sink?.close();
  });

  it('renews the leases of rows in flight, so another instance never sends them again', async () => {
    const { messages } = loadConfig({ SMTP_URL: sink.url, MAIL_FROM: 'rally@example.test', WEB_DIST: '/nonexistent' });
    const db = opened.database.db;
    const worker = (instance: string) => {
      const email = emailChannel(messages, { publicUrl: 'http://rally.test', unsubscribeUrl: () => null });
      channels.push(email);
      const w = new OutboxWorker({
        db,
        channels: new Map([['email', email]]),
        clock: { now: () => new Date() },
        publicUrl: 'http://rally.test',
        instance,
        log: silentLogger,
        batch: MESSAGES,
        leaseSeconds: LEASE_SECONDS,
      });
      workers.push(w);
      return w;
    };
    const rows = await db.transaction((tx) =>
      enqueueMessages(
        tx,
        Array.from({ length: MESSAGES }, (_, i) => ({
          channel: 'email' as const,
          template: 'test_message' as const,
          address: `lease-${i}@example.test`,
          data: { staffName: `Staff ${i}` },
        })),
      ),
    );
    // A claims the whole batch; B starts once A holds it and keeps looking (its timer wakes
    // when a lease ends, as it would for a dead instance's rows).
    const a = worker('instance-a');
    a.start(opened.database);
    await sink.waitForCount(1, 10_000);
    const b = worker('instance-b');
    b.start(opened.database);

    await sink.waitForCount(MESSAGES, 30_000);
    await a.idle();
    // Long enough for B to have taken any row whose lease had run out.
    await new Promise((resolve) => setTimeout(resolve, LEASE_SECONDS * 2000));
    await b.idle();

    const ids = sink.messages.map((m) => /^<([0-9a-f-]{36})@rally\.test>$/.exec(m.header('message-id') ?? '')?.[1]);
    expect(ids.sort()).toEqual(rows.map((r) => r.id).sort());
  }, 60_000);
});
