import { randomUUID } from 'node:crypto';
import { eq, inArray } from 'drizzle-orm';
import { describe, expect, it } from 'vitest';
import { editions } from '../../db/schema/editions';
import { positions } from '../../db/schema/tracking';
import { DB_KINDS, useTestApp } from '../../test/build-app';
import { approvedRider } from '../../test/factories';
import { currentEdition } from '../editions/editions.service';
import { deleteExpiredPositions, positionsRetentionJob } from './positions-retention';

const DAY = 24 * 3_600_000;
const day = (d: Date) => d.toISOString().slice(0, 10);

describe.each(DB_KINDS)('positions retention (%s)', (kind) => {
  const t = useTestApp(kind, 'admin');

  it('deletes the positions of editions that ended past the retention, and keeps the others', async () => {
    const db = t.database.db;
    const rider = await approvedRider(t.app, t.staff.admin);
    const now = new Date();
    const edition = async (name: string, endedDaysAgo: number | null) => {
      const ends = endedDaysAgo === null ? null : new Date(now.getTime() - endedDaysAgo * DAY);
      const [row] = await db
        .insert(editions)
        .values({
          name: `${name} ${randomUUID().slice(0, 6)}`,
          year: 2020,
          startsOn: ends ? day(new Date(ends.getTime() - 3 * DAY)) : null,
          endsOn: ends ? day(ends) : null,
        })
        .returning();
      if (!row) throw new Error('no edition');
      return row.id;
    };
    const longAgo = await edition('Ended 40 days ago', 40);
    const lately = await edition('Ended 10 days ago', 10);
    const undated = await edition('No end date', null);
    const current = (await currentEdition(db)).id;
    const ids = [longAgo, lately, undated, current];
    const at = (i: number) => new Date(now.getTime() - 41 * DAY + i * 60_000);
    await db
      .insert(positions)
      .values(
        ids.flatMap((editionId) =>
          [0, 1, 2].map((i) => ({ editionId, userId: rider.userId, at: at(i), lat: 8.1 + i / 100, lng: 125.1 })),
        ),
      );
    const countBy = async () => {
      const rows = await db
        .select({ editionId: positions.editionId })
        .from(positions)
        .where(inArray(positions.editionId, ids));
      return Object.fromEntries(ids.map((id) => [id, rows.filter((r) => r.editionId === id).length]));
    };

    // 30 days: only the edition that ended 40 days ago goes.
    const job = positionsRetentionJob(db, 30);
    const next = await job.run(now);
    expect(next?.getTime()).toBe(now.getTime() + DAY);
    expect(await countBy()).toEqual({ [longAgo]: 0, [lately]: 3, [undated]: 3, [current]: 3 });
    // Run again within the day: nothing to do, and nothing else goes.
    await job.run(new Date(now.getTime() + 60_000));
    expect(await countBy()).toEqual({ [longAgo]: 0, [lately]: 3, [undated]: 3, [current]: 3 });

    // A shorter retention reaches the edition that ended 10 days ago (its last day counts whole).
    expect(await deleteExpiredPositions(db, 9, now)).toBe(3);
    expect(await deleteExpiredPositions(db, 9, now)).toBe(0);
    expect(await countBy()).toEqual({ [longAgo]: 0, [lately]: 0, [undated]: 3, [current]: 3 });
    await db.delete(editions).where(inArray(editions.id, [longAgo, lately, undated]));
    expect((await db.select().from(positions).where(eq(positions.editionId, current))).length).toBe(3);
  });
});
