// The organiser's retention settings per edition (DESIGN.md §12): read with the schedule, set
// per kind (a kind left out keeps the default), audited, and refused to anyone without
// manage_event or with days out of range.
import { randomUUID } from 'node:crypto';
import { RETENTION_DEFAULTS } from '@rally/shared/catalog/privacy';
import { and, desc, eq } from 'drizzle-orm';
import { describe, expect, it } from 'vitest';
import { activities } from '../../db/schema/activities';
import { editions } from '../../db/schema/editions';
import { DB_KINDS, useTestApp } from '../../test/build-app';
import { injectAs } from '../../test/factories';
import { goesOn } from './retention.service';

describe('when a kind goes', () => {
  it('is the start of the day after the last day plus the days, in Manila', () => {
    expect(goesOn('2026-03-16', 30)?.toISOString()).toBe('2026-04-15T16:00:00.000Z');
    expect(goesOn('2026-03-16', 0)?.toISOString()).toBe('2026-03-16T16:00:00.000Z');
    expect(goesOn(null, 30)).toBeNull();
  });
});

describe.each(DB_KINDS)('retention settings (%s)', (kind) => {
  const t = useTestApp(kind, 'admin', 'marshall', 'officer');
  const url = (id: string) => `/api/admin/editions/${id}/retention`;

  async function edition(endsOn: string | null) {
    const [row] = await t.database.db
      .insert(editions)
      .values({ name: `Retention ${randomUUID().slice(0, 8)}`, year: 2031, startsOn: endsOn, endsOn })
      .returning();
    if (!row) throw new Error('no edition');
    return row.id;
  }

  it('reads the defaults and the schedule, sets days per kind, and logs the change', async () => {
    const id = await edition('2031-03-16');
    const read = await injectAs(t.app, t.staff.admin, 'GET', url(id));
    expect(read.statusCode, read.body).toBe(200);
    const kinds = read.json().data.retention.kinds;
    expect(kinds.map((k: { kind: string; days: number; isDefault: boolean }) => [k.kind, k.days, k.isDefault])).toEqual(
      Object.entries(RETENTION_DEFAULTS).map(([k, d]) => [k, d, true]),
    );
    expect(kinds[0]).toMatchObject({
      label: 'Medical notes',
      goesOn: '2031-04-15T16:00:00.000Z',
      wentAt: null,
      rows: null,
    });

    const put = await injectAs(t.app, t.staff.admin, 'PUT', url(id), { medical: 7, positions: 0, receipts: null });
    expect(put.statusCode, put.body).toBe(200);
    const set = put.json().data.retention.kinds as Array<{ kind: string; days: number; isDefault: boolean }>;
    expect(set.map((k) => [k.kind, k.days, k.isDefault])).toEqual([
      ['medical', 7, false],
      ['contact', 30, true],
      ['positions', 0, false],
      ['receipts', 365, true],
      ['incidents', 730, true],
    ]);
    const [row] = await t.database.db.select().from(editions).where(eq(editions.id, id));
    expect(row?.retention).toEqual({ medical: 7, positions: 0 });
    const [line] = await t.database.db
      .select()
      .from(activities)
      .where(and(eq(activities.type, 'edition_updated'), eq(activities.actorId, t.staff.admin.userId)))
      .orderBy(desc(activities.createdAt))
      .limit(1);
    expect(line?.description).toContain('keeps personal data');
    expect(line?.details).toBe('medical: 30 days (default) → 7 days; positions: 30 days (default) → 0 days');

    // The whole setting is replaced: a kind left out is the default again.
    const reset = await injectAs(t.app, t.staff.admin, 'PUT', url(id), { contact: 60 });
    expect(reset.statusCode, reset.body).toBe(200);
    const [again] = await t.database.db.select().from(editions).where(eq(editions.id, id));
    expect(again?.retention).toEqual({ contact: 60 });
  });

  it('has no schedule for an edition without an end date', async () => {
    const id = await edition(null);
    const read = await injectAs(t.app, t.staff.admin, 'GET', url(id));
    expect(read.statusCode, read.body).toBe(200);
    expect(read.json().data.retention.kinds.every((k: { goesOn: string | null }) => k.goesOn === null)).toBe(true);
  });

  it('refuses staff without manage_event, days out of range, and an unknown edition', async () => {
    const id = await edition('2031-03-16');
    for (const actor of [t.staff.marshall, t.staff.officer]) {
      expect((await injectAs(t.app, actor, 'GET', url(id))).statusCode).toBe(403);
      expect((await injectAs(t.app, actor, 'PUT', url(id), { medical: 5 })).statusCode).toBe(403);
    }
    for (const [body, message] of [
      [{ medical: -1 }, 'medical must be at least 0 days'],
      [{ receipts: 3651 }, 'receipts must be at most 3650 days'],
      [{ contact: 1.5 }, 'contact must be a whole number of days'],
      [{ incidents: 'ten' }, 'incidents must be a number of days'],
    ] as const) {
      const res = await injectAs(t.app, t.staff.admin, 'PUT', url(id), body);
      expect([res.statusCode, res.json().message]).toEqual([400, message]);
    }
    const [row] = await t.database.db.select().from(editions).where(eq(editions.id, id));
    expect(row?.retention).toEqual({});
    const unknown = randomUUID();
    expect((await injectAs(t.app, t.staff.admin, 'GET', url(unknown))).statusCode).toBe(404);
    const put = await injectAs(t.app, t.staff.admin, 'PUT', url(unknown), { medical: 5 });
    expect([put.statusCode, put.json().code]).toEqual([404, 'EDITION_NOT_FOUND']);
  });
});
