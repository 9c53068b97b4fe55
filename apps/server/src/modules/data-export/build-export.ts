// Reads everything the platform holds about one person (export-sections.ts) and packs it as
// a ZIP: a JSON file per kind, the uploaded files' bytes under files/, a readable
// summary.html and a README. Other people's data is left out: a staff member's id on a row
// (who verified you), a follower's full address, the author of a comment on your profile.

import { eq, type SQL, sql } from 'drizzle-orm';
import { strToU8, type Zippable, zipSync } from 'fflate';
import type { DbOrTx } from '../../db/client';
import { users } from '../../db/schema/users';
import { storedBytes } from '../../lib/file-bytes';
import { type FileStore, streamBytes } from '../../lib/file-store';
import { toE164, typedForms } from '../../lib/phone-numbers';
import { fullName, rowsOf } from '../../lib/sql-text';
import { PERSONAL_DATA } from '../users/personal-data';
import { type ExportContent, type ExportedRow, KINDS, type Section } from './export-sections';
import { summaryHtml } from './summary-html';

/**
 * Columns holding another account's id (`reference` in personal-data.ts) that name the
 * person the row is about, not a staff member who acted: read by a section, not counted as
 * staff work.
 */
const ABOUT_THE_PERSON = new Set([
  'activities.user_id',
  'activities.actor_id',
  'scans.rider_id',
  'login_activities.user_id',
  'verification_history.user_id',
  'erasure_requests.user_id',
]);

const EXTENSIONS: Record<string, string> = {
  'image/jpeg': 'jpg',
  'image/png': 'png',
  'image/webp': 'webp',
  'image/gif': 'gif',
  'image/heic': 'heic',
  'application/pdf': 'pdf',
};

const parsed = (j: unknown): ExportedRow =>
  typeof j === 'string' ? (JSON.parse(j) as ExportedRow) : (j as ExportedRow);

/** `maria@example.com` → `m•••@example.com`: enough for the rider to recognise, not the address itself. */
export function shortenedEmail(email: unknown): string | null {
  if (typeof email !== 'string' || !email) return null;
  const at = email.lastIndexOf('@');
  if (at < 1) return '•••';
  return `${email[0]}•••${email.slice(at)}`;
}

function columnsOf(section: Section): string[] {
  const rule = PERSONAL_DATA[section.table];
  if (!rule) throw new Error(`${section.table} has no rule in personal-data.ts`);
  const secret = new Set(section.secret ?? []);
  return [...Object.keys(rule.personal), ...rule.other].filter((c) => !secret.has(c));
}

async function readSection(db: DbOrTx, section: Section, userId: string, phones: string[]): Promise<ExportedRow[]> {
  const columns = sql.join(
    columnsOf(section).map((c) => sql`t.${sql.identifier(c)}`),
    sql`, `,
  );
  const order = sql.join(
    section.order.map((c) => sql`x.${sql.identifier(c)}`),
    sql`, `,
  );
  const where: SQL = section.where(userId, phones);
  const result = await db.execute(
    sql`select row_to_json(x) as j from (select ${columns} from ${sql.identifier(section.table)} t where ${where}) x order by ${order}`,
  );
  return rowsOf<{ j: unknown }>(result).map((r) => parsed(r.j));
}

/** Leaves only what is the person's: other accounts' ids go, a comment's author on their profile too. */
function tidy(table: string, row: ExportedRow, userId: string, editions: Map<string, string>): ExportedRow {
  const rule = PERSONAL_DATA[table];
  for (const [column, r] of Object.entries(rule?.personal ?? {}))
    if (r === 'reference' && row[column] !== userId) delete row[column];
  if (typeof row.edition_id === 'string') row.edition = editions.get(row.edition_id) ?? null;
  if (table === 'activities' && row.user_id === undefined) delete row.user_name;
  if (table === 'comments' || table === 'fires') {
    const [mine, theirs] = table === 'comments' ? ['author_id', 'target_user_id'] : ['giver_id', 'receiver_id'];
    const wrote = row[mine] === userId;
    row.direction = table === 'comments' ? (wrote ? 'written' : 'received') : wrote ? 'given' : 'received';
    if (wrote && row[theirs] !== userId) delete row[theirs];
    if (!wrote) delete row[mine];
  }
  if (table === 'followers') row.email = shortenedEmail(row.email);
  if (table === 'outbox_messages' && row.user_id !== userId) row.address = shortenedEmail(row.address);
  return row;
}

async function editionNames(db: DbOrTx): Promise<Map<string, string>> {
  const rows = rowsOf<{ id: string; name: string; year: number }>(
    await db.execute(sql`select id, name, year from editions`),
  );
  return new Map(rows.map((e) => [e.id, `${e.name} (${e.year})`]));
}

async function stationNames(db: DbOrTx, ids: string[]): Promise<Map<string, string>> {
  if (ids.length === 0) return new Map();
  const rows = rowsOf<{ id: string; name: string }>(
    await db.execute(
      sql`select id, name from stations where id in (${sql.join(
        ids.map((id) => sql`${id}`),
        sql`, `,
      )})`,
    ),
  );
  return new Map(rows.map((s) => [s.id, s.name]));
}

