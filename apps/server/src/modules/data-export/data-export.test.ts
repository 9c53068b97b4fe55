// Issue 43, "your data, on request" (DESIGN.md §12):
// - a rider seeded into every table it can, across two editions, downloads a ZIP holding a
//   JSON of every table that has a row of theirs (walked from personal-data.ts and the
//   database's own keys, so a new table naming a person fails here until it is exported),
//   with their files, and a summary.html with their name escaped; no password hash, token or
//   device key;
// - only its owner reaches it (another rider 404, signed out 401); asking twice answers the
//   same export;
// - after its seven days it is 410 and the job removes it;
// - staff with delete_user prepare one for a letter, and their download is in the access log;
// - a pending export left by a crashed instance is built by the worker's next round.
import { DATA_EXPORT_DAYS } from '@rally/shared/catalog/privacy';
import { and, eq, sql } from 'drizzle-orm';
import { strFromU8, unzipSync } from 'fflate';
import { describe, expect, it } from 'vitest';
import { activities } from '../../db/schema/activities';
import { dataAccess } from '../../db/schema/data-access';
import { dataExports } from '../../db/schema/privacy';
import { users } from '../../db/schema/users';
import { databaseFileStore } from '../../lib/file-store';
import { rowsOf } from '../../lib/sql-text';
import { DB_KINDS, useTestApp } from '../../test/build-app';
import { type Actor, injectAs, registerRider } from '../../test/factories';
import { riderEverywhere } from '../../test/rider-everywhere';
import { PERSONAL_DATA } from '../users/personal-data';
import { buildNextExport, dataExportsIdle, deleteExpiredExports } from './data-export-job';

type Json = Record<string, unknown>;

