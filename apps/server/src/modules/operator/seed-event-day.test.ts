import { eq, sql } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { scans, stations } from '../../db/schema/event-day';
import { incidents } from '../../db/schema/incidents';
import { buildTestApp, type TestApp } from '../../test/build-app';
import { seedDemo } from './seed-demo';

describe('seed-demo on event day', () => {
  let t: TestApp;
  beforeAll(async () => {
    t = await buildTestApp('pglite');
  });
  afterAll(() => t?.close());

  it('creates the default stations and scans through the real ingest, with flagged ones to review', async () => {
    const out = await seedDemo(t.database.db);
    expect(out).toMatch(/Event day: \d+ stations, \d+ accepted scans and 2 flagged for review\./);
    expect(out).toContain('Incidents: hotline +63 917 555 0101, one open SOS and one phoned-in incident.');
    const open = await t.database.db.select().from(incidents);
    expect(open.map((i) => i.status).sort()).toEqual(['acknowledged', 'open']);
    const db = t.database.db;
    expect((await db.select().from(stations)).length).toBeGreaterThanOrEqual(3);
    const flagged = await db.select({ reason: scans.reason }).from(scans).where(eq(scans.status, 'flagged'));
    expect(flagged.map((f) => f.reason).sort()).toEqual(['rescan', 'unknown_rider']);
    // The scanned riders' checkpoint counts are derived from their passages, not typed in.
    const rows = (await db.execute(sql`
      select e.checkpoints as stored,
        (select count(distinct s.station_id)::int from scans s join stations st on st.id = s.station_id
          where s.rider_id = u.id and st.kind = 'checkpoint' and s.status = 'accepted') as derived
      from users u join entries e on e.user_id = u.id and e.edition_id = (select current_edition_id())
      where exists (select 1 from scans s where s.rider_id = u.id and s.status = 'accepted')`)) as unknown as {
      rows: Array<{ stored: number; derived: number }>;
    };
    expect(rows.rows.length).toBeGreaterThan(0);
    for (const r of rows.rows) expect(r.stored).toBe(r.derived);
    expect(rows.rows.some((r) => r.derived === 1)).toBe(true);
  });
});
