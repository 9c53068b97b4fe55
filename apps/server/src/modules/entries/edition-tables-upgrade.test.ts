// Issue 40: the event day and the entry's tables carry their edition. An install as it stood
// before (migration 0017: a past edition's stations, course, scans, incidents and SOS marks,
// verifications, their history, kits and stickers kept as JSON in `edition_archive_rows`,
// the live tables holding the current edition's only) is restored from its backup and
// upgraded by the server's migrations: every answer, of the current edition and of the past
// one (`?edition=`), exports included, reads byte for byte the same. It passes through the
// three steps (0018: the event day; 0019: the entry's tables; 0020: the entry's own table,
// out of the accounts and their archive). An install upgraded to 0018 before its next
// rollover archived the entry's tables in the very same JSON, so 0019 meets what it meets
// here; one upgraded to 0019 archived only the accounts, which 0020 meets here too.
import { randomUUID } from 'node:crypto';
import { mkdtempSync, rmSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { isDeepStrictEqual } from 'node:util';
import { sql } from 'drizzle-orm';
import { afterAll, describe, expect, it } from 'vitest';
import { migrationsUpTo, runMigrations } from '../../db/migrate';
import { entriesOnAccounts, type Line, readBackupLines, withBlock, writeBackupLines } from '../../test/backup-lines';
import { buildTestApp, DB_KINDS, openTestDatabase } from '../../test/build-app';
import { answers, pastAnswers, seededInstall } from '../../test/every-answer';
import { approvedRider, bearer, injectAs, staff, syncScan } from '../../test/factories';
import { backupDatabase, restoreDatabase, tablesInOrder } from '../operator/backup';

const EVENT_DAY = ['stations', 'course_rules', 'course_decisions', 'scans', 'incidents', 'sos_abuse_marks'];
const ENTRY = ['verifications', 'verification_history', 'kit_tracking', 'id_card_prints'];

/** The last migration before the event day carried its edition. */
const BEFORE = '0017_receipts';
/** The tables that carry their edition since, and those that hang off their incidents. */
const WITH_EDITION = [...EVENT_DAY, ...ENTRY];
const OF_INCIDENTS = ['sos_calls', 'incident_escalations'];

const work = mkdtempSync(path.join(os.tmpdir(), 'rally-event-day-'));
afterAll(() => rmSync(work, { recursive: true, force: true }));

type Row = Record<string, unknown>;

/**
 * The backup as an install at migration 0017 made it: a past edition's rows of the tables
 * that carry their edition as JSON in `edition_archive_rows` (each row as it was, without
 * `edition_id`), the current edition's rows in their tables.
 */
function asBefore(file: string, levels: number, currentId: string, order: string[]): string {
  const before = entriesOnAccounts(readBackupLines(file));
  // A past edition's accounts as its rollover archived them, and its riders' summaries.
  const lines = withBlock(
    withBlock(
      before.lines,
      'edition_archive_rows',
      before.pastAccounts.map(({ editionId, row }) => ({
        id: randomUUID(),
        edition_id: editionId,
        table_name: 'users',
        row: (({ password_hash: _, ...kept }) => kept)(row),
      })),
    ),
    'edition_entries',
    before.pastSummaries,
  );
  /** Each past incident's edition. */
  const pastIncidents = new Map<string, unknown>();
  let table: string | undefined;
  for (const line of lines) {
    if (typeof line.table === 'string') table = line.table;
    const r = line.r as Row | undefined;
    if (table === 'incidents' && r && r.edition_id !== currentId) pastIncidents.set(r.id as string, r.edition_id);
  }
  const archived: Row[] = [];
  const counts: Record<string, number> = {};
  const out: Line[] = [];
  for (const line of lines) {
    if (typeof line.table === 'string') {
      table = line.table;
      counts[table] = 0;
    }
    const r = line.r as Row | undefined;
    if (r && table && WITH_EDITION.includes(table)) {
      const { edition_id, ...row } = r;
      if (edition_id === currentId) {
        out.push({ r: row });
        counts[table] = (counts[table] ?? 0) + 1;
      } else archived.push({ id: randomUUID(), edition_id, table_name: table, row });
    } else if (r && table && OF_INCIDENTS.includes(table) && pastIncidents.has(r.incident_id as string)) {
      archived.push({
        id: randomUUID(),
        edition_id: pastIncidents.get(r.incident_id as string),
        table_name: table,
        row: r,
      });
    } else if (r) {
      out.push(line);
      counts[table as string] = (counts[table as string] ?? 0) + 1;
    } else if (typeof line.end === 'string') out.push({ end: line.end, rows: counts[line.end] });
    else if (line.complete) out.push({ complete: true, rows: counts });
    else if ('format' in line) out.push({ ...line, migrations: (line.migrations as string[]).slice(0, levels) });
    else out.push(line);
  }
  for (const table of ['scans', 'verifications', 'kit_tracking'])
    expect(archived.filter((a) => a.table_name === table).length, table).toBeGreaterThan(0);
  // The archive gains the past edition's rows of the event day.
  const at = out.findIndex((l) => l.end === 'edition_archive_rows');
  const end = out[at] as { rows: number };
  out.splice(at, 1, ...archived.map((r) => ({ r })), { ...end, rows: end.rows + archived.length });
  (out.at(-1) as { rows: Record<string, number> }).rows.edition_archive_rows = end.rows + archived.length;
  const target = `${file}.0017.gz`;
  writeBackupLines(target, out, order);
  return target;
}

describe.each(DB_KINDS)('the upgrade of the edition tables (%s)', (kind) => {
  it('restores a backup with a past edition archived, upgrades it, and every answer reads the same', async () => {
    const older = migrationsUpTo(BEFORE, path.join(work, `drizzle-${kind}`));
    // An install's first edition (the demo's event day), then the next edition made current,
    // with a rider of its own scanned and in trouble.
    const { source, at, admin, rider: riderActor } = await seededInstall(kind);
    const marshall = await staff(source.app, source.database.db, 'marshall');
    const ok = async (method: 'GET' | 'POST', url: string, payload?: unknown) => {
      const res = await injectAs(source.app, admin, method, url, payload);
      expect(res.statusCode, `${url}: ${res.body}`).toBeLessThan(300);
      return res.json().data;
    };
    const [past] = (await ok('GET', '/api/editions')) as Array<{ id: string; year: number }>;
    const next = (
      await ok('POST', '/api/admin/editions', {
        name: `Warriors ${randomUUID().slice(0, 6)}`,
        year: (past?.year as number) + 1,
        startsOn: `${(past?.year as number) + 1}-03-14`,
        endsOn: `${(past?.year as number) + 1}-03-16`,
        copyFrom: past?.id,
      })
    ).edition as { id: string };
    await ok('POST', `/api/admin/editions/${next.id}/make-current`);
    const [station] = (await ok('GET', '/api/admin/stations')) as Array<{ id: string }>;
    const newcomer = await approvedRider(source.app, admin);
    const code = (
      await source.app.inject({ method: 'GET', url: '/api/my/rider-code', headers: bearer(newcomer.token) })
    ).json().data.riderCode as string;
    await syncScan(source.app, marshall, { stationId: station?.id as string, riderCode: code });
    await injectAs(source.app, newcomer, 'POST', '/api/my/sos', { id: randomUUID(), kind: 'mechanical', note: 'Flat' });

    const before: Record<string, unknown> = {
      ...(await answers(source.app, admin, riderActor)),
      past: await pastAnswers(source.app, admin, past?.id as string),
    };
    const file = path.join(work, `${kind}.rally-backup.gz`);
    await backupDatabase(source.database.db, file);
    await source.close();

    const opened = await openTestDatabase(kind, { migrationsFolder: older.folder });
    const restored = await restoreDatabase(
      opened.database.db,
      asBefore(file, older.count, next.id, await tablesInOrder(opened.database.db)),
      { force: false },
    );
    expect(restored).toMatch(/^Restored /);
    await runMigrations(opened.database);
    const upgraded = await buildTestApp(kind, {}, { requests: true }, opened);
    try {
      upgraded.app.clock.now = () => at;
      const after: Record<string, unknown> = {
        ...(await answers(upgraded.app, admin, riderActor)),
        past: await pastAnswers(upgraded.app, admin, past?.id as string),
      };
      expect(Object.keys(after)).toEqual(Object.keys(before));
      const differing = Object.keys(before).filter((key) => !isDeepStrictEqual(after[key], before[key]));
      for (const key of differing) expect.soft(after[key], key).toEqual(before[key]);
      expect(differing).toEqual([]);
      // Nothing is left as JSON: the archive and the summaries are gone.
      const left = (await opened.database.db.execute(
        sql`select count(*)::int as n from information_schema.tables
          where table_schema = 'public' and table_name in ('edition_archive_rows', 'edition_entries', 'verifications')`,
      )) as unknown as { rows: Array<{ n: number }> };
      expect(left.rows[0]?.n).toBe(0);
    } finally {
      await upgraded.close();
    }
  });
});
