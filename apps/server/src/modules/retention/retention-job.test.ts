// The daily retention job (DESIGN.md §12): each kind of an edition goes when its days after
// the edition's last day are over, from every staff answer and export that showed it, while
// the edition's counts, payments and finishers read the same. Editions end in the future
// here (the app's own worker runs the job on the real clock); the job is run with a `now`
// past each cutoff.
import { randomUUID } from 'node:crypto';
import { and, count, eq, inArray } from 'drizzle-orm';
import { describe, expect, it } from 'vitest';
import { editions } from '../../db/schema/editions';
import { files } from '../../db/schema/files';
import { retentionSweeps } from '../../db/schema/privacy';
import { positions, trackers } from '../../db/schema/tracking';
import { users } from '../../db/schema/users';
import { databaseFileStore } from '../../lib/file-store';
import { DB_KINDS, useTestApp } from '../../test/build-app';
import { FIXED_PATHS, inEditionUrl } from '../../test/every-answer';
import { approvedRider, emergencyAndMedicalColumns, injectAs, rejoinedRider, rollOver } from '../../test/factories';
import { sweepExpired } from './retention-job';

const DAY = 24 * 3_600_000;
const HOUR = 3_600_000;
/** A Manila calendar day `days` from now. */
const manilaDay = (days: number) => new Date(Date.now() + 8 * HOUR + days * DAY).toISOString().slice(0, 10);
/** The moment a kind kept `days` goes for an edition ending on `endsOn` (start of the next day + days, Manila). */
const cutoff = (endsOn: string, days: number) => new Date(Date.parse(`${endsOn}T00:00:00+08:00`) + (1 + days) * DAY);

