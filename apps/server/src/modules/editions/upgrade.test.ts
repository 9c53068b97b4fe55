// Issue 29: upgrading an install to editions loses nothing. An install with riders,
// verifications, kits, stickers, scans, incidents and saved event settings (seed-demo) is
// read through every GET call of the API: the answers before. Its backup, as the install
// made it before the upgrade (the level before editions: the settings in `event_settings`,
// no `editions`), is restored into a database of that level and upgraded by the server's
// own migrations; every answer then reads the same, on both databases.
import { mkdtempSync, rmSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { isDeepStrictEqual } from 'node:util';
import { DEFAULT_EVENT_NAME } from '@rally/shared/catalog/event-day';
import { sql } from 'drizzle-orm';
import { afterAll, describe, expect, it } from 'vitest';
import { migrationsUpTo, runMigrations } from '../../db/migrate';
import { entriesOnAccounts, type Line, readBackupLines, writeBackupLines } from '../../test/backup-lines';
import { buildTestApp, DB_KINDS, openTestDatabase } from '../../test/build-app';
import { answers, seededInstall } from '../../test/every-answer';
import { backupDatabase, restoreDatabase, tablesInOrder } from '../operator/backup';

/** The last migration before editions. */
const BEFORE_EDITIONS = '0010_messages';

const work = mkdtempSync(path.join(os.tmpdir(), 'rally-upgrade-'));
afterAll(() => rmSync(work, { recursive: true, force: true }));

/**
 * The backup as the install made it before the upgrade: the applied migrations up to the
 * level before editions, and the current edition's name, dates and hotline as the one
 * `event_settings` row (present once staff had saved them, as seed-demo does).
 */
function asBeforeEditions(file: string, levels: number, order: string[]): string {
  // One edition: every entry is the current one's, on its account.
  const { lines } = entriesOnAccounts(readBackupLines(file));
  const out: Line[] = [];
  let inEditions = false;
  let settingsRows = 0;
  // Tables later migrations made (empty in a seeded install of one edition).
  const later = new Set([
    'sms_pins',
    'follow_confirm_sends',
    'trackers',
    'positions',
    'route_tracks',
    'file_jobs',
    'receipt_readings',
    'payment_statements',
    'payment_statement_rows',
    'data_access',
    'privacy_notices',
    'consents',
    'data_exports',
    'erasure_requests',
    'retention_sweeps',
  ]);
  // Written by the reads themselves (who looked at a rider's sensitive fields): the install
  // before had no such table, so its lines are left out rather than counted as none.
  const writtenByReads = new Set(['data_access', 'privacy_notices']);
  let inLater = false;
  for (const line of lines) {
    if (typeof line.table === 'string' && later.has(line.table)) inLater = true;
    if (inLater) {
      if (typeof line.end === 'string') {
        if (!writtenByReads.has(line.end)) expect(line.rows).toBe(0);
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
  writeBackupLines(target, out, order);
  return target;
}

describe.each(DB_KINDS)('the upgrade to editions (%s)', (kind) => {
  it('restores a backup made before it, upgrades it, and every answer reads the same', async () => {
    const older = migrationsUpTo(BEFORE_EDITIONS, path.join(work, `drizzle-${kind}`));
    // The install, read before: the answers as the product gives them for this data.
    const { source, at, admin, rider: riderActor } = await seededInstall(kind);
    const before = await answers(source.app, admin, riderActor);
    const editionsBefore = (await source.app.inject({ method: 'GET', url: '/api/editions' })).json().data;

    const file = path.join(work, `${kind}.rally-backup.gz`);
    await backupDatabase(source.database.db, file);
    await source.close();
    // A database at the level before editions takes the backup, then the server's migrations run.
    const opened = await openTestDatabase(kind, { migrationsFolder: older.folder });
    const preUpgrade = asBeforeEditions(file, older.count, await tablesInOrder(opened.database.db));
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
