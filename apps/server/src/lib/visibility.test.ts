// The visibility rule over every staff read: for each staff role as the viewer, every
// list leaves out the accounts that role may not see (developers for non-developers,
// other admins for admins), and every by-id read answers them as not found. Lists the
// viewer may not open at all answer 403. A developer sees everyone, which proves the
// hidden accounts really are in the data the lists read.
import { type Role, STAFF_ROLES } from '@rally/shared/catalog/accounts';
import { can, hiddenRolesFor, type Permission } from '@rally/shared/permissions';
import { eq } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { verificationHistory } from '../db/schema/entries';
import { files } from '../db/schema/files';
import { users } from '../db/schema/users';
import { createResetLink } from '../modules/password-resets/password-resets.service';
import { buildTestApp, DB_KINDS, type TestApp } from '../test/build-app';
import { type Actor, approvedRider, bearer, login, png, staff } from '../test/factories';
import { bytesParam } from './file-bytes';
import { canSee, visibleOrNotFound } from './visibility';

interface Account extends Actor {
  marker: string;
}

/** Every staff list, the permission that opens it, and whether staff accounts belong in it. */
const LISTS: { url: string; permission: Permission; listsStaff: boolean }[] = [
  { url: '/api/admin/users?limit=100', permission: 'view_users', listsStaff: true },
  { url: '/api/admin/masterlist?limit=100', permission: 'view_masterlist', listsStaff: false },
  { url: '/api/admin/activities?limit=100', permission: 'view_dashboard', listsStaff: true },
  { url: '/api/admin/login-activities?limit=100', permission: 'view_logs', listsStaff: true },
  { url: '/api/admin/logs?limit=200', permission: 'view_logs', listsStaff: true },
  { url: '/api/admin/password-resets/history?limit=200', permission: 'manage_password_resets', listsStaff: true },
  { url: '/api/admin/password-resets/users?limit=100', permission: 'manage_password_resets', listsStaff: true },
  { url: '/api/admin/verifications/pending', permission: 'verify_users', listsStaff: false },
  { url: '/api/admin/verifications/history?limit=100', permission: 'verify_users', listsStaff: true },
  { url: '/api/admin/kit-tracking?limit=200', permission: 'manage_kits', listsStaff: false },
  { url: '/api/admin/id-cards/search?limit=200', permission: 'manage_id_cards', listsStaff: false },
  { url: '/api/admin/announcements', permission: 'manage_announcements', listsStaff: false },
  // Each account recorded one flagged scan (the marshal who made it is named on the card).
  { url: '/api/admin/scans/flagged?state=all&limit=100', permission: 'view_dashboard', listsStaff: true },
  // Exports (issue 17): spreadsheets of the same populations.
  { url: '/api/admin/exports/masterlist.csv?reason=Audit', permission: 'view_masterlist', listsStaff: false },
  { url: '/api/admin/exports/payments.csv', permission: 'view_masterlist', listsStaff: false },
  { url: '/api/admin/exports/insurance-bagani.csv?reason=Audit', permission: 'view_masterlist', listsStaff: false },
  { url: '/api/admin/incidents', permission: 'view_dashboard', listsStaff: false },
  { url: '/api/admin/incidents/assignees', permission: 'handle_incidents', listsStaff: false },
];

/** Every staff read of one account by id, and the permission it needs (null: any signed-in user). */
const BY_ID: { url: (id: string) => string; permission: Permission | null }[] = [
  { url: (id) => `/api/admin/users/${id}`, permission: 'view_users' },
  { url: (id) => `/api/admin/users/${id}/login-activity`, permission: 'view_users' },
  { url: (id) => `/api/admin/id-cards/user/${id}`, permission: 'manage_id_cards' },
  { url: (id) => `/api/upload/payment-receipt/${id}`, permission: 'verify_users' },
];

describe('visibility helpers', () => {
  it('hide developers from non-developers and admins from admins', () => {
    expect(canSee('developer', 'developer')).toBe(true);
    expect(canSee('developer', 'admin')).toBe(true);
    expect(canSee('admin', 'developer')).toBe(false);
    expect(canSee('admin', 'admin')).toBe(false);
    expect(canSee('admin', 'marshall')).toBe(true);
    expect(canSee('marshall', 'admin')).toBe(true);
    expect(canSee('officer', 'developer')).toBe(false);
    expect(canSee('participant', 'participant')).toBe(true);
    const notFound = () => new Error('missing');
    expect(() => visibleOrNotFound('admin', { role: 'admin' }, notFound)).toThrow('missing');
    expect(() => visibleOrNotFound('admin', undefined, notFound)).toThrow('missing');
    expect(visibleOrNotFound('admin', { role: 'officer' }, notFound)).toEqual({ role: 'officer' });
  });
});

