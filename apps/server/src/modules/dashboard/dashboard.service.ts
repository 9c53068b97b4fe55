import type { DashboardStats } from '@rally/shared/contracts/dashboard';
import { sql } from 'drizzle-orm';
import type { Db } from '../../db/client';
import { entries } from '../../db/schema/entries';
import { fires } from '../../db/schema/social';
import { users } from '../../db/schema/users';
import type { EditionRead } from '../../lib/edition-of';
import { enteredRiderIn, entryIn } from '../../lib/riders';
import { onlyRow } from '../../lib/sql-text';

/**
 * The four dashboard counters in one query (definitions in contracts/dashboard.ts), over the
 * riders of `edition` (the current one when undefined). Fires are the install's, not an edition's.
 */
export async function dashboardStats(db: Db, edition?: EditionRead): Promise<DashboardStats> {
  const rider = enteredRiderIn(edition);
  return onlyRow(
    await db
      .select({
        total_warriors: sql<number>`count(*) filter (where ${rider})`.mapWith(Number),
        active_users: sql<number>`count(*) filter (where ${rider} and ${users.status} = 'active')`.mapWith(Number),
        bagani_warriors:
          sql<number>`count(*) filter (where ${rider} and ${entries.category} in ('bagani', 'bagani-obr'))`.mapWith(
            Number,
          ),
        total_fires: sql<number>`(select count(*)::int from ${fires})`.mapWith(Number),
      })
      .from(users)
      // The category is the entry's: at most one per user in `edition`, so counts hold.
      .leftJoin(entries, entryIn(edition)),
  );
}
