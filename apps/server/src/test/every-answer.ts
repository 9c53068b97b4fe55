// Every answer the API gives for an install's data, read through its GET calls: what an
// upgrade must leave the same (modules/editions/upgrade.test.ts and
// modules/entries/edition-tables-upgrade.test.ts).
import { and, eq, isNotNull, sql } from 'drizzle-orm';
import type { FastifyInstance } from 'fastify';
import { expect } from 'vitest';
import { entries } from '../db/schema/entries';
import { users } from '../db/schema/users';
import { ownEntry } from '../lib/riders';
import { seedDemo } from '../modules/operator/seed-demo';
import { buildTestApp, type DbKind } from './build-app';
import { type Actor, bearer, login, staff } from './factories';

/**
 * An install seeded as seed-demo seeds it (riders, verifications, kits, stickers, scans,
 * incidents, saved settings), its clock stopped at `at`, with an admin and the rider with the
 * most scans signed in: the data every upgrade test reads before and after.
 */
export async function seededInstall(kind: DbKind) {
  const source = await buildTestApp(kind);
  const at = new Date();
  source.app.clock.now = () => at;
  const seeded = await seedDemo(source.database.db);
  const password = /Password for every demo account: (\S+)/.exec(seeded)?.[1] as string;
  const admin = await staff(source.app, source.database.db, 'admin');
  const [rider] = await source.database.db
    .select({ id: users.id, email: users.email })
    .from(users)
    .innerJoin(entries, ownEntry)
    .where(and(eq(users.role, 'participant'), isNotNull(entries.riderCode)))
    .orderBy(sql`(select count(*) from scans s where s.rider_id = ${users.id}) desc`)
    .limit(1);
  const signedIn = await login(source.app, rider?.email as string, password);
  expect(signedIn.statusCode, signedIn.body).toBe(200);
  const riderActor: Actor = {
    token: signedIn.json().token,
    userId: rider?.id as string,
    email: '',
    role: 'participant',
  };
  return { source, at, admin, rider: riderActor };
}

/** GET calls whose answers depend on nothing but the data (paths with no parameter). */
export const FIXED_PATHS = [
  '/api/config/payment',
  '/api/rider-numbers/taken',
  '/api/announcements',
  '/api/settings/event',
  '/api/live',
  '/api/admin/kit-tracking',
  '/api/admin/id-cards/search',
  '/api/admin/id-cards/stats',
  '/api/admin/exports',
  '/api/admin/password-resets/history',
  '/api/admin/password-resets/users',
  '/api/admin/logs',
  '/api/admin/logs/stats',
  '/api/admin/announcements',
  '/api/admin/users?limit=100',
  '/api/admin/masterlist?limit=100',
  '/api/admin/verifications/pending',
  '/api/admin/verifications/history',
  '/api/admin/verifications/stats',
  '/api/admin/dashboard/stats',
  '/api/admin/analytics',
  '/api/admin/activities',
  '/api/admin/login-activities',
  '/api/admin/stations',
  '/api/admin/scan-roster',
  '/api/admin/scans/flagged',
  '/api/admin/incidents',
  '/api/admin/incidents/abuse-marks',
  '/api/admin/incidents/assignees',
  '/api/admin/event/board',
  '/api/admin/event/overdue',
  '/api/admin/event/riders',
  '/api/admin/event/rules',
  '/api/admin/messages',
  '/api/admin/messages/channels',
];
export const RIDER_PATHS = [
  '/api/auth/profile',
  '/api/rider-numbers/my-number',
  '/api/upload/user-files',
  '/api/my/comments',
  '/api/my/gear-sizes',
  '/api/my/rider-code',
  '/api/my/verification',
  '/api/my/passages',
  '/api/my/incidents',
  '/api/my/notification-settings',
  '/api/my/followers',
];

type Answer = { status: number; body: unknown };
type Read = (url: string, actor: Actor | null) => Promise<Answer>;

/** A GET's answer: its status with its body (JSON, or the bytes as base64). */
function reader(app: FastifyInstance, edition?: string): Read {
  return async (url, actor) => {
    const asked = edition && url.startsWith('/api/admin/') ? inEditionUrl(url, edition) : url;
    const res = await app.inject({ method: 'GET', url: asked, headers: actor ? bearer(actor.token) : {} });
    const type = String(res.headers['content-type'] ?? '');
    return { status: res.statusCode, body: type.includes('json') ? res.json() : res.rawPayload.toString('base64') };
  };
}

/** `url` with `?edition=` (or `&edition=`) naming `editionId`. */
export const inEditionUrl = (url: string, editionId: string) =>
  `${url}${url.includes('?') ? '&' : '?'}edition=${editionId}`;

/**
 * The staff lists, then each account's, rider's and incident's card and every export, as
 * `admin` reads them: of the current edition, or of the past one `edition` names.
 */
async function staffAnswers(read: Read, admin: Actor, out: Record<string, unknown>, current: boolean) {
  for (const url of FIXED_PATHS.filter((u) => current || u.startsWith('/api/admin/')))
    out[url] = await read(url, admin);
  // The roster's delta cursor is the moment it was read (the next delta starts there).
  const roster = out['/api/admin/scan-roster'] as { body: { data: { cursor?: string } } };
  expect(roster.body.data.cursor).toMatch(/^r1\.\d+$/);
  delete roster.body.data.cursor;
  const all = (out['/api/admin/users?limit=100'] as { body: { data: { users: Array<{ id: string }> } } }).body.data
    .users;
  for (const { id } of all)
    for (const url of [
      `/api/admin/users/${id}`,
      `/api/admin/kit-tracking/${id}`,
      `/api/admin/id-cards/user/${id}`,
      `/api/admin/event/riders/${id}/timeline`,
    ])
      out[url] = await read(url, admin);
  const incidents = (out['/api/admin/incidents'] as { body: { data: Array<{ id: string }> } }).body.data;
  for (const { id } of incidents) out[`/api/admin/incidents/${id}`] = await read(`/api/admin/incidents/${id}`, admin);
  const files = (out['/api/admin/exports'] as { body: { data: Array<{ file: string }> } }).body.data;
  for (const { file } of files) out[`/api/admin/exports/${file}`] = await read(`/api/admin/exports/${file}`, admin);
  return all;
}

/** Every answer, keyed by call; each call's status goes with its body. */
export async function answers(app: FastifyInstance, admin: Actor, rider: Actor): Promise<Record<string, unknown>> {
  const read = reader(app);
  const out: Record<string, unknown> = {};
  const all = await staffAnswers(read, admin, out, true);
  for (const url of RIDER_PATHS) out[`rider ${url}`] = await read(url, rider);
  for (const { id } of all)
    for (const url of [`/api/users/${id}/profile`, `/api/users/${id}/comments`]) out[url] = await read(url, null);
  return out;
}

/** Every staff answer about past edition `editionId` (`?edition=`). */
export async function pastAnswers(
  app: FastifyInstance,
  admin: Actor,
  editionId: string,
): Promise<Record<string, unknown>> {
  const out: Record<string, unknown> = {};
  await staffAnswers(reader(app, editionId), admin, out, false);
  return out;
}
