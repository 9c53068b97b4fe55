// The user record (`/api/auth/login`, `/api/auth/profile`) reads the person and their entry
// in the current edition (DESIGN.md §9). An entry with no number (an operator-made rider)
// still has its rider code and sizes: a left-joined object whose first field is null read
// as no entry at all, and the scanners' e2e riders came without a code.
import { and, eq } from 'drizzle-orm';
import { describe, expect, it } from 'vitest';
import { entries } from '../../db/schema/entries';
import { inEdition } from '../../lib/edition-of';
import { DB_KINDS, useTestApp } from '../../test/build-app';
import { injectAs, staff } from '../../test/factories';

describe.each(DB_KINDS)('the user record (%s)', (kind) => {
  const t = useTestApp(kind);

  it('reads an entry without a number: its rider code and sizes', async () => {
    const rider = await staff(t.app, t.database.db, 'participant');
    const current = and(eq(entries.userId, rider.userId), inEdition(entries.editionId));
    await t.database.db.update(entries).set({ tshirtSize: 'CUSTOM', customTshirtSize: 'chest 58 in' }).where(current);
    const [entry] = await t.database.db.select().from(entries).where(current);
    expect(entry?.riderNumber).toBeNull();
    expect(entry?.riderCode).toMatch(/^RC-/);

    const user = (await injectAs(t.app, rider, 'GET', '/api/auth/profile')).json().data.user;
    expect(user).toMatchObject({
      id: rider.userId,
      verificationStatus: 'verified',
      riderNumber: null,
      riderCode: entry?.riderCode,
      tshirtSize: 'CUSTOM',
      customTshirtSize: 'chest 58 in',
    });
  });
});
