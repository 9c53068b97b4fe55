// A backup's lines (modules/operator/backup.ts), read and written back, for the upgrade tests
// that turn today's backup into one an older install would have made.
import { readFileSync, writeFileSync } from 'node:fs';
import { gunzipSync, gzipSync } from 'node:zlib';

export type Line = Record<string, unknown>;

export function readBackupLines(file: string): Line[] {
  return gunzipSync(readFileSync(file))
    .toString('utf8')
    .split('\n')
    .filter(Boolean)
    .map((l) => JSON.parse(l) as Line);
}

/**
 * Writes `lines` (header, each table's block, the end marker) to `file`, the blocks in
 * `order`: the foreign-key order of the level the backup is for (a restore writes tables in
 * file order, and an older level's keys may order them differently from today's).
 */
export function writeBackupLines(file: string, lines: Line[], order: string[]): void {
  const blocks = new Map<string, Line[]>();
  let block: Line[] = [];
  for (const line of lines.slice(1, -1)) {
    if (typeof line.table === 'string') {
      block = [];
      blocks.set(line.table, block);
    }
    block.push(line);
  }
  const named = ((lines[0]?.tables ?? []) as string[]).filter((t) => blocks.has(t));
  const tables = order.filter((t) => named.includes(t));
  const out = [{ ...lines[0], tables }, ...tables.flatMap((t) => blocks.get(t) ?? []), lines.at(-1) as Line];
  writeFileSync(file, gzipSync(`${out.map((l) => JSON.stringify(l)).join('\n')}\n`));
}

type Row = Record<string, unknown>;

/** The entry's columns as `users` held them until migration 0020 (DESIGN.md §9), with their defaults. */
const ENTRY_ON_ACCOUNTS: Row = {
  rider_number: null,
  rider_code: null,
  category: null,
  payment_method: null,
  payment_amount: null,
  tshirt_size: null,
  custom_tshirt_size: null,
  tshirt_submitted_at: null,
  finisher_sleeve_size: null,
  custom_finisher_sleeve_size: null,
  vest_size: null,
  custom_vest_size: null,
  gear_submitted_at: null,
  bike_check_status: 'Not Started',
  rider_kit_status: 'Preparing',
  checkpoints: 0,
};
const entryColumns = (entry: Row | undefined): Row =>
  Object.fromEntries(Object.entries(ENTRY_ON_ACCOUNTS).map(([k, d]) => [k, entry?.[k] ?? d]));

export interface AccountsWithEntries {
  /** Today's lines with `entries` named `verifications` and each account holding its current entry. */
  lines: Line[];
  /** Each past edition's accounts as its rollover archived them: the person with that edition's entry. */
  pastAccounts: Array<{ editionId: string; row: Row }>;
  /** Each past edition's rider entries as `edition_entries` summed them up. */
  pastSummaries: Row[];
}

/**
 * Today's backup as an install before migration 0020 held it: the entry's columns on the
 * account (the current edition's entry), the entries table named `verifications`, and what a
 * past edition's rollover kept of its entries (the accounts archived, a summary per rider).
 */
export function entriesOnAccounts(lines: Line[]): AccountsWithEntries {
  let table: string | undefined;
  let currentId: unknown;
  const entries: Row[] = [];
  const roles = new Map<unknown, unknown>();
  for (const line of lines) {
    if (typeof line.table === 'string') table = line.table;
    const r = line.r as Row | undefined;
    if (!r) continue;
    if (table === 'editions' && r.current) currentId = r.id;
    if (table === 'entries') entries.push(r);
    if (table === 'users') roles.set(r.id, r.role);
  }
  const current = new Map(entries.filter((e) => e.edition_id === currentId).map((e) => [e.user_id, e]));
  const accounts = new Map<unknown, Row>();
  const out: Line[] = lines.map((line) => {
    if (typeof line.table === 'string') table = line.table;
    if ('format' in line)
      return { ...line, tables: (line.tables as string[]).map((t) => (t === 'entries' ? 'verifications' : t)) };
    if (line.table === 'entries') return { table: 'verifications' };
    if (line.end === 'entries') return { ...line, end: 'verifications' };
    if (line.complete) {
      const { entries: n, ...rows } = line.rows as Record<string, number>;
      return { ...line, rows: { ...rows, verifications: n } };
    }
    const r = line.r as Row | undefined;
    if (table === 'users' && r) {
      accounts.set(r.id, r);
      return { r: { ...r, ...entryColumns(current.get(r.id)) } };
    }
    return line;
  });
  const past = entries.filter((e) => e.edition_id !== currentId);
  const isRider = (e: Row) => e.rider_number !== null || roles.get(e.user_id) === 'participant';
  return {
    lines: out,
    pastAccounts: past.map((e) => ({
      editionId: e.edition_id as string,
      row: {
        ...accounts.get(e.user_id),
        ...entryColumns(e),
        kit_name: e.kit_name,
        motorcycle_model: e.motorcycle_model,
      },
    })),
    pastSummaries: past.filter(isRider).map((e) => ({
      edition_id: e.edition_id,
      user_id: e.user_id,
      entry_id: e.id,
      rider_number: e.rider_number,
      category: e.category,
      kit_name: e.kit_name,
      motorcycle_model: e.motorcycle_model,
      details: {
        paymentMethod: e.payment_method,
        paymentAmount: e.payment_amount,
        tshirtSize: e.tshirt_size,
        customTshirtSize: e.custom_tshirt_size,
        finisherSleeveSize: e.finisher_sleeve_size,
        customFinisherSleeveSize: e.custom_finisher_sleeve_size,
        vestSize: e.vest_size,
        customVestSize: e.custom_vest_size,
      },
      verification_code: e.verification_code,
      verification_status: e.status,
      entered_at: e.created_at,
      result_state: e.result_state,
      finished_at: e.finished_at,
      elapsed_ms: e.elapsed_ms,
    })),
  };
}

/** `lines` with a block of `rows` for `table` (a table of an older level that today's backup lacks). */
export function withBlock(lines: Line[], table: string, rows: Row[]): Line[] {
  const [header, ...rest] = lines;
  const complete = rest.pop() as Line;
  return [
    { ...header, tables: [...((header?.tables ?? []) as string[]), table] },
    ...rest,
    { table },
    ...rows.map((r) => ({ r })),
    { end: table, rows: rows.length },
    { ...complete, rows: { ...(complete.rows as Record<string, number>), [table]: rows.length } },
  ];
}
