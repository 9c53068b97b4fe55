// Issue 29: upgrading an install to editions loses nothing. An install with riders,
// verifications, kits, stickers, scans, incidents and saved event settings (seed-demo) is
// read through every GET call of the API: the answers before. Its backup, as the install
// made it before the upgrade (the level before editions: the settings in `event_settings`,
// no `editions`), is restored into a database of that level and upgraded by the server's
// own migrations; every answer then reads the same, on both databases.
import { mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { isDeepStrictEqual } from 'node:util';
import { gunzipSync, gzipSync } from 'node:zlib';
import { DEFAULT_EVENT_NAME } from '@rally/shared/catalog/event-day';
import { and, eq, isNotNull, sql } from 'drizzle-orm';
import type { FastifyInstance } from 'fastify';
import { afterAll, describe, expect, it } from 'vitest';
import { migrationsUpTo, runMigrations } from '../../db/migrate';
import { users } from '../../db/schema/users';
import { buildTestApp, DB_KINDS, openTestDatabase } from '../../test/build-app';
import { type Actor, bearer, login, staff } from '../../test/factories';
import { backupDatabase, restoreDatabase } from '../operator/backup';
import { seedDemo } from '../operator/seed-demo';

/** The last migration before editions. */
const BEFORE_EDITIONS = '0010_messages';

const work = mkdtempSync(path.join(os.tmpdir(), 'rally-upgrade-'));
afterAll(() => rmSync(work, { recursive: true, force: true }));

type Line = Record<string, unknown>;

/**
 * The backup as the install made it before the upgrade: the applied migrations up to the
 * level before editions, and the current edition's name, dates and hotline as the one
 * `event_settings` row (present once staff had saved them, as seed-demo does).
 */
function asBeforeEditions(file: string, levels: number): string {
  const lines = gunzipSync(readFileSync(file))
    .toString('utf8')
    .split('\n')
    .filter(Boolean)
    .map((l) => JSON.parse(l) as Line);
  const out: Line[] = [];
  let inEditions = false;
  let settingsRows = 0;
  // Tables later migrations made (empty in a seeded install of one edition).
  const later = new Set([
    'edition_entries',
    'edition_archive_rows',
    'sms_pins',
    'follow_confirm_sends',
    'trackers',
    'positions',
    'route_tracks',
    'file_jobs',
    'receipt_readings',
    'payment_statements',
    'payment_statement_rows',
  ]);
  let inLater = false;
  for (const line of lines) {
    if (typeof line.table === 'string' && later.has(line.table)) inLater = true;
    if (inLater) {
      if (typeof line.end === 'string') {
        expect(line.rows).toBe(0);
        inLater = false;
      }
      continue;
    }
    if ('format' in line) {
      out.push({
        ...line,
        migrations: (line.migrations as string[]).slice(0, levels),
        tables: (line.tables as string[])
          .filter((t) => !later.has(t))
          .map((t) => (t === 'editions' ? 'event_settings' : t)),
      });
    } else if (line.table === 'editions') {
      inEditions = true;
      out.push({ table: 'event_settings' });
    } else if (inEditions && 'r' in line) {
      const e = line.r as Record<string, unknown>;
      if (e.current && e.updated_at) {
        const { name, starts_on, ends_on, hotline, updated_by, updated_at } = e;
        out.push({ r: { id: 1, name, starts_on, ends_on, hotline, updated_by, updated_at } });
        settingsRows++;
      }
    } else if (line.end === 'editions') {
      inEditions = false;
      out.push({ end: 'event_settings', rows: settingsRows });
    } else if (line.complete) {
      const { editions: _, ...rows } = line.rows as Record<string, number>;
      for (const t of later) delete rows[t];
      out.push({ complete: true, rows: { ...rows, event_settings: settingsRows } });
    } else out.push(line);
  }
  expect(settingsRows).toBe(1);
  const target = `${file}.before-editions.gz`;
  writeFileSync(target, gzipSync(`${out.map((l) => JSON.stringify(l)).join('\n')}\n`));
  return target;
}

/** GET calls whose answers depend on nothing but the data (paths with no parameter). */
const FIXED_PATHS = [
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
const RIDER_PATHS = [
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

/** Every answer, keyed by call; each call's status goes with its body. */
async function answers(app: FastifyInstance, admin: Actor, rider: Actor): Promise<Record<string, unknown>> {
  const read = async (url: string, actor: Actor | null) => {
    const res = await app.inject({ method: 'GET', url, headers: actor ? bearer(actor.token) : {} });
    const type = String(res.headers['content-type'] ?? '');
    return {
      status: res.statusCode,
      body: type.includes('json') ? res.json() : res.rawPayload.toString('base64'),
    };
  };
  const out: Record<string, unknown> = {};
  for (const url of FIXED_PATHS) out[url] = await read(url, admin);
  // The roster's delta cursor is the moment it was read (the next delta starts there).
  const roster = out['/api/admin/scan-roster'] as { body: { data: { cursor?: string } } };
  expect(roster.body.data.cursor).toMatch(/^r1\.\d+$/);
  delete roster.body.data.cursor;
  for (const url of RIDER_PATHS) out[`rider ${url}`] = await read(url, rider);
  const all = (out['/api/admin/users?limit=100'] as { body: { data: { users: Array<{ id: string }> } } }).body.data
    .users;
  for (const { id } of all) {
    for (const url of [`/api/users/${id}/profile`, `/api/users/${id}/comments`]) out[url] = await read(url, null);
    for (const url of [
      `/api/admin/users/${id}`,
      `/api/admin/kit-tracking/${id}`,
      `/api/admin/id-cards/user/${id}`,
      `/api/admin/event/riders/${id}/timeline`,
    ])
      out[url] = await read(url, admin);
  }
  const incidents = (out['/api/admin/incidents'] as { body: { data: Array<{ id: string }> } }).body.data;
  for (const { id } of incidents) out[`/api/admin/incidents/${id}`] = await read(`/api/admin/incidents/${id}`, admin);
  const files = (out['/api/admin/exports'] as { body: { data: Array<{ file: string }> } }).body.data;
  for (const { file } of files) out[`/api/admin/exports/${file}`] = await read(`/api/admin/exports/${file}`, admin);
  return out;
}

describe.each(DB_KINDS)('the upgrade to editions (%s)', (kind) => {
  it('restores a backup made before it, upgrades it, and every answer reads the same', async () => {
    const older = migrationsUpTo(BEFORE_EDITIONS, path.join(work, `drizzle-${kind}`));
    // The install, read before: the answers as the product gives them for this data.
    const source = await buildTestApp(kind);
    const at = new Date();
    source.app.clock.now = () => at;
    const seeded = await seedDemo(source.database.db);
    const password = /Password for every demo account: (\S+)/.exec(seeded)?.[1] as string;
    const admin = await staff(source.app, source.database.db, 'admin');
    const [rider] = await source.database.db
      .select({ id: users.id, email: users.email })
      .from(users)
      .where(and(eq(users.role, 'participant'), isNotNull(users.riderCode)))
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
    const before = await answers(source.app, admin, riderActor);
    const editionsBefore = (await source.app.inject({ method: 'GET', url: '/api/editions' })).json().data;

    const file = path.join(work, `${kind}.rally-backup.gz`);
    await backupDatabase(source.database.db, file);
    await source.close();
    const preUpgrade = asBeforeEditions(file, older.count);

    // A database at the level before editions takes the backup, then the server's migrations run.
    const opened = await openTestDatabase(kind, { migrationsFolder: older.folder });
    const restored = await restoreDatabase(opened.database.db, preUpgrade, { force: false });
    expect(restored).toMatch(/^Restored /);
    await runMigrations(opened.database);
    const upgraded = await buildTestApp(kind, {}, { requests: true }, opened);
    try {
      upgraded.app.clock.now = () => at;
      const after = await answers(upgraded.app, admin, riderActor);
      expect(Object.keys(after)).toEqual(Object.keys(before));
      const differing = Object.keys(before).filter((key) => !isDeepStrictEqual(after[key], before[key]));
      for (const key of differing) expect.soft(after[key], key).toEqual(before[key]);
      expect(differing).toEqual([]);
      // The one edition: the install's event, current, named and dated from its settings.
      const editionsAfter = (await upgraded.app.inject({ method: 'GET', url: '/api/editions' })).json().data;
      const withoutId = (list: Array<Record<string, unknown>>) => list.map(({ id: _, ...rest }) => rest);
      expect(withoutId(editionsAfter)).toEqual(withoutId(editionsBefore));
      expect(editionsAfter).toHaveLength(1);
      expect(editionsAfter[0]).toMatchObject({ current: true, hotline: '+63 917 555 0101' });
    } finally {
      await upgraded.close();
    }
  });

  it('dates the first edition by the first registration when the settings were never saved', async () => {
    const older = migrationsUpTo(BEFORE_EDITIONS, path.join(work, `drizzle-unsaved-${kind}`));
    const opened = await openTestDatabase(kind, { migrationsFolder: older.folder });
    try {
      const { db } = opened.database;
      await db.execute(sql`insert into users (email, password_hash, first_name, last_name, role, created_at)
        values ('first@example.com', 'x', 'First', 'Rider', 'participant', '2024-06-01T02:00:00Z'),
               ('staff@example.com', 'x', 'Early', 'Staff', 'admin', '2023-01-01T00:00:00Z')`);
      await runMigrations(opened.database);
      const rows = (await db.execute(
        sql`select name, year, current, starts_on, hotline, updated_at from editions`,
      )) as unknown as {
        rows: unknown[];
      };
      expect(rows.rows).toEqual([
        { name: DEFAULT_EVENT_NAME, year: 2024, current: true, starts_on: null, hotline: null, updated_at: null },
      ]);
    } finally {
      await opened.drop();
    }
  });
});
