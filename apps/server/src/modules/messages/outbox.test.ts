// The outbox's bookkeeping on both databases: which rows a claim takes, that concurrent
// claims never share a row, that a dead instance's lease runs out, the backoff, and the
// last attempt. Each test works on rows of its own and leaves none of them due.
import { MESSAGE_BACKOFF_SECONDS, MESSAGE_MAX_ATTEMPTS } from '@rally/shared/catalog/messages';
import { inArray, sql } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Db } from '../../db/client';
import { type OutboxRow, outboxMessages } from '../../db/schema/messages';
import { DB_KINDS, openTestDatabase } from '../../test/build-app';
import { claimDueMessages, enqueueMessages, type NewMessage, recordOutcome } from './outbox';

const SECOND = 1000;

const email = (n: number, notBefore?: Date): NewMessage => ({
  channel: 'email',
  template: 'test_message',
  address: `outbox-${n}@example.test`,
  data: { staffName: `Staff ${n}` },
  ...(notBefore ? { notBefore } : {}),
});

const ids = (rows: readonly OutboxRow[]) => rows.map((r) => r.id).sort();

describe.each(DB_KINDS)('outbox (%s)', (kind) => {
  let opened: Awaited<ReturnType<typeof openTestDatabase>>;
  let db: Db;

  beforeAll(async () => {
    opened = await openTestDatabase(kind);
    db = opened.database.db;
  });
  afterAll(() => opened?.drop());

  const enqueue = (messages: NewMessage[]) => db.transaction((tx) => enqueueMessages(tx, messages));
  const claim = (instance: string, now = new Date(), limit = 500) => claimDueMessages(db, { now, limit, instance });
  const read = (rows: readonly OutboxRow[]) =>
    db.query.outboxMessages.findMany({ where: (m, { inArray }) => inArray(m.id, ids(rows)) });
  const failSoft = (row: OutboxRow, instance: string, now: Date) =>
    recordOutcome(db, row, instance, { ok: false, answer: '421 try later', permanent: false }, now);

  it('claims the due rows only, once each, leased to the claiming instance', async () => {
    const now = new Date();
    const due = await enqueue([
      email(1, new Date(now.getTime() - 2 * SECOND)),
      email(2, new Date(now.getTime() - SECOND)),
    ]);
    const [later] = await enqueue([email(3, new Date(now.getTime() + 30 * 24 * 3600 * SECOND))]);

    const first = await claim('a', now);
    expect(ids(first)).toEqual(ids(due));
    for (const row of first) {
      expect(row).toMatchObject({ attempts: 1, lockedBy: 'a', status: 'pending' });
      expect(row.lockedUntil?.getTime()).toBeGreaterThan(now.getTime());
    }
    // Leased: another instance (or the same one again) finds nothing of them.
    expect(ids(await claim('b', now)).filter((id) => ids(due).includes(id))).toEqual([]);
    expect((await read([later as OutboxRow]))[0]).toMatchObject({ attempts: 0, lockedBy: null });

    for (const row of first)
      expect(await recordOutcome(db, row, 'a', { ok: true, answer: '250 OK' }, now)).toBe('sent');
    expect((await read(due)).map((r) => r.status)).toEqual(['sent', 'sent']);
  });

  it('never hands one row to two concurrent claims (FOR UPDATE SKIP LOCKED)', async () => {
    const rows = await enqueue(Array.from({ length: 200 }, (_, i) => email(100 + i)));
    // Eight instances at once, 30 rows each at most: 240 places for 200 rows.
    const claims = await Promise.all(Array.from({ length: 8 }, (_, i) => claim(`instance-${i}`, new Date(), 30)));
    const mine = new Set(ids(rows));
    const taken = claims.flatMap((c) => ids(c)).filter((id) => mine.has(id));
    expect(taken.length).toBe(200);
    expect(new Set(taken).size).toBe(200);
    // Each row is leased to the instance whose claim returned it.
    const owner = new Map(claims.flatMap((c, i) => c.map((r) => [r.id, `instance-${i}`] as const)));
    for (const row of await read(rows)) expect(row.lockedBy).toBe(owner.get(row.id));
    await db
      .update(outboxMessages)
      .set({ status: 'sent', lockedUntil: null })
      .where(inArray(outboxMessages.id, ids(rows)));
  });

  it("gives a dead instance's row to another once its lease ends, and ignores the dead one's late answer", async () => {
    const now = new Date();
    const [row] = await enqueue([email(400, now)]);
    const [held] = (await claim('dead', now)).filter((r) => r.id === row?.id);
    expect(held).toMatchObject({ attempts: 1, lockedBy: 'dead' });
    expect((await claim('alive', now)).some((r) => r.id === row?.id)).toBe(false);

    // The lease runs on the database's clock: end it as 60 s of silence would.
    await db
      .update(outboxMessages)
      .set({ lockedUntil: sql`now() - interval '1 second'` })
      .where(inArray(outboxMessages.id, [row?.id as string]));
    const [again] = (await claim('alive', now)).filter((r) => r.id === row?.id);
    expect(again).toMatchObject({ attempts: 2, lockedBy: 'alive' });

    // The dead instance's answer, arriving late, no longer owns the row.
    await recordOutcome(db, held as OutboxRow, 'dead', { ok: false, answer: 'late', permanent: true }, now);
    expect((await read([again as OutboxRow]))[0]).toMatchObject({ status: 'pending', lockedBy: 'alive' });
    await recordOutcome(db, again as OutboxRow, 'alive', { ok: true, answer: '250 OK' }, now);
    expect((await read([again as OutboxRow]))[0]).toMatchObject({
      status: 'sent',
      attempts: 2,
      providerAnswer: '250 OK',
    });
  });

  it('waits the backoff between tries and fails the row after the last one', async () => {
    let now = new Date();
    const [row] = await enqueue([email(500, now)]);
    const mineOf = async (at: Date) => (await claim('w', at)).filter((r) => r.id === row?.id);

    for (let attempt = 1; attempt <= MESSAGE_MAX_ATTEMPTS; attempt++) {
      const [claimed] = await mineOf(now);
      expect(claimed?.attempts).toBe(attempt);
      const outcome = await failSoft(claimed as OutboxRow, 'w', now);
      const [stored] = await read([claimed as OutboxRow]);
      if (attempt === MESSAGE_MAX_ATTEMPTS) {
        expect(outcome).toBe('failed');
        expect(stored).toMatchObject({
          status: 'failed',
          attempts: MESSAGE_MAX_ATTEMPTS,
          providerAnswer: '421 try later',
        });
        break;
      }
      expect(outcome).toBe('retry');
      const wait = MESSAGE_BACKOFF_SECONDS[Math.min(attempt - 1, MESSAGE_BACKOFF_SECONDS.length - 1)] as number;
      expect(stored).toMatchObject({ status: 'pending', lockedUntil: null });
      expect(stored?.nextAttemptAt.getTime()).toBe(now.getTime() + wait * SECOND);
      // Not a moment before the wait is over.
      expect(await mineOf(new Date(now.getTime() + wait * SECOND - 1))).toEqual([]);
      now = new Date(now.getTime() + wait * SECOND);
    }
    // Failed for good: no clock brings it back.
    expect(await mineOf(new Date(now.getTime() + 24 * 3600 * SECOND))).toEqual([]);
  });
});
