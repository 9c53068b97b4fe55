// The authorization matrix, generated from the server's own route table: every route
// registered under /api is called by every role, by an anonymous visitor and by an
// unverified rider, with a syntactically valid but harmless request, and the answer is
// checked against the route's declared access (accessAllows + the permission matrix).
// Routes added later are covered automatically; a route the specs name but the table
// lacks fails the test.
import { randomBytes, randomUUID } from 'node:crypto';
import { ROLES, type Role } from '@rally/shared/catalog/accounts';
import { PERMISSIONS } from '@rally/shared/permissions';
import { and, eq } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { files } from '../db/schema/files';
import { createSession } from '../modules/auth/auth.service';
import { buildTestApp, DB_KINDS, type TestApp } from '../test/build-app';
import { bearer, registerRider, staff } from '../test/factories';
import { type Access, accessAllows, describeAccess, type RouteEntry } from './authorize';

/** Every call the rider site and the staff console make, as the server mounts it. */
const EXPECTED_ROUTES = [
  // Rider site: auth
  'POST /api/auth/register',
  'POST /api/auth/register-with-uploads',
  'POST /api/auth/login',
  'POST /api/auth/refresh',
  'POST /api/auth/logout',
  'GET /api/auth/profile',
  'POST /api/auth/forgot-password',
  'GET /api/auth/reset-password/:token',
  'POST /api/auth/reset-password',
  // Rider site: users and social
  'GET /api/users/:id/profile',
  'POST /api/users/:id/fire',
  'GET /api/users/:id/fire/status',
  'POST /api/users/:id/comments',
  'GET /api/users/:id/comments',
  'GET /api/my/comments',
  // Rider site: rider numbers
  'GET /api/rider-numbers/taken',
  'GET /api/rider-numbers/check/:n',
  'GET /api/rider-numbers/my-number',
  'POST /api/rider-numbers/assign',
  // Rider site: uploads
  'POST /api/upload/profile-image',
  'POST /api/upload/payment-receipt',
  'DELETE /api/upload/profile-image/:id',
  'DELETE /api/upload/payment-receipt/:id',
  'GET /api/upload/user-files',
  'GET /api/upload/payment-receipt/:id',
  'GET /api/upload/profile-image/:id',
  'GET /api/public/profile-image/:id',
  // Rider site: rider kit and announcements
  'POST /api/my/tshirt-size',
  'GET /api/my/tshirt-size/status',
  'POST /api/my/gear-sizes',
  'GET /api/my/gear-sizes',
  'GET /api/my/rider-code',
  'PATCH /api/my/details',
  'GET /api/announcements',
  // Console: users, activity, dashboard, masterlist
  'GET /api/admin/users',
  'GET /api/admin/users/:id',
  'PATCH /api/admin/users/:id',
  'DELETE /api/admin/users/:id',
  'PATCH /api/admin/users/:id/status',
  'PATCH /api/admin/users/:id/role',
  'PUT /api/admin/users/:id/kit-sizes',
  'GET /api/admin/users/:id/login-activity',
  'GET /api/admin/login-activities',
  'GET /api/admin/activities',
  'POST /api/admin/activities/sample',
  'GET /api/admin/dashboard/stats',
  'GET /api/admin/analytics',
  'GET /api/admin/masterlist',
  // Console: logs
  'GET /api/admin/logs',
  'GET /api/admin/logs/stats',
  // Privacy: who looked
  'GET /api/my/data-access',
  'GET /api/admin/data-access',
  'GET /api/admin/data-access/affected',
  // Privacy: your data, on request
  'POST /api/my/data-export',
  'GET /api/my/data-export',
  'GET /api/my/data-export/:id',
  'GET /api/my/data-export/:id/download',
  'POST /api/admin/users/:id/data-export',
  'GET /api/admin/data-exports/:id',
  'GET /api/admin/data-exports/:id/download',
  // Privacy: consent on record
  'GET /api/privacy/notice',
  'PUT /api/admin/privacy/notice',
  'GET /api/my/consents',
  'PUT /api/my/consents/notice',
  'PUT /api/my/consents/:purpose',
  // Privacy: erasure on request
  'GET /api/my/erasure-request',
  'POST /api/my/erasure-request',
  'DELETE /api/my/erasure-request',
  'GET /api/admin/erasure-requests',
  'POST /api/admin/erasure-requests/:id/approve',
  'POST /api/admin/erasure-requests/:id/refuse',
  'GET /api/admin/data-access/people',
  // Privacy: retention per edition
  'GET /api/admin/editions/:id/retention',
  'PUT /api/admin/editions/:id/retention',
  // Console: verifications
  'GET /api/admin/verifications/pending',
  'POST /api/admin/verifications/verify',
  'POST /api/admin/verifications/undo/:id',
  'GET /api/admin/verifications/history',
  'GET /api/admin/verifications/stats',
  'GET /api/admin/verifications/:id/receipt-check',
  'PATCH /api/admin/verifications/:id/reading',
  // Console: payment statements
  'POST /api/admin/payment-statements',
  'GET /api/admin/payment-statements',
  'GET /api/admin/payment-statements/:id',
  'GET /api/my/verification',
  'POST /api/my/verification/receipt',
  // Console: password resets
  'POST /api/admin/password-resets/generate',
  'GET /api/admin/password-resets/history',
  'POST /api/admin/password-resets/cleanup',
  // Console: announcements
  'GET /api/admin/announcements',
  'POST /api/admin/announcements',
  'PUT /api/admin/announcements/:id',
  'DELETE /api/admin/announcements/:id',
  // Tracking (DESIGN.md §11)
  'GET /api/tracking/osmand',
  'POST /api/tracking/osmand',
  'GET /api/my/tracking',
  'PUT /api/my/tracking',
  'GET /api/routes',
  'PUT /api/admin/routes/:trial/track',
  'DELETE /api/admin/routes/:trial/track',
  'GET /api/admin/tracking/riders',
  'GET /api/admin/tracking/riders/:userId/track',
  'POST /api/admin/tracking/alerts/:incidentId/dismiss',
  // Console: kit tracking and ID cards
  'GET /api/admin/kit-tracking',
  'PUT /api/admin/kit-tracking/:id',
  'POST /api/admin/kit-tracking/bulk-update',
  'GET /api/admin/id-cards/search',
  'GET /api/admin/id-cards/user/:id',
  'POST /api/admin/id-cards/mark-printed/:id',
  'PUT /api/admin/id-cards/medical-info/:id',
  'GET /api/admin/id-cards/stats',
  // Event day
  'GET /api/admin/stations',
  'POST /api/admin/stations',
  'PATCH /api/admin/stations/:id',
  'DELETE /api/admin/stations/:id',
  'POST /api/admin/scans',
  'GET /api/admin/scan-roster',
  'GET /api/my/passages',
  // Exports and sticker sheets
  'GET /api/admin/exports/:file',
  'POST /api/my/sos',
  'GET /api/my/incidents',
  'GET /api/admin/incidents',
  'POST /api/admin/incidents/:id/acknowledge',
  'POST /api/admin/incidents/:id/assign',
  'POST /api/admin/incidents/:id/resolve',
  'GET /api/admin/event/board',
  'GET /api/admin/event/stream',
  'GET /api/live',
];

