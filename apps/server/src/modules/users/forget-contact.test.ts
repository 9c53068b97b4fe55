// Issue 16: deleting a user removes their email and contact data from
// everything that outlives the account, keeping the name and rider number snapshot.
import { randomBytes } from 'node:crypto';
import { eq, sql } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { activities } from '../../db/schema/activities';
import { entries } from '../../db/schema/entries';
import { buildTestApp, DB_KINDS, type TestApp } from '../../test/build-app';
import { approvedRider, bearer, login, staff } from '../../test/factories';
import { createResetLink } from '../password-resets/password-resets.service';

describe.each(DB_KINDS)('deleting a user forgets their contact data on %s', (kind) => {
  let t: TestApp;
  beforeAll(async () => {
    t = await buildTestApp(kind);
  });
  afterAll(() => t.close());

  /** Every row of every table whose text holds `value`, as "table: row". */
  const rowsHolding = async (value: string) => {
    const tables = (await t.database.db.execute(
      sql`select table_name from information_schema.tables where table_schema = 'public' and table_type = 'BASE TABLE'`,
    )) as unknown as { rows: Array<{ table_name: string }> };
    const found: string[] = [];
    for (const { table_name } of tables.rows) {
      const hits = (await t.database.db.execute(
        sql`select x::text as row from ${sql.identifier(table_name)} x where x::text ilike ${`%${value}%`}`,
      )) as unknown as { rows: Array<{ row: string }> };
      for (const h of hits.rows) found.push(`${table_name}: ${h.row.slice(0, 300)}`);
    }
    return found;
  };

  it('leaves no row anywhere holding the email, phone, address or codes, and keeps the name snapshot', async () => {
    const admin = await staff(t.app, t.database.db, 'admin');
    const id = randomBytes(4).toString('hex');
    const phone = `0917${Number.parseInt(id, 16) % 10_000_000}`.padEnd(11, '7');
    const address = `Purok ${id}, Barangay Talomo, Davao City`;
    const rider = await approvedRider(t.app, admin, {
      firstName: 'Lapu',
      lastName: `Forget${id}`,
      phoneNumber: phone,
      address,
      email: `Forget.Me.${id}@Example.com`,
    });
    const [row] = await t.database.db.select().from(entries).where(eq(entries.userId, rider.userId));
    const riderCode = row?.riderCode as string;
    expect(riderCode).toMatch(/^RC-/);

    // Leave traces everywhere: logins good and bad, a reset request and link, staff edits.
    expect((await login(t.app, rider.email)).statusCode).toBe(200);
    expect((await login(t.app, rider.email.toUpperCase(), 'Wrong-pass-1')).statusCode).toBe(401);
    await t.app.inject({ method: 'POST', url: '/api/auth/forgot-password', payload: { email: rider.email } });
    await createResetLink(t.database.db, rider.userId, t.config.publicUrl, null);
    await t.app.inject({
      method: 'PATCH',
      url: `/api/admin/users/${rider.userId}`,
      headers: bearer(admin.token),
      payload: { phone_number: phone, address },
    });
    const secrets = [rider.email.toLowerCase(), phone, address, rider.verificationCode, riderCode];
    for (const s of secrets) expect(await rowsHolding(s)).not.toEqual([]);

    const res = await t.app.inject({
      method: 'DELETE',
      url: `/api/admin/users/${rider.userId}`,
      headers: bearer(admin.token),
    });
    expect(res.statusCode, res.body).toBe(200);

    for (const s of secrets) expect(await rowsHolding(s), s).toEqual([]);
    // Who did what stays auditable: the name and rider number snapshot.
    const [deletion] = await t.database.db.select().from(activities).where(eq(activities.type, 'user_deleted'));
    expect(deletion?.userName).toBe(`Lapu Forget${id}`);
    expect(deletion?.details).toBe(`Rider #${rider.riderNumber} is free again`);
    expect(await rowsHolding(`Forget${id}`)).not.toEqual([]);
  });
});
