// Issue 40: deletion removes or anonymises the person's data in every edition, in one place
// (personal-data.ts). Two checks:
// - the registry covers the schema: every table and every column is listed, a new one fails
//   here until it has a rule, and each rule is what the database's keys do;
// - a rider with data in two editions (entries, receipts, passages, SOS notes and positions,
//   codes, medical notes, a text received) is deleted, and nothing of theirs is left in any
//   table, past editions' entries included, but what a rule keeps on purpose.
import { randomUUID } from 'node:crypto';
import { sql } from 'drizzle-orm';
import { describe, expect, it } from 'vitest';
import { DB_KINDS, useTestApp } from '../../test/build-app';
import { injectAs } from '../../test/factories';
import { riderEverywhere } from '../../test/rider-everywhere';
import { PERSONAL_DATA } from './personal-data';

type Rows<T> = { rows: T[] };

describe.each(DB_KINDS)('personal data and deletion (%s)', (kind) => {
  const t = useTestApp(kind, 'admin', 'marshall');
  const { admin, marshall } = t.staff;
  const query = async <T>(q: ReturnType<typeof sql>) => ((await t.database.db.execute(q)) as unknown as Rows<T>).rows;

  it('has a rule for every column of every table, and each rule is what the keys do', async () => {
    const columns = await query<{ table_name: string; column_name: string }>(
      sql`select table_name, column_name from information_schema.columns where table_schema = 'public'`,
    );
    const inDb = new Map<string, Set<string>>();
    for (const c of columns) inDb.set(c.table_name, (inDb.get(c.table_name) ?? new Set()).add(c.column_name));
    expect([...inDb.keys()].sort(), 'tables without a rule in personal-data.ts').toEqual(
      Object.keys(PERSONAL_DATA).sort(),
    );
    for (const [table, rule] of Object.entries(PERSONAL_DATA)) {
      const listed = [...Object.keys(rule.personal), ...rule.other];
      expect(new Set(listed).size, `${table}: a column listed twice`).toBe(listed.length);
      expect(listed.sort(), `${table}: columns without a rule in personal-data.ts`).toEqual(
        [...(inDb.get(table) ?? [])].sort(),
      );
    }
    const keys = await query<{ table_name: string; column_name: string; on_delete: string }>(
      sql`select c.conrelid::regclass::text as table_name, a.attname as column_name, c.confdeltype as on_delete
          from pg_constraint c join pg_attribute a on a.attrelid = c.conrelid and a.attnum = c.conkey[1]
          where c.contype = 'f' and array_length(c.conkey, 1) = 1 and c.connamespace = 'public'::regnamespace`,
    );
    const onDelete = new Map(keys.map((k) => [`${k.table_name}.${k.column_name}`, k.on_delete]));
    for (const [table, rule] of Object.entries(PERSONAL_DATA)) {
      // The account's own row is what is deleted.
      for (const key of table === 'users' ? [] : (rule.goesWith ?? []))
        expect(onDelete.get(`${table}.${key}`), `${table}.${key}`).toBe('c');
      for (const [column, r] of Object.entries(rule.personal))
        if (r === 'reference' && onDelete.has(`${table}.${column}`))
          expect(onDelete.get(`${table}.${column}`), `${table}.${column}`).toBe('n');
    }
  });

  it('leaves nothing of a deleted rider in any table or past edition but what a rule keeps', async () => {
    // Every table a rider can reach (test/rider-everywhere.ts): two editions, a rollover between.
    const rider = await riderEverywhere(t, admin, marshall, {
      // A name, as the audit trail keeps names: not among the secrets.
      kitName: `KIT ${randomUUID().slice(0, 8).toUpperCase()}`,
    });
    const { secrets, codes } = rider;
    const [firstCode] = codes;
    const [code] = codes.slice(-1);
    const everything = [...Object.values(secrets), ...codes, rider.email];
    const found = async () => {
      const hits: string[] = [];
      const keptOf = (table: string) =>
        Object.entries(PERSONAL_DATA[table]?.personal ?? {})
          .filter(([, r]) => typeof r === 'object')
          .map(([c]) => c);
      const look = (table: string, row: Record<string, unknown>) => {
        for (const c of keptOf(table)) delete row[c];
        const j = JSON.stringify(row).toLowerCase();
        for (const value of everything) if (j.includes(value.toLowerCase())) hits.push(`${table}: ${value}`);
      };
      for (const table of Object.keys(PERSONAL_DATA)) {
        const rows = await query<{ j: Record<string, unknown> }>(
          sql`select to_jsonb(t) as j from ${sql.identifier(table)} t`,
        );
        for (const { j } of rows) {
          look(table, typeof j === 'string' ? (JSON.parse(j) as Record<string, unknown>) : j);
        }
      }
      return [...new Set(hits)].sort();
    };
    // Before: the rider is everywhere, both editions' entries included (last year's code too).
    const before = await found();
    expect(before).toEqual(
      expect.arrayContaining([`users: ${secrets.medical}`, `entries: ${firstCode}`, `entries: ${code}`]),
    );
    expect(before).toEqual(expect.arrayContaining([`incidents: ${secrets.sos}`, `scans: ${firstCode}`]));

    const deleted = await injectAs(t.app, admin, 'DELETE', `/api/admin/users/${rider.userId}`);
    expect(deleted.statusCode, deleted.body).toBe(200);
    expect(await found()).toEqual([]);
  });
});
