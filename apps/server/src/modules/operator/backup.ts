// Backup and restore of the whole database, uploaded files included (they live in the
// `files` table), for the embedded database and PostgreSQL alike, with no external
// binary (no pg_dump on the organiser's laptop).
//
// A backup is one gzip file of JSON lines: a header (format, migrations, tables), then
// every row of every table as `row_to_json`, read in one REPEATABLE READ READ ONLY
// transaction, so it is one consistent snapshot while the server keeps serving (on the
// embedded database the running server does it itself: the CLI asks it over the control
// channel). It is written to FILE.partial and renamed once complete.
//
// A restore reads the file back in one transaction, tables in foreign-key order, rows
// through json_populate_recordset, so the result is either the whole backup or nothing.
// It refuses a database holding data unless --force, which first empties every table.
import { once } from 'node:events';
import { createReadStream, createWriteStream, existsSync, renameSync, rmSync } from 'node:fs';
import { createInterface } from 'node:readline';
import { createGunzip, createGzip } from 'node:zlib';
import { sql } from 'drizzle-orm';
import type { Db, DbOrTx } from '../../db/client';
import { databaseFileStore, type FileStore, streamBytes } from '../../lib/file-store';

export const BACKUP_FORMAT = 'rally-backup';
export const BACKUP_VERSION = 1;

interface Header {
  format: string;
  version: number;
  createdAt: string;
  source: string;
  migrations: string[];
  tables: string[];
}

async function rows<T>(db: DbOrTx, query: ReturnType<typeof sql>): Promise<T[]> {
  const result = (await db.execute(query)) as unknown as { rows: T[] };
  return result.rows;
}

/** The application's tables, parents before children (by their foreign keys). */
export async function tablesInOrder(db: DbOrTx): Promise<string[]> {
  const tables = (
    await rows<{ name: string }>(
      db,
      sql`select table_name as name from information_schema.tables
          where table_schema = 'public' and table_type = 'BASE TABLE' order by table_name`,
    )
  ).map((r) => r.name);
  const edges = await rows<{ child: string; parent: string }>(
    db,
    sql`select c.conrelid::regclass::text as child, c.confrelid::regclass::text as parent
        from pg_constraint c join pg_namespace n on n.oid = c.connamespace
        where c.contype = 'f' and n.nspname = 'public'`,
  );
  const unquote = (name: string) => name.replace(/^"|"$/g, '');
  const parents = new Map<string, Set<string>>(tables.map((t) => [t, new Set<string>()]));
  for (const e of edges) {
    const child = unquote(e.child);
    const parent = unquote(e.parent);
    if (child !== parent) parents.get(child)?.add(parent);
  }
  const ordered: string[] = [];
  const placed = new Set<string>();
  while (ordered.length < tables.length) {
    const next = tables.find((t) => !placed.has(t) && [...(parents.get(t) ?? [])].every((p) => placed.has(p)));
    if (!next) throw new Error('The tables reference each other in a cycle; cannot order them');
    ordered.push(next);
    placed.add(next);
  }
  return ordered;
}

async function appliedMigrations(db: DbOrTx): Promise<string[]> {
  return (
    await rows<{ hash: string }>(db, sql`select hash from drizzle.__drizzle_migrations order by created_at, id`)
  ).map((r) => r.hash);
}

async function rowCounts(db: DbOrTx, tables: string[]): Promise<Record<string, number>> {
  const counts: Record<string, number> = {};
  for (const t of tables) {
    const [row] = await rows<{ n: number }>(db, sql`select count(*)::int as n from ${sql.identifier(t)}`);
    counts[t] = Number(row?.n ?? 0);
  }
  return counts;
}

const describeCounts = (counts: Record<string, number>) =>
  Object.entries(counts)
    .filter(([, n]) => n > 0)
    .map(([t, n]) => `${t} ${n}`)
    .join(', ') || 'no rows';

/**
 * A file row whose bytes are in the object store goes into the backup with its bytes, as
 * if it had been stored in the database: a backup is whole on its own (the bucket may be
 * gone, or another one, when it is restored), and restores anywhere, its files then
 * living in the database, readable whichever store is configured.
 */
async function withBytes(json: string, store: FileStore): Promise<string> {
  const row = JSON.parse(json) as { storage_key?: string | null; data?: string | null };
  if (!row.storage_key) return json;
  const { stream } = await store.open(row.storage_key);
  row.data = `\\x${(await streamBytes(stream)).toString('hex')}`;
  row.storage_key = null;
  return JSON.stringify(row);
}