describe.each(DB_KINDS)('retention job (%s)', (kind) => {
  const t = useTestApp(kind, 'admin');
  const admin = () => t.staff.admin;
  const db = () => t.database.db;
  const run = (now: Date) => sweepExpired(db(), databaseFileStore, now);

  /** Every staff answer about edition `editionId` that could carry the rider's data, as text. */
  async function staffTexts(editionId: string, riderId: string, incidentId: string): Promise<Record<string, string>> {
    const urls = [
      ...FIXED_PATHS.filter((p) => p.startsWith('/api/admin/')),
      `/api/admin/users/${riderId}`,
      `/api/admin/id-cards/user/${riderId}`,
      `/api/admin/kit-tracking/${riderId}`,
      `/api/admin/event/riders/${riderId}/timeline`,
      `/api/admin/incidents/${incidentId}`,
      '/api/admin/tracking/riders',
      `/api/admin/tracking/riders/${riderId}/track`,
    ];
    const out: Record<string, string> = {};
    for (const url of urls) {
      const res = await injectAs(t.app, admin(), 'GET', inEditionUrl(url, editionId));
      out[url] = `${res.statusCode} ${res.body}`;
    }
    const list = await injectAs(t.app, admin(), 'GET', inEditionUrl('/api/admin/exports', editionId));
    for (const { name } of list.json().data as Array<{ name: string }>) {
      const file = `${name}.csv`;
      const res = await injectAs(
        t.app,
        admin(),
        'GET',
        inEditionUrl(`/api/admin/exports/${file}?reason=${encodeURIComponent('Retention check')}`, editionId),
      );
      out[`/api/admin/exports/${file}`] = `${res.statusCode} ${res.body}`;
    }
    return out;
  }
  const carrying = (texts: Record<string, string>, value: string) =>
    Object.entries(texts)
      .filter(([, body]) => body.includes(value))
      .map(([url]) => url);

  /** The answers whose numbers must not move: counts, payments, finishers. */
  async function counts(editionId: string) {
    const get = async (url: string) => (await injectAs(t.app, admin(), 'GET', inEditionUrl(url, editionId))).json();
    const csv = async (file: string) =>
      (
        await injectAs(
          t.app,
          admin(),
          'GET',
          inEditionUrl(`/api/admin/exports/${file}?reason=${encodeURIComponent('Retention check')}`, editionId),
        )
      ).body;
    const incidents = (await get('/api/admin/incidents')).data as Array<{ id: string; kind: string; status: string }>;
    return {
      dashboard: (await get('/api/admin/dashboard/stats')).data,
      verifications: (await get('/api/admin/verifications/stats')).data,
      idCards: (await get('/api/admin/id-cards/stats')).data,
      analytics: (await get('/api/admin/analytics')).data.status,
      masterlist: (await get('/api/admin/masterlist?limit=100')).data.pagination,
      incidents: incidents.map((i) => [i.id, i.kind, i.status]),
      finishers: await csv('finishers.csv'),
      payments: await csv('payments.csv'),
    };
  }

  it('removes each kind of an ended edition when due, from every staff answer, and keeps the counts', async () => {
    const tag = randomUUID().slice(0, 8);
    const secrets = {
      allergies: `Bee stings ${tag}`,
      medicalConditions: `Asthma ${tag}`,
      emergencyContactName: `Kin ${tag}`,
      emergencyContactNumber: `0918${String(Number.parseInt(tag.slice(0, 6), 16) % 10_000_000).padStart(7, '0')}`,
      note: `Stuck at the river ${tag}`,
    };
    const sosLat = 7 + (Number.parseInt(tag.slice(0, 4), 16) * 10 + 7) / 1e7;
    const trackLat = 8 + (Number.parseInt(tag.slice(4, 8), 16) * 10 + 3) / 1e7;
    const rider = await approvedRider(t.app, admin(), { ...secrets, note: undefined, bloodType: 'AB-' });
    // A rider who enters the next edition too: their notes are needed for it.
    const returning = await approvedRider(t.app, admin(), { allergies: `Shellfish ${tag}`, bloodType: 'O+' });
    const sos = await injectAs(t.app, rider, 'POST', '/api/my/sos', {
      id: randomUUID(),
      kind: 'crash',
      note: secrets.note,
      position: { lat: sosLat, lng: 125.61, accuracy: 8, at: new Date().toISOString() },
    });
    expect(sos.statusCode, sos.body).toBe(201);
    const incidentId = sos.json().data.incident.id as string;

    const { past, next } = await rollOver(t.app, admin());
    const endsOn = manilaDay(3);
    await db()
      .update(editions)
      .set({ startsOn: manilaDay(1), endsOn })
      .where(eq(editions.id, past));
    await db()
      .insert(positions)
      .values(
        [0, 1, 2].map((i) => ({
          editionId: past,
          userId: rider.userId,
          at: new Date(Date.now() - i * 60_000),
          lat: trackLat,
          lng: 125.1,
        })),
      );
    await db()
      .insert(trackers)
      .values({
        editionId: past,
        userId: rider.userId,
        trackingId: `retention-${randomUUID()}`,
        enabled: true,
        lastLat: trackLat,
        lastLng: 125.1,
        lastAt: new Date(),
      });
    await rejoinedRider(t.app, admin(), returning);

    const before = await staffTexts(past, rider.userId, incidentId);
    for (const value of [
      secrets.allergies,
      secrets.emergencyContactName,
      secrets.note,
      String(sosLat),
      String(trackLat),
    ])
      expect([value, carrying(before, value).length > 0]).toEqual([value, true]);
    const countsBefore = await counts(past);
    const receiptsOf = async (userId: string) =>
      (
        await db()
          .select({ id: files.id })
          .from(files)
          .where(and(eq(files.userId, userId), eq(files.kind, 'payment_receipt')))
      ).length;
    expect(await receiptsOf(rider.userId)).toBe(1);

    // Not yet due: nothing of this edition goes.
    const early = await run(new Date(cutoff(endsOn, 30).getTime() - 1));
    expect(early.done.filter((d) => d.editionId === past)).toEqual([]);

    // Past 30 days: medical notes, contacts and positions; receipts and incidents are not due.
    const first = await run(new Date(cutoff(endsOn, 30).getTime() + HOUR));
    expect(first.failed).toEqual([]);
    expect(
      first.done
        .filter((d) => d.editionId === past)
        .map((d) => [d.kind, d.rows])
        .sort(),
    ).toEqual([
      ['contact', expect.any(Number)],
      ['medical', expect.any(Number)],
      ['positions', 3],
    ]);
    const [gone] = await db().select(emergencyAndMedicalColumns).from(users).where(eq(users.id, rider.userId));
    expect(gone).toEqual({
      emergencyContactName: null,
      emergencyContactNumber: null,
      bloodType: null,
      allergies: null,
      medicalConditions: null,
    });
    const [kept] = await db().select(emergencyAndMedicalColumns).from(users).where(eq(users.id, returning.userId));
    expect(kept).toMatchObject({
      allergies: `Shellfish ${tag}`,
      bloodType: 'O+',
      emergencyContactName: 'Amihan Rider',
    });
    const middle = await staffTexts(past, rider.userId, incidentId);
    expect(carrying(middle, secrets.note).length).toBeGreaterThan(0);
    expect(await receiptsOf(rider.userId)).toBe(1);

    // Past two years: receipts and incidents too.
    const later = new Date(cutoff(endsOn, 730).getTime() + HOUR);
    const second = await run(later);
    expect(second.failed).toEqual([]);
    expect(
      second.done
        .filter((d) => d.editionId === past)
        .map((d) => d.kind)
        .sort(),
    ).toEqual(['incidents', 'receipts']);
    expect(await receiptsOf(rider.userId)).toBe(0);
    const after = await staffTexts(past, rider.userId, incidentId);
    for (const value of [
      secrets.allergies,
      secrets.medicalConditions,
      secrets.emergencyContactName,
      secrets.emergencyContactNumber,
      secrets.note,
      String(sosLat),
      String(trackLat),
    ])
      expect([value, carrying(after, value)]).toEqual([value, []]);
    expect(await counts(past)).toEqual(countsBefore);
    // The current edition's answers no longer carry them either (the account's fields are gone).
    const current = await injectAs(t.app, admin(), 'GET', `/api/admin/users/${rider.userId}`);
    expect(current.body).not.toContain(secrets.allergies);

    // Once more: nothing to do, nothing changes.
    const sweeps = await db().select().from(retentionSweeps).where(eq(retentionSweeps.editionId, past));
    const again = await run(new Date(later.getTime() + DAY));
    expect(again.done.filter((d) => d.editionId === past)).toEqual([]);
    expect(await db().select().from(retentionSweeps).where(eq(retentionSweeps.editionId, past))).toEqual(sweeps);
    expect(await counts(past)).toEqual(countsBefore);
    // The next edition (its end not passed then) was untouched by the first run.
    expect(first.done.filter((d) => d.editionId === next)).toEqual([]);
  });

  it('keeps each edition’s own days: positions 0 days on one, 60 on another', async () => {
    const rider = await approvedRider(t.app, admin());
    const endsOn = manilaDay(5);
    const edition = async (days: number) => {
      const [row] = await db()
        .insert(editions)
        .values({ name: `Retention ${days} ${randomUUID().slice(0, 6)}`, year: 2030, startsOn: endsOn, endsOn })
        .returning();
      if (!row) throw new Error('no edition');
      const put = await injectAs(t.app, admin(), 'PUT', `/api/admin/editions/${row.id}/retention`, { positions: days });
      expect(put.statusCode, put.body).toBe(200);
      await db()
        .insert(positions)
        .values(
          [0, 1].map((i) => ({
            editionId: row.id,
            userId: rider.userId,
            at: new Date(Date.now() - i * 1000),
            lat: 8.2,
            lng: 125.2,
          })),
        );
      return row.id;
    };
    const none = await edition(0);
    const sixty = await edition(60);
    const left = async () => {
      const rows = await db()
        .select({ editionId: positions.editionId, n: count() })
        .from(positions)
        .where(inArray(positions.editionId, [none, sixty]))
        .groupBy(positions.editionId);
      return Object.fromEntries([none, sixty].map((id) => [id, Number(rows.find((r) => r.editionId === id)?.n ?? 0)]));
    };

    await run(new Date(cutoff(endsOn, 0).getTime() - 1));
    expect(await left()).toEqual({ [none]: 2, [sixty]: 2 });
    await run(new Date(cutoff(endsOn, 0).getTime() + HOUR));
    expect(await left()).toEqual({ [none]: 0, [sixty]: 2 });
    await run(new Date(cutoff(endsOn, 59).getTime() + HOUR));
    expect(await left()).toEqual({ [none]: 0, [sixty]: 2 });
    await run(new Date(cutoff(endsOn, 60).getTime() + HOUR));
    expect(await left()).toEqual({ [none]: 0, [sixty]: 0 });

    const read = await injectAs(t.app, admin(), 'GET', `/api/admin/editions/${none}/retention`);
    const positionsState = read.json().data.retention.kinds.find((k: { kind: string }) => k.kind === 'positions');
    expect(positionsState).toMatchObject({
      days: 0,
      isDefault: false,
      rows: 2,
      goesOn: cutoff(endsOn, 0).toISOString(),
    });
    expect(positionsState.wentAt).toBe(new Date(cutoff(endsOn, 0).getTime() + HOUR).toISOString());
    await db()
      .delete(editions)
      .where(inArray(editions.id, [none, sixty]));
  });
  // Last in the file: it dates the current edition in the past and sweeps it.
  it('keeps the current edition while its registration is open, whatever its dates say', async () => {
    const [current] = await db().select().from(editions).where(eq(editions.current, true));
    if (!current) throw new Error('no current edition');
    const longAgo = manilaDay(-800);
    await db()
      .update(editions)
      .set({ startsOn: longAgo, endsOn: longAgo, registrationClosesAt: null })
      .where(eq(editions.id, current.id));
    const sweptKinds = async () =>
      (
        await db()
          .select({ kind: retentionSweeps.kind })
          .from(retentionSweeps)
          .where(eq(retentionSweeps.editionId, current.id))
      )
        .map((r) => r.kind)
        .sort();
    try {
      await run(new Date());
      expect(await sweptKinds()).toEqual([]);
      const held = await injectAs(t.app, admin(), 'GET', `/api/admin/editions/${current.id}/retention`);
      expect(held.json().data.retention).toMatchObject({ heldOpen: true });
      // Registration closed: its time has run, every kind goes.
      await db()
        .update(editions)
        .set({ registrationClosesAt: new Date(Date.now() - HOUR) })
        .where(eq(editions.id, current.id));
      await run(new Date());
      expect(await sweptKinds()).toEqual(['contact', 'incidents', 'medical', 'positions', 'receipts']);
      const closed = await injectAs(t.app, admin(), 'GET', `/api/admin/editions/${current.id}/retention`);
      expect(closed.json().data.retention).toMatchObject({ heldOpen: false });
    } finally {
      await db().delete(retentionSweeps).where(eq(retentionSweeps.editionId, current.id));
      await db()
        .update(editions)
        .set({
          startsOn: current.startsOn,
          endsOn: current.endsOn,
          registrationClosesAt: current.registrationClosesAt,
        })
        .where(eq(editions.id, current.id));
    }
  });
});
