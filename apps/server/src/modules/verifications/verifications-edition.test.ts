// Verifications are an edition's (DESIGN.md §9): after a rollover the past edition's rows
// stay in the table beside the new ones, so every read, decision and undo names its
// edition. The past one reads through ?edition= and is never changed by the current one.
import { and, eq } from 'drizzle-orm';
import { describe, expect, it } from 'vitest';
import { entries, verificationHistory } from '../../db/schema/entries';
import { DB_KINDS, useTestApp } from '../../test/build-app';
import { type Actor, approvedRider, injectAs, joinEdition, registerRider, rollOver } from '../../test/factories';

type Method = 'GET' | 'POST';

describe.each(DB_KINDS)('verifications across editions (%s)', (kind) => {
  const t = useTestApp(kind, 'admin', 'marshall', 'developer');
  const { admin, marshall, developer } = t.staff;
  const call = (actor: Actor | null, method: Method, url: string, payload?: unknown) =>
    injectAs(t.app, actor, method, url, payload);
  const ok = async (actor: Actor, method: Method, url: string, payload?: unknown) => {
    const res = await call(actor, method, url, payload);
    expect(res.statusCode, `${method} ${url}: ${res.body}`).toBeLessThan(300);
    return res.json();
  };
  const withEdition = (url: string, edition?: string) =>
    edition ? `${url}${url.includes('?') ? '&' : '?'}edition=${edition}` : url;
  const pending = async (code: string, edition?: string) =>
    (
      (await ok(marshall, 'GET', withEdition(`/api/admin/verifications/pending?search=${code}`, edition))).data as {
        user_id: string;
        verification_code: string;
      }[]
    ).filter((r) => r.verification_code === code);
  const history = async (code: string, edition?: string) =>
    (
      (await ok(marshall, 'GET', withEdition('/api/admin/verifications/history?limit=100', edition))).data as {
        action: string;
        verification_code: string;
      }[]
    )
      .filter((h) => h.verification_code === code)
      .map((h) => h.action)
      .sort();
  const stats = async (edition?: string) =>
    (await ok(marshall, 'GET', withEdition('/api/admin/verifications/stats', edition))).data as {
      pending: number;
      approved: number;
      rejected: number;
      total: number;
    };
  /** Every verification row of a rider, of every edition, straight from the table. */
  const rowsOf = (userId: string) =>
    t.database.db
      .select({
        editionId: entries.editionId,
        code: entries.verificationCode,
        status: entries.status,
      })
      .from(entries)
      .where(eq(entries.userId, userId));
  const historyRows = (editionId: string, code: string) =>
    t.database.db
      .select({ action: verificationHistory.action })
      .from(verificationHistory)
      .where(and(eq(verificationHistory.editionId, editionId), eq(verificationHistory.verificationCode, code)));

  it('keeps the past edition’s verifications as history and decides only the current edition’s', async () => {
    const waiting = await registerRider(t.app);
    const approved = await approvedRider(t.app, admin);
    const before = await stats();
    const { past, next } = await rollOver(t.app, admin);

    // The current edition: neither rider is pending, counted or in the history.
    expect(await pending(waiting.verificationCode)).toEqual([]);
    expect(await history(approved.verificationCode)).toEqual([]);
    expect(await stats()).toEqual({ pending: 0, approved: 0, rejected: 0, total: 0 });
    // The past edition, read with ?edition=, answers as it did.
    expect(await pending(waiting.verificationCode, past)).toEqual([
      expect.objectContaining({ user_id: waiting.userId }),
    ]);
    expect(await history(approved.verificationCode, past)).toEqual(['verified']);
    expect(await stats(past)).toEqual(before);
    // The rider's own view is of the current edition, where they have no entry yet.
    const mine = await call(waiting, 'GET', '/api/my/verification');
    expect([mine.statusCode, mine.json().code]).toEqual([404, 'VERIFICATION_NOT_FOUND']);

    // A decision or an undo in the current edition cannot reach the past edition's rows.
    const decide = await call(admin, 'POST', '/api/admin/verifications/verify', {
      verification_code: waiting.verificationCode,
      action: 'verified',
    });
    expect([decide.statusCode, decide.json().code]).toEqual([404, 'VERIFICATION_NOT_FOUND']);
    const undo = await call(developer, 'POST', `/api/admin/verifications/undo/${approved.userId}`);
    expect([undo.statusCode, undo.json().code]).toEqual([404, 'VERIFICATION_NOT_FOUND']);
    expect(await rowsOf(waiting.userId)).toEqual([
      { editionId: past, code: waiting.verificationCode, status: 'pending' },
    ]);
    expect(await rowsOf(approved.userId)).toEqual([
      { editionId: past, code: approved.verificationCode, status: 'verified' },
    ]);

    // The approved rider joins the new edition: a new verification, pending, beside the past one.
    const code = await joinEdition(t.app, approved);
    expect(code).not.toBe(approved.verificationCode);
    expect(await pending(code)).toEqual([expect.objectContaining({ user_id: approved.userId })]);
    expect(await pending(code, past)).toEqual([]);
    expect(await stats()).toEqual({ pending: 1, approved: 0, rejected: 0, total: 1 });
    // Verified and undone in the current edition; the past row and history stay as they were.
    await ok(marshall, 'POST', '/api/admin/verifications/verify', { verification_code: code, action: 'verified' });
    await ok(developer, 'POST', `/api/admin/verifications/undo/${approved.userId}`);
    expect(await history(code)).toEqual(['undone', 'verified']);
    expect(await history(code, past)).toEqual([]);
    expect(await history(approved.verificationCode, past)).toEqual(['verified']);
    expect(await historyRows(next, code)).toHaveLength(2);
    expect(await historyRows(past, approved.verificationCode)).toEqual([{ action: 'verified' }]);
    const rows = await rowsOf(approved.userId);
    expect(rows).toHaveLength(2);
    expect(rows).toEqual(
      expect.arrayContaining([
        { editionId: past, code: approved.verificationCode, status: 'verified' },
        { editionId: next, code, status: 'pending' },
      ]),
    );
    expect(await stats(past)).toEqual(before);
    expect((await ok(approved, 'GET', '/api/my/verification')).data).toMatchObject({
      status: 'pending',
      verification_code: code,
    });
  });
});