/** Routes that answer a stream that never ends: read as a stream and dropped once the headers are in. */
const STREAMS = new Set(['GET /api/admin/event/stream']);

/** The permission each console route declares, from the staff role/permission matrix. */
const DECLARED: Record<string, Access> = {
  'GET /api/admin/users': { permission: 'view_users' },
  'GET /api/admin/users/:id': { permission: 'view_users' },
  'PATCH /api/admin/users/:id': { permission: 'edit_user_info' },
  'DELETE /api/admin/users/:id': { permission: 'delete_user' },
  'PATCH /api/admin/users/:id/status': { permission: 'edit_user_info' },
  'PATCH /api/admin/users/:id/role': { permission: 'edit_user_role' },
  'PUT /api/admin/users/:id/kit-sizes': { permission: 'edit_user_info' },
  'GET /api/admin/users/:id/login-activity': { permission: 'view_users' },
  'GET /api/admin/login-activities': { permission: 'view_logs' },
  'GET /api/admin/activities': { permission: 'view_dashboard' },
  'POST /api/admin/activities/sample': { permission: 'edit_user_info' },
  'GET /api/admin/dashboard/stats': { permission: 'view_dashboard' },
  'GET /api/admin/analytics': { permission: 'view_dashboard' },
  'GET /api/admin/masterlist': { permission: 'view_masterlist' },
  'GET /api/admin/verifications/pending': { permission: 'verify_users' },
  'POST /api/admin/verifications/verify': { permission: 'verify_users' },
  'POST /api/admin/verifications/undo/:id': { permission: 'undo_verification' },
  'GET /api/admin/verifications/history': { permission: 'verify_users' },
  'GET /api/admin/verifications/stats': { permission: 'verify_users' },
  'GET /api/admin/verifications/:id/receipt-check': { permission: 'verify_users' },
  'PATCH /api/admin/verifications/:id/reading': { permission: 'verify_users' },
  'POST /api/admin/payment-statements': { permission: 'verify_users' },
  'GET /api/admin/payment-statements': { permission: 'verify_users' },
  'GET /api/admin/payment-statements/:id': { permission: 'verify_users' },
  // The rider's own verification: the rejection reason and a new receipt.
  'GET /api/my/verification': 'authenticated',
  'POST /api/my/verification/receipt': 'authenticated',
  // Event day: scanners use qr_scan, station and review changes manage_event.
  'GET /api/admin/stations': { anyPermission: ['qr_scan', 'view_dashboard'] },
  'POST /api/admin/stations': { permission: 'manage_event' },
  'PATCH /api/admin/stations/:id': { permission: 'manage_event' },
  'DELETE /api/admin/stations/:id': { permission: 'manage_event' },
  'POST /api/admin/stations/reorder': { permission: 'manage_event' },
  'POST /api/admin/stations/seed-defaults': { permission: 'manage_event' },
  'POST /api/admin/scans': { permission: 'qr_scan' },
  'GET /api/admin/scan-roster': { permission: 'qr_scan' },
  'GET /api/admin/scans/flagged': { permission: 'view_dashboard' },
  'POST /api/admin/scans/:id/review': { permission: 'manage_event' },
  'GET /api/my/passages': 'authenticated',
  // The rider's own contact, emergency contact and medical notes: only ever the signed-in user's.
  'PATCH /api/my/details': 'authenticated',
  // SOS and incidents: anyone signed in may call for help; the board reads with
  // view_dashboard; acting on an incident needs handle_incidents.
  'POST /api/my/sos': 'authenticated',
  'GET /api/my/incidents': 'authenticated',
  'GET /api/admin/incidents': { permission: 'view_dashboard' },
  'POST /api/admin/incidents': { permission: 'handle_incidents' },
  'GET /api/admin/incidents/assignees': { permission: 'handle_incidents' },
  'POST /api/admin/incidents/:id/acknowledge': { permission: 'handle_incidents' },
  'POST /api/admin/incidents/:id/assign': { permission: 'handle_incidents' },
  'POST /api/admin/incidents/:id/resolve': { permission: 'handle_incidents' },
  'POST /api/admin/incidents/:id/abuse': { permission: 'handle_incidents' },
  'GET /api/admin/incidents/abuse-marks': { permission: 'view_dashboard' },
  'DELETE /api/admin/incidents/abuse-marks/:userId': { permission: 'handle_incidents' },
  'GET /api/settings/event': 'public',
  'PUT /api/admin/settings/event': { permission: 'manage_event' },
  // The course: the board and its stream for view_dashboard, decisions and rules manage_event.
  'GET /api/admin/event/board': { permission: 'view_dashboard' },
  'GET /api/admin/event/board/:stationId/riders': { permission: 'view_dashboard' },
  'GET /api/admin/event/overdue': { permission: 'view_dashboard' },
  'GET /api/admin/event/riders': { permission: 'view_dashboard' },
  'GET /api/admin/event/riders/:id/timeline': { permission: 'view_dashboard' },
  'POST /api/admin/event/riders/:id/decision': { permission: 'manage_event' },
  'GET /api/admin/event/rules': { permission: 'view_dashboard' },
  'PUT /api/admin/event/rules/:routeId': { permission: 'manage_event' },
  'GET /api/admin/event/stream': { permission: 'view_dashboard' },
  // The public tracker: no sign-in, nothing private.
  'GET /api/live': 'public',
  // A kit station's scanner reads the kit; handing over keeps needing manage_kits.
  'GET /api/admin/kit-tracking/:userId': { anyPermission: ['qr_scan', 'manage_kits'] },
  'POST /api/admin/kit-tracking/:userId/hand-over-all': { permission: 'manage_kits' },
  // Exports carry contact data: view_masterlist, never officers. Sheets print stickers.
  'GET /api/admin/exports': { permission: 'view_masterlist' },
  'GET /api/admin/exports/:file': { permission: 'view_masterlist' },
  'POST /api/admin/stickers/sheet': { permission: 'manage_id_cards' },
  // Messages (DESIGN.md §10): the delivery log for the console, a test message for those who
  // run the event, each account's own channels and browsers, and public links in emails.
  'GET /api/admin/messages': { permission: 'view_dashboard' },
  'GET /api/admin/messages/channels': { permission: 'view_dashboard' },
  'POST /api/admin/messages/test': { permission: 'manage_event' },
  'GET /api/push/public-key': 'public',
  'POST /api/my/push-subscriptions': 'authenticated',
  'DELETE /api/my/push-subscriptions': 'authenticated',
  'GET /api/my/notification-settings': 'authenticated',
  'PATCH /api/my/notification-settings': 'authenticated',
  'GET /api/unsubscribe': 'public',
  'POST /api/unsubscribe': 'public',
  // Following a rider: anyone with the link; the rider's own list.
  'POST /api/follow/:userId': 'public',
  'POST /api/follow/confirm': 'public',
  'GET /api/my/followers': 'authenticated',
  'DELETE /api/my/followers/:id': 'authenticated',
  // The SMS phone's webhook: no session, its own signature (modules/sms-inbound); the PIN
  // that makes a text's scans count, for those who scan.
  'POST /api/sms/inbound': 'public',
  'PUT /api/my/sms-pin': { permission: 'qr_scan' },
};