describe.each(DB_KINDS)('data export (%s)', (kind) => {
  const t = useTestApp(kind, 'admin', 'marshall');
  const { admin, marshall } = t.staff;
  const query = async <T>(q: ReturnType<typeof sql>) => rowsOf<T>(await t.database.db.execute(q));

  /** Asks for an export as `who`, waits for the background build, answers its id. */
  const prepared = async (who: Actor, url = '/api/my/data-export') => {
    const asked = await injectAs(t.app, who, 'POST', url);
    expect(asked.statusCode, asked.body).toBe(202);
    await dataExportsIdle(t.database.db);
    return asked.json().data.id as string;
  };
  const unzip = (body: Buffer) => unzipSync(new Uint8Array(body));
  const jsonFiles = (zip: Record<string, Uint8Array>) =>
    Object.fromEntries(
      Object.entries(zip)
        .filter(([name]) => name.endsWith('.json'))
        .map(([name, bytes]) => [name, JSON.parse(strFromU8(bytes)) as Json]),
    );

  it('holds a JSON of every table with a row of the rider, their files and a readable summary', async () => {
    const rider = await riderEverywhere(t, admin, marshall);
    // A name that is markup, to be shown as text.
    const name = `Ana <b>"Tess"</b> & O'Neil`;
    await t.database.db.update(users).set({ firstName: name }).where(eq(users.id, rider.userId));

    // What the rider has everywhere, counted before the export (a row written after it, a
    // receipt read late by the file queue, is not asked of it), by every key of every table,
    // read from the database itself.
    const keys = await query<{ table_name: string; column_name: string; target: string }>(
      sql`select c.conrelid::regclass::text as table_name, a.attname as column_name, c.confrelid::regclass::text as target
          from pg_constraint c join pg_attribute a on a.attrelid = c.conrelid and a.attnum = c.conkey[1]
          where c.contype = 'f' and array_length(c.conkey, 1) = 1 and c.connamespace = 'public'::regnamespace`,
    );
    const toUsers = keys.filter((k) => k.target === 'users');
    // The person's rows of a table, by a key to them, or through its goesWith parent's (a
    // receipt's reading through the file, an SOS escalation through the incident).
    const holding: Array<{ table: string; via: string; n: number }> = [];
    for (const k of toUsers) {
      if (!PERSONAL_DATA[k.table_name]) continue;
      const [row] = await query<{ n: number | string }>(
        sql`select count(*) as n from ${sql.identifier(k.table_name)} where ${sql.identifier(k.column_name)} = ${rider.userId}`,
      );
      holding.push({ table: k.table_name, via: k.column_name, n: Number(row?.n ?? 0) });
    }
    for (const [table, rule] of Object.entries(PERSONAL_DATA)) {
      for (const column of rule.goesWith ?? []) {
        const key = keys.find((k) => k.table_name === table && k.column_name === column && k.target !== 'users');
        if (!key) continue;
        const parentKeys = toUsers.filter(
          (k) => k.table_name === key.target && (PERSONAL_DATA[key.target]?.goesWith ?? []).includes(k.column_name),
        );
        for (const pk of parentKeys) {
          const [row] = await query<{ n: number | string }>(
            sql`select count(*) as n from ${sql.identifier(table)} c join ${sql.identifier(key.target)} p on p.id = c.${sql.identifier(column)}
                where p.${sql.identifier(pk.column_name)} = ${rider.userId}`,
          );
          holding.push({ table, via: `${column} → ${key.target}.${pk.column_name}`, n: Number(row?.n ?? 0) });
        }
      }
    }
    const held = holding.filter((h) => h.n > 0);

    const id = await prepared(rider);
    const status = await injectAs(t.app, rider, 'GET', `/api/my/data-export/${id}`);
    expect(status.statusCode, status.body).toBe(200);
    expect(status.json().data).toMatchObject({ id, status: 'ready', byStaff: false });
    const res = await injectAs(t.app, rider, 'GET', `/api/my/data-export/${id}/download`);
    expect(res.statusCode, res.body).toBe(200);
    expect(res.headers['content-type']).toBe('application/zip');
    expect(res.headers['content-disposition']).toMatch(/^attachment; filename="rally-data-\d{4}-\d{2}-\d{2}\.zip"$/);
    expect(status.json().data.bytes).toBe(res.rawPayload.length);
    const zip = unzip(res.rawPayload);
    const json = jsonFiles(zip);

    // Rows per table in the export, whichever kind's file holds them.
    const exported = new Map<string, number>();
    for (const file of Object.values(json)) {
      const tables = (file.tables ?? {}) as Record<string, unknown[]>;
      for (const [table, rows] of Object.entries(tables)) exported.set(table, (exported.get(table) ?? 0) + rows.length);
    }
    const staffWork = (json['staff-work.json']?.counts ?? {}) as Record<string, number>;

    // The seeding reaches far: a check that is not vacuous.
    expect(new Set(held.map((h) => h.table)).size).toBeGreaterThanOrEqual(25);
    const missing = held
      .filter((h) => (exported.get(h.table) ?? 0) < h.n && staffWork[`${h.table}.${h.via}`] !== h.n)
      .map((h) => `${h.table} (${h.n} by ${h.via}, ${exported.get(h.table) ?? 0} exported)`);
    expect(missing, 'tables holding the rider with no (or too few) rows in the export').toEqual([]);

    // Both editions' entries, their receipts' bytes, the text they sent in.
    const tablesOf = (file: string) => (json[file]?.tables ?? {}) as Record<string, Json[]>;
    const entries = tablesOf('entries.json').entries ?? [];
    expect(entries).toHaveLength(2);
    expect(new Set(entries.map((e) => e.edition)).size).toBe(2);
    const files = Object.keys(zip).filter((f) => f.startsWith('files/'));
    expect(files.length).toBeGreaterThanOrEqual(3);
    expect((tablesOf('messages.json').inbound_texts ?? []).map((r) => r.message)).toHaveLength(1);

    // Nothing that is a credential, nor others' addresses and ids.
    const all = JSON.stringify(json);
    for (const secret of ['password_hash', 'token_hash', 'pin_hash', 'p256dh', '"auth"', 'tracking_id', '"zip"'])
      expect(all, secret).not.toContain(secret);
    expect(all).not.toMatch(/mama\.[0-9a-f]{8}@example\.com/);
    expect(all).toContain(rider.secrets.medical);

    // The summary: who, escaped; each kind.
    const summary = strFromU8(zip['summary.html'] as Uint8Array);
    expect(summary).toContain('Ana &lt;b&gt;&quot;Tess&quot;&lt;/b&gt; &amp; O&#39;Neil');
    expect(summary).not.toContain('<b>"Tess"</b>');
    expect(summary).toContain('Your entries');
    expect(summary).toContain(rider.secrets.allergies);
  });

  it('is its owner’s only, and asking twice answers the same export', async () => {
    const rider = await registerRider(t.app);
    const other = await registerRider(t.app);
    const id = await prepared(rider);
    const again = await injectAs(t.app, rider, 'POST', '/api/my/data-export');
    expect(again.statusCode).toBe(202);
    expect(again.json().data.id).toBe(id);
    expect(again.json().message).toMatch(/already/);

    for (const url of [`/api/my/data-export/${id}`, `/api/my/data-export/${id}/download`]) {
      expect((await injectAs(t.app, other, 'GET', url)).statusCode, url).toBe(404);
      expect((await injectAs(t.app, null, 'GET', url)).statusCode, url).toBe(401);
      // Staff reach letter exports only, through their own routes.
      expect((await injectAs(t.app, admin, 'GET', url)).statusCode, url).toBe(404);
    }
    expect((await injectAs(t.app, admin, 'GET', `/api/admin/data-exports/${id}`)).statusCode).toBe(404);
    expect((await injectAs(t.app, null, 'POST', '/api/my/data-export')).statusCode).toBe(401);
    const mine = await injectAs(t.app, rider, 'GET', '/api/my/data-export');
    expect(mine.json().data.map((e: { id: string }) => e.id)).toEqual([id]);
    expect((await injectAs(t.app, other, 'GET', '/api/my/data-export')).json().data).toEqual([]);
  });

  it(`is gone after ${DATA_EXPORT_DAYS} days: 410, then removed by the job`, async () => {
    const rider = await registerRider(t.app);
    const id = await prepared(rider);
    const [row] = await t.database.db.select().from(dataExports).where(eq(dataExports.id, id));
    expect(row?.status).toBe('ready');
    const days = ((row?.expiresAt.getTime() ?? 0) - (row?.readyAt?.getTime() ?? 0)) / 86_400_000;
    expect(days).toBe(DATA_EXPORT_DAYS);

    await t.database.db
      .update(dataExports)
      .set({ expiresAt: new Date(Date.now() - 1000) })
      .where(eq(dataExports.id, id));
    for (const url of [`/api/my/data-export/${id}`, `/api/my/data-export/${id}/download`]) {
      const res = await injectAs(t.app, rider, 'GET', url);
      expect(res.statusCode, url).toBe(410);
      expect(res.json()).toMatchObject({ success: false, code: 'EXPORT_EXPIRED' });
      expect(res.json().message).toMatch(/expired/);
    }
    expect((await injectAs(t.app, rider, 'GET', '/api/my/data-export')).json().data).toEqual([]);

    expect(await deleteExpiredExports(t.database.db, new Date())).toBeGreaterThanOrEqual(1);
    expect(await t.database.db.select().from(dataExports).where(eq(dataExports.id, id))).toEqual([]);
    expect((await injectAs(t.app, rider, 'GET', `/api/my/data-export/${id}`)).statusCode).toBe(404);
    // Asking again makes a new one.
    expect(await prepared(rider)).not.toBe(id);
  });

  it('lets staff with delete_user prepare one for a letter, and logs their download', async () => {
    const rider = await registerRider(t.app);
    await t.database.db.update(users).set({ allergies: 'Bees', bloodType: 'B+' }).where(eq(users.id, rider.userId));
    const url = `/api/admin/users/${rider.userId}/data-export`;
    expect((await injectAs(t.app, marshall, 'POST', url)).statusCode).toBe(403);
    expect((await injectAs(t.app, rider, 'POST', url)).statusCode).toBe(403);
    const id = await prepared(admin, url);
    // Preparing it is on the log, naming the staff member and the rider.
    const logged = await t.database.db
      .select({ actorId: activities.actorId, userId: activities.userId })
      .from(activities)
      .where(and(eq(activities.type, 'data_export_prepared'), eq(activities.userId, rider.userId)));
    expect(logged).toEqual([{ actorId: admin.userId, userId: rider.userId }]);

    const status = await injectAs(t.app, admin, 'GET', `/api/admin/data-exports/${id}`);
    expect(status.statusCode, status.body).toBe(200);
    expect(status.json().data).toMatchObject({ id, status: 'ready', byStaff: true, userId: rider.userId });
    // The rider's session does not reach the letter's copy (theirs is on request).
    expect((await injectAs(t.app, rider, 'GET', `/api/my/data-export/${id}`)).statusCode).toBe(404);
    expect((await injectAs(t.app, marshall, 'GET', `/api/admin/data-exports/${id}/download`)).statusCode).toBe(403);

    const res = await injectAs(t.app, admin, 'GET', `/api/admin/data-exports/${id}/download`);
    expect(res.statusCode, res.body).toBe(200);
    const account = (jsonFiles(unzip(res.rawPayload))['account.json']?.tables ?? {}) as Record<string, Json[]>;
    expect(account.users?.[0]).toMatchObject({ id: rider.userId, allergies: 'Bees' });
    const lines = await t.database.db
      .select()
      .from(dataAccess)
      .where(and(eq(dataAccess.riderId, rider.userId), eq(dataAccess.source, `data export ${id}`)));
    expect(lines).toHaveLength(1);
    expect(lines[0]).toMatchObject({ staffId: admin.userId });
    expect(lines[0]?.fields).toEqual(expect.arrayContaining(['medical', 'emergency_contact']));
    // The rider sees it in their own access log.
    const seen = await injectAs(t.app, rider, 'GET', '/api/my/data-access');
    expect(seen.json().data.map((l: { source: string }) => l.source)).toContain(`data export ${id}`);
  });

  // PGlite has one connection: a second builder cannot run beside a transaction there.
  it.skipIf(kind !== 'postgres')('never builds an export another instance is building', async () => {
    const db = t.database.db;
    const pending = async () => {
      const rider = await registerRider(t.app);
      const [row] = await db
        .insert(dataExports)
        .values({ userId: rider.userId, expiresAt: new Date(Date.now() + 86_400_000) })
        .returning({ id: dataExports.id });
      return row?.id as string;
    };
    const busy = await pending();
    const free = await pending();
    const statusOf = async (id: string) =>
      (await db.select({ status: dataExports.status }).from(dataExports).where(eq(dataExports.id, id)))[0]?.status;
    await db.transaction(async (tx) => {
      // Another instance building `busy`: its row is held until that build commits.
      await tx.execute(sql`select id from data_exports where id = ${busy} for update`);
      while (await buildNextExport(db, databaseFileStore, new Date())) {}
      expect(await statusOf(free)).toBe('ready');
      expect(await statusOf(busy)).toBe('pending');
    });
    await dataExportsIdle(db);
    expect(await buildNextExport(db, databaseFileStore, new Date())).toBe(true);
    expect(await statusOf(busy)).toBe('ready');
  });

  it('builds, on the worker’s next round, an export left pending by a crashed instance', async () => {
    const rider = await registerRider(t.app);
    const [row] = await t.database.db
      .insert(dataExports)
      .values({ userId: rider.userId, expiresAt: new Date(Date.now() + 86_400_000) })
      .returning({ id: dataExports.id });
    const worker = t.app.messenger.worker;
    expect(worker).not.toBeNull();
    worker?.wake();
    await worker?.idle();
    await dataExportsIdle(t.database.db);
    const status = await injectAs(t.app, rider, 'GET', `/api/my/data-export/${row?.id}`);
    expect(status.json().data.status).toBe('ready');
  });
});
