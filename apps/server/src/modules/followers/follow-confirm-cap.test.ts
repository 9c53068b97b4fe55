// Issue 41: the hourly cap on follow confirmations counts per mailbox, not per spelling. A
// plus-tag (victim+1@) and, at providers that ignore them, dots (v.ictim@gmail.com) reach
// the same inbox, so they share one cap; and parallel follows across riders cannot overshoot it.
import { randomBytes } from 'node:crypto';
import { and, eq, inArray } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { parseMessages } from '../../config';
import { outboxMessages } from '../../db/schema/messages';
import { buildTestApp, DB_KINDS, type TestApp } from '../../test/build-app';
import { type Actor, approvedRider, injectAs, staff } from '../../test/factories';
import { CONFIRMS_PER_EMAIL_PER_HOUR } from './followers.service';
import { normalisedMailbox } from './mailbox';

describe('normalisedMailbox', () => {
  it('drops plus-tags everywhere and dots where the provider ignores them', () => {
    expect(normalisedMailbox('Victim+rally@Gmail.com')).toBe('victim@gmail.com');
    expect(normalisedMailbox('v.i.c.t.i.m+1+2@googlemail.com')).toBe('victim@gmail.com');
    expect(normalisedMailbox('first.last+tag@example.com')).toBe('first.last@example.com');
    expect(normalisedMailbox('First.Last@Example.COM')).toBe('first.last@example.com');
  });
});

describe.each(DB_KINDS)('the follow confirmation cap per mailbox (%s)', (kind) => {
  let t: TestApp;
  let admin: Actor;

  beforeAll(async () => {
    t = await buildTestApp(kind, {
      messages: parseMessages({
        SMTP_URL: 'smtp://127.0.0.1:9',
        MAIL_FROM: 'rally@example.test',
        MESSAGE_WORKER: 'off',
      }),
    });
    admin = await staff(t.app, t.database.db, 'admin');
  });
  afterAll(async () => {
    await t?.close();
  });

  const follow = (riderId: string, email: string) => injectAs(t.app, null, 'POST', `/api/follow/${riderId}`, { email });
  const confirmationsTo = (addresses: string[]) =>
    t.database.db
      .select({ address: outboxMessages.address })
      .from(outboxMessages)
      .where(and(eq(outboxMessages.template, 'follow_confirm'), inArray(outboxMessages.address, addresses)));

  it('gives plus-tagged and dotted spellings of one gmail inbox one cap, across riders', async () => {
    const user = `victim${randomBytes(4).toString('hex')}`;
    const dotted = `${user.slice(0, 3)}.${user.slice(3)}`;
    const spellings = [
      `${user}@gmail.com`,
      `${user}+1@gmail.com`,
      `${dotted}@gmail.com`,
      `${dotted}+rally@googlemail.com`,
      `${user.toUpperCase()}+2@GMAIL.com`,
      `${user}+3@gmail.com`,
      `${dotted}+4@gmail.com`,
    ];
    const riders = [await approvedRider(t.app, admin), await approvedRider(t.app, admin)];
    for (const [i, email] of spellings.entries()) {
      const res = await follow(riders[i % 2]!.userId, email);
      // The answer never tells that the cap was reached.
      expect(res.statusCode, res.body).toBe(202);
    }
    const sent = await confirmationsTo(spellings);
    expect(sent.map((m) => m.address).sort()).toEqual(spellings.slice(0, CONFIRMS_PER_EMAIL_PER_HOUR).sort());

    // Dots are the mailbox's own at other providers: first.last@ and firstlast@ are two inboxes.
    const domain = `${randomBytes(4).toString('hex')}.example.com`;
    const other = [`first.last+a@${domain}`, `firstlast@${domain}`];
    for (const email of other) expect((await follow(riders[0]!.userId, email)).statusCode).toBe(202);
    expect(await confirmationsTo(other)).toHaveLength(2);
  });

  it('sends at most the cap when many riders are followed at once by spellings of one inbox', async () => {
    const user = `nanay${randomBytes(4).toString('hex')}`;
    const riders = await Promise.all(Array.from({ length: 12 }, () => approvedRider(t.app, admin)));
    const dotAt = (i: number) => 1 + (i % 4);
    const spellings = riders.map((_, i) =>
      i % 2 ? `${user}+${i}@gmail.com` : `${user.slice(0, dotAt(i))}.${user.slice(dotAt(i))}+${i}@gmail.com`,
    );
    const answers = await Promise.all(riders.map((rider, i) => follow(rider.userId, spellings[i]!)));
    expect(answers.map((res) => res.statusCode)).toEqual(riders.map(() => 202));
    expect(await confirmationsTo(spellings)).toHaveLength(CONFIRMS_PER_EMAIL_PER_HOUR);
  });
});