/** Writes a consistent backup of every table to `file`; returns what it wrote, for the operator. */
export async function backupDatabase(db: Db, file: string, store: FileStore = databaseFileStore): Promise<string> {
  const partial = `${file}.partial`;
  // Level 1: uploads are JPEG/PNG/PDF, already compressed; a higher level costs time for nothing.
  const gzip = createGzip({ level: 1 });
  const out = createWriteStream(partial, { mode: 0o600 });
  const piped = new Promise<void>((resolve, reject) => {
    out.on('finish', resolve);
    out.on('error', reject);
    gzip.on('error', reject);
  });
  gzip.pipe(out);
  const write = async (value: unknown) => {
    if (!gzip.write(`${JSON.stringify(value)}\n`)) await once(gzip, 'drain');
  };
  const counts: Record<string, number> = {};
  try {
    await db.transaction(
      async (tx) => {
        const tables = await tablesInOrder(tx);
        const [about] = await rows<{ v: string }>(tx, sql`select current_database() || ' on ' || version() as v`);
        const source = about?.v.split(',')[0] ?? 'unknown';
        const header: Header = {
          format: BACKUP_FORMAT,
          version: BACKUP_VERSION,
          createdAt: new Date().toISOString(),
          source,
          migrations: await appliedMigrations(tx),
          tables,
        };
        await write(header);
        for (const table of tables) {
          await write({ table });
          let n = 0;
          // A cursor keeps memory flat however many files the table holds.
          await tx.execute(
            sql`declare rally_backup no scroll cursor for select row_to_json(t)::text as j from ${sql.identifier(table)} t`,
          );
          for (;;) {
            const batch = await rows<{ j: string }>(tx, sql`fetch 100 from rally_backup`);
            if (batch.length === 0) break;
            for (const r of batch) {
              const j = table === 'files' ? await withBytes(r.j, store) : r.j;
              if (!gzip.write(`{"r":${j}}\n`)) await once(gzip, 'drain');
            }
            n += batch.length;
          }
          await tx.execute(sql`close rally_backup`);
          counts[table] = n;
          await write({ end: table, rows: n });
        }
      },
      { isolationLevel: 'repeatable read', accessMode: 'read only' },
    );
    await write({ complete: true, rows: counts });
    gzip.end();
    await piped;
    renameSync(partial, file);
  } catch (err) {
    gzip.destroy();
    out.destroy();
    rmSync(partial, { force: true });
    throw err;
  }
  const files = counts.files ?? 0;
  return `Backed up ${Object.keys(counts).length} tables (${describeCounts(counts)}), ${files} uploaded file${files === 1 ? '' : 's'} included, to ${file}`;
}

export class RestoreRefusedError extends Error {}

/**
 * The rows a freshly migrated database holds of itself: the first edition the upgrade makes
 * (current, never saved) and the default privacy notice a first start publishes (version 1,
 * by nobody). Not data: an empty install restores without --force, the backup's own rows
 * replacing them. Only when nothing else is there.
 */
async function migrationMadeRows(tx: DbOrTx, counts: Record<string, number>): Promise<Record<string, number>> {
  const own = new Set(['editions', 'privacy_notices']);
  const others = Object.entries(counts).some(([t, n]) => !own.has(t) && n > 0);
  if (others || counts.editions !== 1 || (counts.privacy_notices ?? 0) > 1) return {};
  // A database at an older migration level (a backup of an older version restored before its
  // upgrade) has no notices table.
  const notices =
    'privacy_notices' in counts
      ? sql`(select count(*)::int from privacy_notices where version = 1 and published_by is null)`
      : sql`0`;
  const [pristine] = await rows<{ editions: number; notices: number }>(
    tx,
    sql`select
      (select count(*)::int from editions where current and updated_at is null and copied_from is null) as editions,
      ${notices} as notices`,
  );
  return { editions: Number(pristine?.editions ?? 0), privacy_notices: Number(pristine?.notices ?? 0) };
}

/**
 * Restores `file` into this database in one transaction. Refuses a database that holds
 * data unless `force` (which empties every table first), and a backup made at another
 * migration level (start the server of the matching version first).
 */
