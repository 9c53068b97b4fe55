// System logs: one list over three tables (activities, verification_history,
// login_activities) as a UNION ALL in SQL, so filtering, ordering, paging and counting
// all happen in the database. Every value from the request goes in as a parameter.
import type { LogType } from '@rally/shared/catalog/console';
import type { LogStatsQuery, LogsQuery, LogTypeFilter } from '@rally/shared/contracts/logs';
import { type SQL, sql } from 'drizzle-orm';
import type { Db } from '../../db/client';
import { CURRENT_EDITION } from '../../lib/edition-of';
import { pageOf, totalRows } from '../../lib/pagination';
import { containsPattern, rowsOf } from '../../lib/sql-text';
import { visibleAccounts } from '../../lib/visibility';

// The rally runs in the Philippines (UTC+8, no daylight saving; RALLY_TIME_ZONE): "today" is a Manila day.
const MANILA_OFFSET_MS = 8 * 60 * 60 * 1000;
const DAY_MS = 24 * 60 * 60 * 1000;

/** Start of a date range relative to `now`: today (Manila midnight), the last 7 or 30 days. */
export function rangeStart(range: LogsQuery['dateRange'], now: Date): Date | null {
  switch (range) {
    case 'today': {
      const local = now.getTime() + MANILA_OFFSET_MS;
      return new Date(local - (local % DAY_MS) - MANILA_OFFSET_MS);
    }
    case 'week':
      return new Date(now.getTime() - 7 * DAY_MS);
    case 'month':
      return new Date(now.getTime() - 30 * DAY_MS);
    default:
      return null;
  }
}

// Each branch yields the same columns: id, log_type, user_id, user_name, user_email,
// user_role, description, details, location, log_timestamp.
const BRANCHES: Record<LogType, SQL> = {
  // The entry's user is its subject; entries without one (e.g. a cleanup) show the actor.
  activities: sql`
    select 'activities-' || a.id::text as id, 'activities'::text as log_type,
      coalesce(u.id, ua.id) as user_id,
      coalesce(u.first_name || ' ' || u.last_name, a.user_name, ua.first_name || ' ' || ua.last_name, a.actor_name) as user_name,
      coalesce(u.email, ua.email) as user_email,
      coalesce(u.role, ua.role)::text as user_role,
      a.description as description, a.details as details, a.location as location,
      a.created_at as log_timestamp
    from activities a
    left join users u on u.id = a.user_id
    left join users ua on ua.id = a.actor_id and a.user_id is null and a.user_name is null`,
  // The current edition's verifications, as the log always showed (a rollover used to empty
  // the history); a past edition's are read on its verification history (`?edition=`).
  verifications: sql`
    select 'verifications-' || vh.id::text as id, 'verifications'::text as log_type,
      vh.user_id as user_id,
      coalesce(u.first_name || ' ' || u.last_name, nullif(concat_ws(' ', vh.user_first_name, vh.user_last_name), '')) as user_name,
      u.email as user_email, u.role::text as user_role,
      (case vh.action when 'verified' then 'Payment verified' when 'rejected' then 'Payment rejected' else 'Verification undone' end)
        || coalesce(' for ' || coalesce(vh.kit_name, u.first_name || ' ' || u.last_name, nullif(concat_ws(' ', vh.user_first_name, vh.user_last_name), '')), '') as description,
      nullif(concat_ws(' · ', 'Code ' || vh.verification_code,
        'By ' || nullif(concat_ws(' ', vh.admin_first_name, vh.admin_last_name), ''),
        'Notes: ' || nullif(vh.notes, '')), '') as details,
      null::text as location,
      vh.created_at as log_timestamp
    from verification_history vh
    left join users u on u.id = vh.user_id
    where vh.edition_id = ${CURRENT_EDITION}`,
  // A failed attempt on an unknown email still names the email it tried.
  login_activities: sql`
    select 'login_activities-' || la.id::text as id, 'login_activities'::text as log_type,
      la.user_id as user_id,
      coalesce(u.first_name || ' ' || u.last_name, la.email) as user_name,
      coalesce(u.email, la.email) as user_email, u.role::text as user_role,
      (case when la.success then 'Successful login' else 'Failed login attempt' end) as description,
      nullif(concat_ws(' · ', case when not la.success then coalesce(nullif(la.failure_reason, ''), 'Failed') end, la.user_agent), '') as details,
      la.ip as location,
      la.created_at as log_timestamp
    from login_activities la
    left join users u on u.id = la.user_id`,
};