/** How many rows of each staff column name the person: what they did as staff, by count. */
async function staffWorkOf(db: DbOrTx, userId: string): Promise<Record<string, number>> {
  const work: Record<string, number> = {};
  for (const [table, rule] of Object.entries(PERSONAL_DATA)) {
    for (const [column, r] of Object.entries(rule.personal)) {
      if (r !== 'reference' || ABOUT_THE_PERSON.has(`${table}.${column}`)) continue;
      const [row] = rowsOf<{ n: number | string }>(
        await db.execute(
          sql`select count(*) as n from ${sql.identifier(table)} where ${sql.identifier(column)} = ${userId}`,
        ),
      );
      const n = Number(row?.n ?? 0);
      if (n > 0) work[`${table}.${column}`] = n;
    }
  }
  return work;
}

/** Everything about `userId`, with their uploaded files' bytes. Null when the account is gone. */
export async function collectExport(
  db: DbOrTx,
  store: FileStore,
  userId: string,
  generatedAt: Date,
): Promise<ExportContent | null> {
  const [person] = await db
    .select({ first: users.firstName, last: users.lastName, email: users.email, phone: users.phoneNumber })
    .from(users)
    .where(eq(users.id, userId));
  if (!person) return null;
  const e164 = toE164(person.phone);
  const phones = e164 ? typedForms(e164) : [];
  const editions = await editionNames(db);
  const kinds: ExportContent['kinds'] = [];
  const files: ExportContent['files'] = [];
  for (const kind of KINDS) {
    const tables: Record<string, ExportedRow[]> = {};
    for (const section of kind.sections) {
      const rows = (await readSection(db, section, userId, phones)).map((r) =>
        tidy(section.table, r, userId, editions),
      );
      if (section.table === 'scans') {
        const names = await stationNames(db, [...new Set(rows.map((r) => String(r.station_id)))]);
        for (const r of rows) r.station = names.get(String(r.station_id)) ?? null;
      }
      if (section.table === 'files') {
        for (const r of rows) {
          const bytes = await fileBytes(db, store, String(r.id));
          if (!bytes) continue;
          const day = String(r.created_at).slice(0, 10);
          const path = `files/${day}-${String(r.kind).replace(/_/g, '-')}-${String(r.id).slice(0, 8)}.${EXTENSIONS[String(r.mime_type)] ?? 'bin'}`;
          r.zip_path = path;
          files.push({ path, bytes });
        }
      }
      tables[section.table] = rows;
    }
    kinds.push({ kind, tables });
  }
  return {
    person: { id: userId, name: fullName(person.first, person.last), email: person.email },
    generatedAt,
    kinds,
    staffWork: await staffWorkOf(db, userId),
    files,
  };
}

async function fileBytes(db: DbOrTx, store: FileStore, id: string): Promise<Uint8Array | null> {
  const [row] = rowsOf<{ storage_key: string | null }>(
    await db.execute(sql`select storage_key from files where id = ${id}`),
  );
  if (!row) return null;
  const bytes = await storedBytes(db, store, { id, storageKey: row.storage_key });
  if (!bytes) return null;
  return Buffer.isBuffer(bytes) ? bytes : await streamBytes(bytes);
}

const README = (content: ExportContent) => `Your data from the rally platform
==================================

Prepared for ${content.person.name} on ${content.generatedAt.toISOString()}.

summary.html    Open it in a browser: everything below, readable, section by section.
<kind>.json     One file per kind of data (account, entries, receipts, passages,
                incidents, tracking, messages, community, consents, data_access,
                logs). Each holds "tables": the rows of each table that names you,
                as stored, with dates in UTC.
staff-work.json What you did as a staff member, by count (empty for a rider).
files/          The photos and receipts you uploaded, as stored.

Left out on purpose: your password (only a hash of it is kept), session and
reset tokens, device keys, and other people's personal data (a follower's full
address, the author of a comment on your profile, staff members' account ids).

Questions, corrections or erasure: ask the organiser (My Profile > Privacy).
`;

/** The ZIP: JSON compressed, files stored as they are (already compressed images and PDFs). */
export function zipExport(content: ExportContent): Uint8Array {
  const at = content.generatedAt.toISOString();
  const entries: Zippable = {
    'README.txt': strToU8(README(content)),
    'summary.html': strToU8(summaryHtml(content)),
    'staff-work.json': strToU8(JSON.stringify({ generatedAt: at, counts: content.staffWork }, null, 2)),
  };
  for (const { kind, tables } of content.kinds) {
    entries[`${kind.file}.json`] = strToU8(
      JSON.stringify(
        { kind: kind.file, title: kind.title, description: kind.description, generatedAt: at, tables },
        null,
        2,
      ),
    );
  }
  for (const f of content.files) entries[f.path] = [f.bytes, { level: 0 }];
  return zipSync(entries, { level: 6, mtime: content.generatedAt });
}