export async function restoreDatabase(db: Db, file: string, opts: { force: boolean }): Promise<string> {
  if (!existsSync(file)) throw new RestoreRefusedError(`No backup file at ${file}`);
  const lines = createInterface({
    input: createReadStream(file).pipe(createGunzip()),
    crlfDelay: Number.POSITIVE_INFINITY,
  });
  const iterator = lines[Symbol.asyncIterator]();
  const next = async (): Promise<Record<string, unknown> | null> => {
    const { value, done } = await iterator.next();
    if (done) return null;
    return JSON.parse(value) as Record<string, unknown>;
  };
  let header: Header;
  try {
    header = (await next()) as unknown as Header;
  } catch {
    throw new RestoreRefusedError(`${file} is not a rally backup (it could not be read as one)`);
  }
  if (header?.format !== BACKUP_FORMAT || header.version !== BACKUP_VERSION) {
    throw new RestoreRefusedError(`${file} is not a rally backup of version ${BACKUP_VERSION}`);
  }
  let emptied: Record<string, number> = {};
  const restored: Record<string, number> = {};
  try {
    await db.transaction(async (tx) => {
      const tables = await tablesInOrder(tx);
      const migrations = await appliedMigrations(tx);
      if (migrations.join() !== header.migrations.join()) {
        throw new RestoreRefusedError(
          `The backup was made at migration level ${header.migrations.length} and this database is at ${migrations.length}: restore it with the same version of the product that made it.`,
        );
      }
      const unknown = header.tables.filter((t) => !tables.includes(t));
      if (unknown.length > 0) throw new RestoreRefusedError(`The backup holds unknown tables: ${unknown.join(', ')}`);
      const before = await rowCounts(tx, tables);
      const made = await migrationMadeRows(tx, before);
      const holding = Object.entries(before).some(([t, n]) => n > (made[t] ?? 0));
      if (holding && !opts.force) {
        throw new RestoreRefusedError(
          `This database is not empty (${describeCounts(before)}). Nothing was changed. Restore into an empty database, or add --force to replace everything in it with the backup.`,
        );
      }
      if (holding || Object.values(before).some((n) => n > 0)) {
        // Children first, so no foreign key is left dangling.
        for (const t of [...tables].reverse()) await tx.execute(sql`delete from ${sql.identifier(t)}`);
        if (holding) emptied = before;
      }
      let record = await next();
      while (record && !record.complete) {
        const table = record.table as string | undefined;
        if (!table || !tables.includes(table)) throw new RestoreRefusedError(`${file} is damaged (unexpected line)`);
        let batch: string[] = [];
        let batchBytes = 0;
        let n = 0;
        const flush = async () => {
          if (batch.length === 0) return;
          await tx.execute(
            sql`insert into ${sql.identifier(table)} select * from json_populate_recordset(null::${sql.identifier(table)}, ${`[${batch.join(',')}]`}::json)`,
          );
          n += batch.length;
          batch = [];
          batchBytes = 0;
        };
        for (;;) {
          const { value, done } = await iterator.next();
          if (done) throw new RestoreRefusedError(`${file} is incomplete (it ends inside table ${table})`);
          const line = value as string;
          if (line.startsWith('{"r":')) {
            const json = line.slice(5, -1);
            batch.push(json);
            batchBytes += json.length;
            if (batch.length >= 200 || batchBytes > 8 * 1024 * 1024) await flush();
            continue;
          }
          await flush();
          const end = JSON.parse(line) as { end?: string; rows?: number };
          if (end.end !== table || end.rows !== n)
            throw new RestoreRefusedError(`${file} is damaged in table ${table}`);
          break;
        }
        restored[table] = n;
        record = await next();
      }
      if (!record?.complete) throw new RestoreRefusedError(`${file} is incomplete (no end marker)`);
      // A serial column's sequence is not in the backup: set each past the restored rows, or
      // the next insert would take a number a restored row holds.
      const serials = await rows<{ table_name: string; column_name: string }>(
        tx,
        sql`select table_name, column_name from information_schema.columns
            where table_schema = current_schema() and column_default like 'nextval(%'`,
      );
      for (const { table_name: t, column_name: c } of serials)
        await tx.execute(
          sql`select setval(pg_get_serial_sequence(${t}, ${c}), coalesce((select max(${sql.identifier(c)}) from ${sql.identifier(t)}), 0) + 1, false)`,
        );
    });
  } finally {
    lines.close();
  }
  const files = restored.files ?? 0;
  const replaced =
    Object.keys(emptied).length > 0 ? ` It replaced what the database held (${describeCounts(emptied)}).` : '';
  return `Restored ${file} (made ${header.createdAt} from ${header.source}): ${describeCounts(restored)}, ${files} uploaded file${files === 1 ? '' : 's'}.${replaced}`;
}