interface Filters {
  logType: LogTypeFilter;
  search?: string;
  dateRange: LogStatsQuery['dateRange'];
}

export interface Viewer {
  id: string;
  role: string;
}

/**
 * The union of the chosen sources with the filters applied, as a subquery `l`. The
 * visibility rules hold here too: entries about accounts the viewer may not see are
 * left out, except the viewer's own.
 */
function filteredLogs(filters: Filters, viewer: Viewer, now: Date): SQL {
  const types: LogType[] =
    filters.logType === 'all' ? ['activities', 'verifications', 'login_activities'] : [filters.logType];
  const union = sql.join(
    types.map((t) => BRANCHES[t]),
    sql` union all `,
  );
  const conditions: SQL[] = [];
  const start = rangeStart(filters.dateRange, now);
  if (start) conditions.push(sql`src.log_timestamp >= ${start.toISOString()}::timestamptz`);
  if (filters.dateRange !== 'all') conditions.push(sql`src.log_timestamp <= ${now.toISOString()}::timestamptz`);
  if (filters.search) {
    const p = containsPattern(filters.search);
    conditions.push(
      sql`(src.user_name ilike ${p} or src.user_email ilike ${p} or src.description ilike ${p} or src.details ilike ${p} or src.location ilike ${p})`,
    );
  }
  const visible = visibleAccounts(viewer.role, sql`src.user_role`, {
    orphans: true,
    self: { id: sql`src.user_id`, viewerId: viewer.id },
  });
  if (visible) conditions.push(visible);
  const where = conditions.length > 0 ? sql` where ${sql.join(conditions, sql` and `)}` : sql``;
  return sql`(select * from (${union}) src${where}) l`;
}

export interface LogRow {
  id: string;
  log_type: LogType;
  user_id: string | null;
  user_name: string | null;
  user_email: string | null;
  user_role: string | null;
  description: string;
  details: string | null;
  location: string | null;
  log_timestamp: Date | string;
}

export async function listLogs(db: Db, query: LogsQuery, viewer: Viewer, now: Date = new Date()) {
  const source = filteredLogs(query, viewer, now);
  const order = query.sortOrder === 'asc' ? sql`l.log_timestamp asc, l.id asc` : sql`l.log_timestamp desc, l.id desc`;
  return pageOf(
    async (limit, offset) =>
      rowsOf<LogRow & { total: number }>(
        await db.execute(
          sql`select l.*, ${totalRows} as total from ${source} order by ${order} limit ${limit} offset ${offset}`,
        ),
      ).map((row) => ({ ...row, total: Number(row.total) })),
    query,
  );
}

export async function logStats(db: Db, filters: LogStatsQuery, viewer: Viewer, now: Date = new Date()) {
  const result = await db.execute(
    sql`select l.log_type, count(*)::int as total from ${filteredLogs(filters, viewer, now)} group by l.log_type`,
  );
  const counts: Record<LogType, number> = { activities: 0, verifications: 0, login_activities: 0 };
  for (const row of rowsOf<{ log_type: LogType; total: number }>(result)) counts[row.log_type] = Number(row.total);
  return {
    total_logs: counts.activities + counts.verifications + counts.login_activities,
    activities: { total_activities: counts.activities },
    verifications: { total_verifications: counts.verifications },
    login_activities: { total_login_activities: counts.login_activities },
  };
}
