// Two real server instances send one outbox to a real, slow SMTP server; one is killed
// (SIGKILL) in the middle. Every message still goes out, from the survivor, under the
// Message-ID of its row.
//
// Delivery is at least once, not exactly once: a message whose DATA the SMTP server had
// taken (its "." received, its 250 on the way) when the instance died is recorded as sent
// by nobody, so the survivor sends it again once the dead instance's lease ends. No
// protocol can close that window (the answer and the database write are two systems);
// the product narrows it to the messages in flight at the moment of the crash (at most one
// per SMTP connection, 4 per instance) and gives the copy the same Message-ID, by which
// receivers drop it. The test holds the product to exactly that: every row sent, every
// Message-ID arrived, and any Message-ID that arrived twice was one the killed instance held.
import { mkdtempSync, rmSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { and, eq, like, sql } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { outboxMessages } from '../../db/schema/messages';
import { openTestDatabase } from '../../test/build-app';
import { type RunningServer, startServer } from '../../test/processes';
import { type SmtpSink, startSmtpSink } from '../../test/smtp-sink';
import { enqueueMessages, wakeOutboxWorkers } from './outbox';

const MESSAGES = 300;

/** Polls `check` until it holds, for at most `ms`. */
async function until(check: () => Promise<boolean> | boolean, ms: number, what: string) {
  const deadline = Date.now() + ms;
  while (!(await check())) {
    if (Date.now() > deadline) throw new Error(`timed out waiting for ${what}`);
    await new Promise((resolve) => setTimeout(resolve, 50));
  }
}

describe.skipIf(!process.env.TEST_DATABASE_URL)('the outbox across a crash (two instances, PostgreSQL)', () => {
  let sink: SmtpSink;
  let opened: Awaited<ReturnType<typeof openTestDatabase>>;
  let dataDir: string;
  let a: RunningServer;
  let b: RunningServer;

  beforeAll(async () => {
    // A slow provider: ~50 ms after each message's data before its 250.
    sink = await startSmtpSink({ dataDelayMs: 50 });
    opened = await openTestDatabase('postgres');
    dataDir = mkdtempSync(path.join(os.tmpdir(), 'rally-outbox-crash-'));
    const env = {
      DATABASE_URL: opened.url as string,
      DATA_DIR: dataDir,
      PUBLIC_URL: 'http://rally.test',
      WEB_DIST: '/nonexistent',
      SMTP_URL: sink.url,
      MAIL_FROM: 'rally@example.test',
    };
    [a, b] = await Promise.all([startServer(env), startServer(env)]);
  }, 180_000);

  afterAll(async () => {
    await Promise.all([a?.stop('SIGKILL'), b?.stop()]);
    await opened?.drop();
    await sink?.close();
    rmSync(dataDir, { recursive: true, force: true });
  });

  it('sends every message, once per Message-ID but for those in flight in the killed instance', async () => {
    const db = opened.database.db;
    const rows = await db.transaction((tx) =>
      enqueueMessages(
        tx,
        Array.from({ length: MESSAGES }, (_, i) => ({
          channel: 'email' as const,
          template: 'test_message' as const,
          address: `crash-${i}@example.test`,
          data: { staffName: `Staff ${i}` },
        })),
      ),
    );

    // Midway, instance A dies without a word.
    await until(() => sink.messages.length >= MESSAGES / 3, 60_000, 'a third of the messages');
    const deadPid = a.child.pid as number;
    await a.stop('SIGKILL');
    const heldByDead = await db
      .select({ id: outboxMessages.id })
      .from(outboxMessages)
      .where(and(eq(outboxMessages.status, 'pending'), like(outboxMessages.lockedBy, `%:${deadPid}:%`)));
    const inFlight = new Set(heldByDead.map((r) => r.id));

    // Its leases would end by themselves after LEASE_SECONDS (60 s; outbox.test.ts proves an
    // ended lease frees a row, and the worker's timer wakes at that moment): end them now,
    // and tell the survivor, as a new row would.
    await db
      .update(outboxMessages)
      .set({ lockedUntil: sql`now()` })
      .where(and(eq(outboxMessages.status, 'pending'), like(outboxMessages.lockedBy, `%:${deadPid}:%`)));
    await wakeOutboxWorkers(db);

    const unsent = async () =>
      (await db.select({ id: outboxMessages.id }).from(outboxMessages).where(sql`${outboxMessages.status} <> 'sent'`))
        .length;
    await until(async () => (await unsent()) === 0, 90_000, 'every row to be sent');

    const arrived = new Map<string, number>();
    for (const m of sink.messages) {
      const id = /^<([0-9a-f-]{36})@rally\.test>$/.exec(m.header('message-id') ?? '')?.[1];
      if (id) arrived.set(id, (arrived.get(id) ?? 0) + 1);
    }
    // Every row's Message-ID arrived, and nothing else did.
    expect([...arrived.keys()].sort()).toEqual(rows.map((r) => r.id).sort());
    // A second copy only of what the dead instance had on the wire: never a row another
    // instance had already sent, never one sent twice by the survivor.
    const twice = [...arrived].filter(([, n]) => n > 1);
    for (const [id, n] of twice) {
      expect(n).toBe(2);
      expect(inFlight.has(id)).toBe(true);
    }
    expect(twice.length).toBeLessThanOrEqual(4);
    console.info(
      `outbox crash: ${MESSAGES} sent, ${inFlight.size} held by the killed instance, ${twice.length} delivered twice (same Message-ID)`,
    );
    // The survivor is still well.
    expect((await fetch(`${b.url}/api/health`)).status).toBe(200);
  });
});