/** Public routes that check a signature of their own (no session): unsigned, they answer 401. */
const SIGNED = new Set(['POST /api/sms/inbound']);

/** Path parameter names differ between modules (:id, :userId); compare shapes only. */
const shape = (key: string) => key.replace(/:[A-Za-z0-9_]+/g, ':param');
const keyOf = (r: RouteEntry) => `${r.method} ${r.url}`;

type Actor = { label: string; role: Role; verificationStatus: 'verified' | 'pending'; userId: string } | null;
const ACTOR_LABELS = [...ROLES, 'pending participant', 'anonymous'] as const;

/** A valid but harmless value for a path parameter: nothing with such an id exists. */
function paramValue(name: string): string {
  if (name === 'n' || name === 'riderNumber') return '500';
  if (name === 'token') return randomBytes(32).toString('base64url');
  return randomUUID();
}

function concreteUrl(url: string): string {
  return url.replace(/:([A-Za-z0-9_]+)/g, (_, name: string) => paramValue(name));
}

// The table is read from a throwaway app so each route becomes its own test case.
const ROUTES: RouteEntry[] = await (async () => {
  const probe = await buildTestApp('pglite');
  const table = [...probe.app.routeTable].sort((a, b) => keyOf(a).localeCompare(keyOf(b)));
  await probe.close();
  return table;
})();

