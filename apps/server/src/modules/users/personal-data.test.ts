// Issue 40: deletion removes or anonymises the person's data in every edition, in one place
// (personal-data.ts). Two checks:
// - the registry covers the schema: every table and every column is listed, a new one fails
//   here until it has a rule, and each rule is what the database's keys do;
// - a rider with data in two editions (entries, receipts, passages, SOS notes and positions,
//   codes, medical notes, a text received) is deleted, and nothing of theirs is left in any
//   table, past editions' entries included, but what a rule keeps on purpose.
import { randomInt, randomUUID } from 'node:crypto';
import { and, eq, sql } from 'drizzle-orm';
import { describe, expect, it } from 'vitest';
import { entries } from '../../db/schema/entries';
import { inboundTexts } from '../../db/schema/messages';
import { users } from '../../db/schema/users';
import { inEdition } from '../../lib/edition-of';
import { DB_KINDS, useTestApp } from '../../test/build-app';
import { codedRider, createStation, injectAs, rejoinedRider, rollOver, syncScan } from '../../test/factories';
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
    const tag = randomUUID().slice(0, 8);
    const digits = () => String(randomInt(1_000_000, 9_999_999));
    const phone = `0917${digits()}`;
    const emergency = `0918${digits()}`;
    const secrets = {
      phone,
      phoneE164: `+63${phone.slice(1)}`,
      emergency,
      address: `Purok ${tag}, Davao`,
      allergies: `Allergic to ${tag}`,
      medical: `Condition ${tag}`,
      sos: `Chain snapped ${tag}`,
      lat: '7.1234567',
    };
    const rider = await codedRider(t.app, t.database.db, admin, {
      phoneNumber: phone,
      emergencyContactNumber: emergency,
      address: secrets.address,
      // A name, as the audit trail keeps names: not among the secrets.
      kitName: `KIT ${tag.toUpperCase()}`,
    });
    await t.database.db
      .update(users)
      .set({ allergies: secrets.allergies, medicalConditions: secrets.medical, bloodType: 'O+' })
      .where(eq(users.id, rider.userId));
    const codes = [rider.riderCode, rider.verificationCode];
    const station = await createStation(t.app, admin, { name: `CP ${tag}`, kind: 'checkpoint' });
    await syncScan(t.app, marshall, { stationId: station, riderCode: rider.riderCode });
    const sos = (note: string) =>
      injectAs(t.app, rider, 'POST', '/api/my/sos', {
        id: randomUUID(),
        kind: 'mechanical',
        note,
        position: { lat: Number(secrets.lat), lng: 125.27, accuracy: 12, at: new Date().toISOString() },
      });
    expect((await sos(secrets.sos)).statusCode).toBe(201);
    await t.database.db.insert(inboundTexts).values({
      webhookId: `hook-${tag}`,
      phoneNumber: secrets.phoneE164,
      message: `SOS ${tag}`,
      receivedAt: new Date(),
      outcome: 'sos',
    });

    // The next edition: the rider enters again, is verified (a new code), scanned, in trouble.
    await rollOver(t.app, admin);
    const code = await rejoinedRider(t.app, admin, rider);
    const [now] = await t.database.db
      .select({ riderCode: entries.riderCode })
      .from(entries)
      .where(and(eq(entries.userId, rider.userId), inEdition(entries.editionId)));
    codes.push(now?.riderCode as string, code);
    await syncScan(t.app, marshall, { stationId: station, riderCode: now?.riderCode as string });
    expect((await sos(`${secrets.sos} again`)).statusCode).toBe(201);

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
      expect.arrayContaining([`users: ${secrets.medical}`, `entries: ${rider.riderCode}`, `entries: ${code}`]),
    );
    expect(before).toEqual(expect.arrayContaining([`incidents: ${secrets.sos}`, `scans: ${rider.riderCode}`]));

    const deleted = await injectAs(t.app, admin, 'DELETE', `/api/admin/users/${rider.userId}`);
    expect(deleted.statusCode, deleted.body).toBe(200);
    expect(await found()).toEqual([]);
  });
});
