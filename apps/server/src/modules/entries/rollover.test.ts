// The rally every year (DESIGN.md §9): an organiser makes the next edition current. The last
// edition's entries (numbers, verifications, kits, stickers, scans, incidents, results)
// become its read-only history, read by staff with ?edition= through the same calls and
// answering exactly as before; the person stays (account, fires); a returning rider joins
// with their number held for them; a newcomer is refused that number until the date.
import { randomUUID } from 'node:crypto';
import type { UserRecord } from '@rally/shared/contracts/auth';
import type { Edition, MyEntry, NextEntry } from '@rally/shared/contracts/editions';
import type { PublicProfile } from '@rally/shared/contracts/profiles';
import { and, eq } from 'drizzle-orm';
import { describe, expect, it } from 'vitest';
import { entries } from '../../db/schema/entries';
import { inEdition } from '../../lib/edition-of';
import { DB_KINDS, useTestApp } from '../../test/build-app';
import {
  type Actor,
  approvedRider,
  bearer,
  injectAs,
  jpeg,
  multipart,
  registerRider,
  registrationFields,
  syncScan,
} from '../../test/factories';

type Method = 'GET' | 'POST' | 'PATCH' | 'DELETE';

describe.each(DB_KINDS)('making the next edition current (%s)', (kind) => {
  const t = useTestApp(kind, 'admin', 'marshall');
  const { admin, marshall } = t.staff;
  const call = (actor: Actor | null, method: Method, url: string, payload?: unknown) =>
    injectAs(t.app, actor, method, url, payload);
  const ok = async (actor: Actor | null, method: Method, url: string, payload?: unknown) => {
    const res = await call(actor, method, url, payload);
    expect(res.statusCode, `${method} ${url}: ${res.body}`).toBeLessThan(300);
    return res;
  };
  const editions = async () => (await ok(null, 'GET', '/api/editions')).json().data as Edition[];
  const record = async (rider: Actor) => (await ok(rider, 'GET', '/api/auth/profile')).json().data.user as UserRecord;
  const station = async (body: Record<string, unknown>) =>
    (await ok(admin, 'POST', '/api/admin/stations', body)).json().data.id as string;
  const codeOf = async (userId: string) =>
    (
      await t.database.db
        .select({ code: entries.riderCode })
        .from(entries)
        .where(and(eq(entries.userId, userId), inEdition(entries.editionId)))
    )[0]?.code as string;

  const enter = async (rider: Actor, fields: Record<string, string>, withReceipt = true) => {
    const body = multipart(
      fields,
      withReceipt
        ? [{ field: 'paymentReceipt', filename: 'receipt.jpg', contentType: 'image/jpeg', data: await jpeg() }]
        : [],
    );
    return t.app.inject({
      method: 'POST',
      url: '/api/my/entries',
      payload: body.payload,
      headers: { ...body.headers, ...bearer(rider.token) },
    });
  };

  it('keeps the last edition as history, read the same through ?edition=, and lets riders join the next', async () => {
    // The edition that ends: a start and a finish, a finisher, a verified rider with an SOS,
    // a rider still pending.
    const start = await station({ name: `Start ${randomUUID().slice(0, 4)}`, kind: 'start', day: 1, order: 0 });
    const finish = await station({ name: `Finish ${randomUUID().slice(0, 4)}`, kind: 'finish', day: 1, order: 9 });
    const finisher = await approvedRider(t.app, admin);
    const sos = await approvedRider(t.app, admin);
    const pending = await registerRider(t.app);
    const startedAt = new Date(Date.now() - 3 * 3_600_000);
    await syncScan(t.app, marshall, {
      stationId: start,
      riderCode: await codeOf(finisher.userId),
      scannedAt: startedAt.toISOString(),
    });
    await syncScan(t.app, marshall, { stationId: finish, riderCode: await codeOf(finisher.userId) });
    await syncScan(t.app, marshall, {
      stationId: start,
      riderCode: await codeOf(sos.userId),
      scannedAt: startedAt.toISOString(),
    });
    await ok(sos, 'POST', '/api/my/sos', { id: randomUUID(), kind: 'medical', note: 'Fell at the river crossing' });
    await ok(sos, 'POST', `/api/users/${finisher.userId}/fire`);

    // Every staff read a past edition must answer as it did while current.
    const reads = [
      '/api/admin/users?limit=100',
      '/api/admin/masterlist',
      '/api/admin/verifications/history',
      '/api/admin/verifications/stats',
      '/api/admin/kit-tracking',
      '/api/admin/id-cards/stats',
      '/api/admin/stations',
      '/api/admin/incidents',
      '/api/admin/exports/masterlist.csv?reason=Edition+check',
      '/api/admin/exports/finishers.csv',
      '/api/admin/exports/incidents.csv?reason=Edition+check',
      '/api/admin/exports/payments.csv',
    ];
    const before = new Map<string, string>();
    for (const url of reads) before.set(url, (await ok(admin, 'GET', url)).body);

    const outgoing = (await editions()).find((e) => e.current) as Edition;
    const heldUntil = new Date(Date.now() + 7 * 86_400_000).toISOString();
    const next = (
      await ok(admin, 'POST', '/api/admin/editions', {
        name: `Warriors ${randomUUID().slice(0, 6)}`,
        year: outgoing.year + 1,
        startsOn: `${outgoing.year + 1}-03-14`,
        endsOn: `${outgoing.year + 1}-03-16`,
        numbersHeldUntil: heldUntil,
        prices: { bagani: 3200 },
        copyFrom: outgoing.id,
      })
    ).json().data.edition as Edition;
    // Its prices: the copied edition's, with the one named changed.
    expect(next.prices).toEqual({ ...outgoing.prices, bagani: 3200 });

    // Only an organiser; then the rollover itself.
    expect((await call(marshall, 'POST', `/api/admin/editions/${next.id}/make-current`)).statusCode).toBe(403);
    const made = (await ok(admin, 'POST', `/api/admin/editions/${next.id}/make-current`)).json();
    expect(made.message).toBe(`${next.name} is now the current edition`);
    expect(made.data.edition).toMatchObject({ id: next.id, current: true, closedAt: null });
    expect(made.data.archived).toMatchObject({ editionId: outgoing.id, entries: 3 });
    const after = await editions();
    expect(after.find((e) => e.id === outgoing.id)).toMatchObject({ current: false, closedAt: expect.any(String) });
    expect(after.filter((e) => e.current).map((e) => e.id)).toEqual([next.id]);
    // Neither edition again.
    const again = await call(admin, 'POST', `/api/admin/editions/${next.id}/make-current`);
    expect([again.statusCode, again.json().code]).toEqual([409, 'EDITION_ALREADY_CURRENT']);
    const back = await call(admin, 'POST', `/api/admin/editions/${outgoing.id}/make-current`);
    expect([back.statusCode, back.json().code]).toEqual([409, 'EDITION_PAST']);

    // The past edition reads exactly as it did.
    for (const url of reads) {
      const sep = url.includes('?') ? '&' : '?';
      const res = await ok(admin, 'GET', `${url}${sep}edition=${outgoing.id}`);
      expect(res.body, url).toBe(before.get(url));
    }
    // Its history is read-only; the live stream is the current edition's only.
    const write = await call(admin, 'POST', `/api/admin/stations?edition=${outgoing.id}`, {
      name: 'X',
      kind: 'checkpoint',
    });
    expect([write.statusCode, write.json().code]).toEqual([409, 'EDITION_READ_ONLY']);
    expect((await call(admin, 'GET', `/api/admin/event/stream?edition=${outgoing.id}`)).statusCode).toBe(409);
    expect((await call(admin, 'GET', `/api/admin/users?edition=${randomUUID()}`)).json().code).toBe(
      'EDITION_NOT_FOUND',
    );
    expect((await call(admin, 'GET', '/api/admin/users?edition=nope')).statusCode).toBe(400);

    // The current edition starts empty of entries: no numbers, no verifications, no incidents,
    // the same stations reopened.
    const masterlist = (await ok(admin, 'GET', '/api/admin/users?limit=100')).json().data;
    const rows = JSON.stringify(masterlist);
    expect(rows).not.toContain(`"rider_number":${finisher.riderNumber}`);
    expect((await ok(admin, 'GET', '/api/admin/incidents')).json().data.incidents ?? []).toEqual([]);
    expect((await ok(admin, 'GET', '/api/admin/stations')).json().data.map((s: { id: string }) => s.id)).toEqual(
      expect.arrayContaining([start, finish]),
    );

    // Riders who have not joined are accounts, not entries: not in the masterlist or the counts.
    expect((await ok(admin, 'GET', '/api/admin/masterlist')).body).not.toContain(finisher.userId);
    expect((await ok(admin, 'GET', '/api/admin/dashboard/stats')).json().data.total_warriors).toBe(0);
    expect((await ok(admin, 'GET', '/api/admin/analytics')).json().data.riders).toBe(0);

    // The person stays; the entry is history.
    const returning = await record(finisher);
    expect(returning).toMatchObject({
      verificationStatus: 'not_entered',
      riderNumber: null,
      riderCode: null,
      category: null,
      stats: { fires: 1, eventsParticipated: 1 },
    });
    expect((await record(pending)).stats.eventsParticipated).toBe(0);
    const history = (await ok(finisher, 'GET', '/api/my/entries')).json().data as MyEntry[];
    expect(history).toEqual([
      expect.objectContaining({
        editionId: outgoing.id,
        current: false,
        riderNumber: finisher.riderNumber,
        verificationStatus: 'verified',
        result: expect.objectContaining({ state: 'finished', elapsedMs: expect.any(Number) }),
      }),
    ]);
    const profile = (await ok(null, 'GET', `/api/users/${finisher.userId}/profile`)).json().data as PublicProfile;
    expect(profile.editions).toEqual([
      expect.objectContaining({ editionId: outgoing.id, year: outgoing.year, state: 'finished', finisher: true }),
    ]);
    expect(profile.finisher).toBe(false);

    // A verified rider's number is held for them; a pending rider's is free.
    const taken = (await ok(null, 'GET', '/api/rider-numbers/taken')).json().data.takenNumbers as number[];
    expect(taken).toEqual(expect.arrayContaining([finisher.riderNumber, sos.riderNumber]));
    expect(taken).not.toContain(pending.riderNumber);
    const newcomer = await t.app.inject({
      method: 'POST',
      url: '/api/auth/register',
      payload: registrationFields({ riderNumber: String(finisher.riderNumber) }),
    });
    expect(newcomer.statusCode).toBe(409);
    expect(newcomer.json()).toMatchObject({ code: 'RIDER_NUMBER_HELD' });
    expect(newcomer.json().message).toMatch(
      new RegExp(`^Rider number ${finisher.riderNumber} is held for a returning rider until `),
    );

    // The returning rider's form starts from their last entry and their held number.
    const form = (await ok(finisher, 'GET', '/api/my/entries/next')).json().data as NextEntry;
    expect(form).toMatchObject({
      edition: { id: next.id, name: next.name, registration: 'open' },
      entered: false,
      heldNumber: finisher.riderNumber,
      heldUntil,
      prefill: {
        fromEdition: outgoing.name,
        category: 'bagani',
        tshirtSize: 'L',
        finisherSleeveSize: 'M',
        paymentMethod: 'gcash',
      },
    });
    const fields = {
      riderNumber: String(finisher.riderNumber),
      category: 'bagani',
      paymentMethod: 'gcash',
      tshirtSize: 'XL',
      finisherSleeveSize: 'M',
      vestSize: 'L',
    };
    // A bad entry changes nothing: the check's message, in the registration's order.
    const noReceipt = await enter(finisher, fields, false);
    expect([noReceipt.statusCode, noReceipt.json().message]).toEqual([
      400,
      'Payment receipt is required for non-cash payments.',
    ]);
    const someoneElses = await enter(sos, fields);
    expect(someoneElses.json()).toMatchObject({ code: 'RIDER_NUMBER_HELD' });
    const entered = await enter(finisher, fields);
    expect(entered.statusCode, entered.body).toBe(201);
    expect(entered.json().data.entry).toMatchObject({
      editionId: next.id,
      riderNumber: finisher.riderNumber,
      verificationStatus: 'pending',
    });
    expect(await record(finisher)).toMatchObject({
      verificationStatus: 'pending',
      riderNumber: finisher.riderNumber,
      tshirtSize: 'XL',
      hasPaymentReceipt: true,
      // The new edition's price.
      paymentAmount: 3200,
    });
    expect((await enter(finisher, fields)).json()).toMatchObject({ code: 'ENTRY_EXISTS' });
    expect((await ok(admin, 'GET', '/api/admin/masterlist')).body).toContain(finisher.userId);
    expect((await ok(admin, 'GET', '/api/admin/dashboard/stats')).json().data.total_warriors).toBe(1);
    // Verified again: a new rider code this year, and both editions count.
    const code = entered.json().data.entry.verificationCode as string;
    await ok(admin, 'POST', '/api/admin/verifications/verify', { verification_code: code, action: 'verified' });
    expect((await record(finisher)).stats.eventsParticipated).toBe(2);
    const entries = (await ok(finisher, 'GET', '/api/my/entries')).json().data as MyEntry[];
    expect(entries.map((e) => [e.editionId, e.current])).toEqual([
      [next.id, true],
      [outgoing.id, false],
    ]);

    // Once the date has passed, a held number is anyone's.
    await ok(admin, 'PATCH', `/api/admin/editions/${next.id}`, {
      numbersHeldUntil: new Date(Date.now() - 1000).toISOString(),
    });
    const free = (await ok(null, 'GET', '/api/rider-numbers/taken')).json().data.takenNumbers as number[];
    expect(free).not.toContain(sos.riderNumber);
    expect((await ok(finisher, 'GET', '/api/my/entries/next')).json().data).toMatchObject({ entered: true });

    // A deleted account goes from every edition at once, its past entry with it; the log keeps
    // who it was (a snapshot of the name), not its contact.
    const pastCard = (edition = outgoing.id) =>
      call(admin, 'GET', `/api/admin/users/${pending.userId}?edition=${edition}`);
    expect((await pastCard()).json().data.user).toMatchObject({ email: pending.email, phone_number: '09171234567' });
    await ok(admin, 'DELETE', `/api/admin/users/${pending.userId}`);
    for (const edition of [outgoing.id, next.id]) {
      const gone = await pastCard(edition);
      expect([gone.statusCode, gone.json().code]).toEqual([404, 'USER_NOT_FOUND']);
    }
    const deletion = (await ok(admin, 'GET', `/api/admin/logs?search=${encodeURIComponent(pending.email)}`)).json().data
      .logs as Array<{ user_name: string | null }>;
    expect(deletion).toEqual([]);
    const lastName = `Rider${/^rider\.(.+)@/.exec(pending.email)?.[1]}`;
    const named = (await ok(admin, 'GET', `/api/admin/logs?logType=activities&search=${lastName}`)).json().data
      .logs as Array<{ user_id: string | null; user_name: string | null; user_email: string | null }>;
    expect(named.length).toBeGreaterThan(0);
    for (const log of named) expect(log).toMatchObject({ user_id: null, user_name: `Datu ${lastName}` });
    // Outside the window, a returning rider is refused with the dates.
    await ok(admin, 'PATCH', `/api/admin/editions/${next.id}`, {
      registrationOpensAt: new Date(Date.now() - 2 * 86_400_000).toISOString(),
      registrationClosesAt: new Date(Date.now() - 86_400_000).toISOString(),
    });
    const late = await enter(sos, { ...fields, riderNumber: String(sos.riderNumber) });
    expect([late.statusCode, late.json().code]).toEqual([409, 'REGISTRATION_CLOSED']);
    expect(late.json().message).toMatch(new RegExp(`^Registration for ${next.name} closed on `));
  });

  it('gives the new edition the course of the edition it was copied from, or none', async () => {
    const first = (await editions()).find((e) => e.current) as Edition;
    const kept = await station({ name: `Kept ${randomUUID().slice(0, 4)}`, kind: 'checkpoint', day: 1, order: 3 });
    await ok(admin, 'PATCH', `/api/admin/stations/${kept}`, { closed: true });
    const year = Math.max(...(await editions()).map((e) => e.year));
    const make = async (copyFrom?: string) => {
      const body = {
        name: `Warriors ${randomUUID().slice(0, 6)}`,
        year: year + 1,
        startsOn: `${year + 1}-03-14`,
        endsOn: `${year + 1}-03-16`,
        copyFrom,
      };
      const made = (await ok(admin, 'POST', '/api/admin/editions', body)).json().data.edition as Edition;
      await ok(admin, 'POST', `/api/admin/editions/${made.id}/make-current`);
      return (await ok(admin, 'GET', '/api/admin/stations')).json().data as Array<{ id: string; closed: boolean }>;
    };
    // Copied from none: no stations.
    expect(await make()).toEqual([]);
    // Copied from an older edition: its stations again, reopened.
    const restored = await make(first.id);
    expect(restored.find((s) => s.id === kept)).toMatchObject({ closed: false });
  });
});