describe('the route table', () => {
  it('holds every route the specs name', () => {
    const present = new Set(ROUTES.map((r) => shape(keyOf(r))));
    const missing = EXPECTED_ROUTES.filter((k) => !present.has(shape(k)));
    expect(missing, `routes missing from the table: ${missing.join(', ')}`).toEqual([]);
  });

  it('guards every admin route with a staff permission or staff roles', () => {
    const staffRoles: readonly string[] = ['admin', 'marshall', 'officer', 'developer'];
    const rolesOf = (access: Access): readonly string[] | null => {
      if (typeof access === 'string') return null;
      if ('permission' in access) return PERMISSIONS[access.permission];
      if ('anyPermission' in access) return access.anyPermission.flatMap((p) => PERMISSIONS[p]);
      return access.roles;
    };
    const unguarded = ROUTES.filter((r) => r.url.startsWith('/api/admin/')).filter((r) => {
      const roles = rolesOf(r.access);
      return roles === null || !roles.every((role) => staffRoles.includes(role));
    });
    expect(unguarded.map(keyOf)).toEqual([]);
  });

  it('declares the matrix permission on each console route of users, verifications, the dashboard and event day', () => {
    const byShape = new Map(ROUTES.map((r) => [shape(keyOf(r)), r.access]));
    for (const [key, access] of Object.entries(DECLARED)) {
      expect(byShape.get(shape(key)), key).toEqual(access);
    }
  });
});