describe.each(DB_KINDS)('every staff read applies the visibility rule (%s)', (kind) => {
  let t: TestApp;
  const accounts: Account[] = [];
  /** One account per staff role signs in as the viewer; a second one of each role is looked at. */
  const viewers = new Map<Role, Account>();
  let rider: Awaited<ReturnType<typeof approvedRider>>;

  beforeAll(async () => {
    t = await buildTestApp(kind);
    const db = t.database.db;
    for (const role of STAFF_ROLES) {
      for (const n of [1, 2]) {
        const actor = await staff(t.app, db, role);
        const marker = `MARK${role.toUpperCase()}${n}${actor.userId.slice(0, 6)}`;
        const account = { ...actor, marker };
        accounts.push(account);
        if (n === 1) viewers.set(role, account);
      }
    }
    const developer = viewers.get('developer')!;
    rider = await approvedRider(t.app, developer);
    const station = await t.app.inject({
      method: 'POST',
      url: '/api/admin/stations',
      headers: bearer(developer.token),
      payload: { name: 'Visibility checkpoint', kind: 'checkpoint' },
    });
    expect(station.statusCode, station.body).toBe(201);
    const stationId = station.json().data.id as string;
    const scanned = await t.app.inject({
      method: 'POST',
      url: '/api/admin/scans',
      headers: bearer(developer.token),
      payload: {
        scans: accounts.map((account, i) => ({
          id: crypto.randomUUID(),
          stationId,
          riderNumber: 9000 + i,
          scannedAt: new Date().toISOString(),
          deviceId: 'visibility-test',
          source: 'manual',
          recordedBy: account.userId,
        })),
      },
    });
    expect(
      scanned.json().data.results.every((r: { status: string }) => r.status === 'flagged'),
      scanned.body,
    ).toBe(true);
    for (const account of accounts) {
      // Each account's kit name is its marker, set through the console (an activity about it).
      const editor =
        account.userId === developer.userId
          ? accounts.find((a) => a.role === 'developer' && a !== account)!
          : developer;
      const edit = await t.app.inject({
        method: 'PATCH',
        url: `/api/admin/users/${account.userId}`,
        headers: bearer(editor.token),
        payload: { kit_name: account.marker },
      });
      expect(edit.statusCode, edit.body).toBe(200);
      // A failed sign-in, a reset link, a receipt and a verification entry about each account.
      await login(t.app, account.email, 'Wrong-password-1');
      await createResetLink(db, account.userId, 'http://localhost', null);
      // Staff accounts are made verified, so a receipt cannot be uploaded through the route:
      // one from before their promotion is written as the upload route stores it.
      const data = await png();
      await db.insert(files).values({
        userId: account.userId,
        kind: 'payment_receipt',
        mimeType: 'image/png',
        sizeBytes: data.length,
        width: 48,
        height: 48,
        sha256: account.marker,
        originalName: 'receipt.png',
        data: bytesParam(data),
      });
      const [u] = await db.select().from(users).where(eq(users.id, account.userId));
      await db.insert(verificationHistory).values({
        userId: account.userId,
        userFirstName: u!.firstName,
        userLastName: u!.lastName,
        kitName: account.marker,
        verificationCode: `CODE-${account.marker}`,
        action: 'verified',
      });
    }
  });
  afterAll(async () => {
    await t?.close();
  });

  const hiddenFrom = (viewer: Account) =>
    accounts.filter((a) => a.userId !== viewer.userId && hiddenRolesFor(viewer.role).includes(a.role));
  const shows = (body: string, a: Account) =>
    body.includes(a.marker) || body.includes(a.email) || body.includes(a.userId);

  for (const role of STAFF_ROLES) {
    it(`${role}: lists leave out hidden accounts`, async () => {
      const viewer = viewers.get(role)!;
      for (const list of LISTS) {
        const res = await t.app.inject({ method: 'GET', url: list.url, headers: bearer(viewer.token) });
        if (!can(role, list.permission)) {
          expect(res.statusCode, `${role} ${list.url}`).toBe(403);
          continue;
        }
        expect(res.statusCode, `${role} ${list.url}: ${res.body}`).toBe(200);
        for (const hidden of hiddenFrom(viewer)) {
          expect(shows(res.body, hidden), `${role} sees ${hidden.role} in ${list.url}`).toBe(false);
        }
        if (role === 'developer' && list.listsStaff) {
          const peer = accounts.find((a) => a.role === 'developer' && a.userId !== viewer.userId)!;
          const admin = accounts.find((a) => a.role === 'admin')!;
          expect(shows(res.body, peer) && shows(res.body, admin), `developer sees everyone in ${list.url}`).toBe(true);
        }
      }
    });

    it(`${role}: by-id reads answer hidden accounts as not found`, async () => {
      const viewer = viewers.get(role)!;
      for (const read of BY_ID) {
        const allowed = read.permission === null || can(role, read.permission);
        for (const target of accounts.filter((a) => a.userId !== viewer.userId)) {
          const res = await t.app.inject({
            method: 'GET',
            url: read.url(target.userId),
            headers: bearer(viewer.token),
          });
          const label = `${role} reads ${target.role} at ${read.url(':id')}`;
          if (!allowed) {
            expect([403, 404], label).toContain(res.statusCode);
          } else if (hiddenFrom(viewer).includes(target)) {
            expect(res.statusCode, label).toBe(404);
          } else if (!read.url('').includes('id-cards')) {
            // ID cards answer 409 for accounts without a rider code; every other read succeeds.
            expect(res.statusCode, `${label}: ${res.body}`).toBe(200);
          }
        }
        if (allowed) {
          const res = await t.app.inject({ method: 'GET', url: read.url(rider.userId), headers: bearer(viewer.token) });
          expect(res.statusCode, `${role} reads a rider at ${read.url(':id')}: ${res.body}`).toBe(200);
        }
      }
    });
  }
});