describe.each(DB_KINDS)('authorization of every route (%s)', (kind) => {
  let t: TestApp;
  const actors = new Map<string, Actor>();

  beforeAll(async () => {
    t = await buildTestApp(kind);
    for (const role of ROLES) {
      const a = await staff(t.app, t.database.db, role);
      actors.set(role, { label: role, role, verificationStatus: 'verified', userId: a.userId });
    }
    const pending = await registerRider(t.app);
    actors.set('pending participant', {
      label: 'pending participant',
      role: 'participant',
      verificationStatus: 'pending',
      userId: pending.userId,
    });
    actors.set('anonymous', null);
  });
  afterAll(async () => {
    await t?.close();
  });

  /** A fresh session per request, so routes such as logout and refresh cannot spoil later calls. */
  async function headersFor(actor: Actor): Promise<Record<string, string>> {
    if (!actor) return {};
    const token = await createSession(t.database.db, actor.userId, { ip: null, userAgent: null });
    return bearer(token);
  }

  it.each(ROUTES.map((r) => [keyOf(r), describeAccess(r.access), r] as const))(
    '%s (%s)',
    async (_key, _access, route) => {
      const problems: string[] = [];
      for (const label of ACTOR_LABELS) {
        const actor = actors.get(label) ?? null;
        const expected = accessAllows(route.access, actor);
        const withBody = route.method === 'POST' || route.method === 'PUT' || route.method === 'PATCH';
        const streamed = STREAMS.has(keyOf(route)) && expected === 'ok';
        const res = await t.app.inject({
          method: route.method as 'GET',
          url: concreteUrl(route.url),
          headers: await headersFor(actor),
          ...(withBody ? { payload: {} } : {}),
          ...(streamed ? { payloadAsStream: true } : {}),
        });
        if (streamed) res.stream().destroy();
        const status = res.statusCode;
        if (expected === 'ok') {
          // A signed webhook's 401 is its own signature check, the same for every caller.
          if ((status === 401 || status === 403) && !(SIGNED.has(keyOf(route)) && status === 401))
            problems.push(`${label}: allowed but answered ${status} ${(res.body ?? '').slice(0, 200)}`);
        } else if (status !== expected) {
          problems.push(`${label}: expected ${expected}, answered ${status} ${(res.body ?? '').slice(0, 200)}`);
        }
        // Whatever the verdict, the shape of a request alone never makes the server fail.
        if (status >= 500) problems.push(`${label}: answered ${status} ${(res.body ?? '').slice(0, 200)}`);
      }
      expect(problems).toEqual([]);
    },
  );

  it('never lets a rider read or delete another rider’s files', async () => {
    const owner = await registerRider(t.app);
    const other = await registerRider(t.app);
    const ownerFiles = await t.database.db
      .select({ id: files.id, kind: files.kind })
      .from(files)
      .where(eq(files.userId, owner.userId));
    const receipt = ownerFiles.find((f) => f.kind === 'payment_receipt');
    const image = ownerFiles.find((f) => f.kind === 'profile_image');
    expect(receipt && image).toBeTruthy();

    for (const id of [owner.userId, receipt?.id]) {
      const read = await t.app.inject({
        method: 'GET',
        url: `/api/upload/payment-receipt/${id}`,
        headers: bearer(other.token),
      });
      expect(read.statusCode).toBe(404);
      expect(read.json().message).toBe('Payment receipt not found');
    }
    const delReceipt = await t.app.inject({
      method: 'DELETE',
      url: `/api/upload/payment-receipt/${receipt?.id}`,
      headers: bearer(other.token),
    });
    expect(delReceipt.statusCode).toBe(404);
    const delImage = await t.app.inject({
      method: 'DELETE',
      url: `/api/upload/profile-image/${image?.id}`,
      headers: bearer(other.token),
    });
    expect(delImage.statusCode).toBe(404);
    const still = await t.database.db
      .select({ id: files.id })
      .from(files)
      .where(and(eq(files.userId, owner.userId)));
    expect(still).toHaveLength(2);

    // The owner and staff holding verify_users read it; staff without it do not.
    const own = await t.app.inject({
      method: 'GET',
      url: `/api/upload/payment-receipt/${owner.userId}`,
      headers: bearer(owner.token),
    });
    expect(own.statusCode).toBe(200);
    const marshall = actors.get('marshall');
    const officer = actors.get('officer');
    const asMarshall = await t.app.inject({
      method: 'GET',
      url: `/api/upload/payment-receipt/${owner.userId}`,
      headers: await headersFor(marshall ?? null),
    });
    expect(asMarshall.statusCode).toBe(200);
    const asOfficer = await t.app.inject({
      method: 'GET',
      url: `/api/upload/payment-receipt/${owner.userId}`,
      headers: await headersFor(officer ?? null),
    });
    expect(asOfficer.statusCode).toBe(404);
  });
});
