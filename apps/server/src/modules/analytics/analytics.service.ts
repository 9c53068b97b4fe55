// The Analytics tab's figures, each counted by the database (GROUP BY, percentile_cont) so
// the answer costs a handful of small aggregates however many riders registered. Every
// query covers the same riders: the riders of the edition read (the current one, or the
// past one a staff read passes as `edition`) the viewer may see, by the console's
// visibility rule. Filling in zero lines and ordering is the presenter's job.
import type { Role } from '@rally/shared/catalog/accounts';
import { RALLY_ROUTE_IDS, RALLY_TIME_ZONE, type RallyRouteId, routeForCategory } from '@rally/shared/catalog/event-day';
import { CATEGORIES } from '@rally/shared/catalog/registration';
import { and, eq, type SQL, type SQLWrapper, sql } from 'drizzle-orm';
import type { Db } from '../../db/client';
import { editions } from '../../db/schema/editions';
import { entries } from '../../db/schema/entries';
import { files } from '../../db/schema/files';
import { users } from '../../db/schema/users';
import { type EditionRead, editionSql } from '../../lib/edition-of';
import { enteredRiderIn, entryIn, isRiderEntry } from '../../lib/riders';
import { onlyRow } from '../../lib/sql-text';
import { visibleAccounts } from '../../lib/visibility';

export interface Counted<K> {
  key: K;
  riders: number;
}
export interface SizeCount {
  size: string | null;
  /** Upper-cased, spaces collapsed: custom sizes that differ only in spelling count together. */
  customKey: string | null;
  /** One rider's spelling of the custom size, spaces collapsed. */
  customText: string | null;
  riders: number;
}
export interface AnalyticsCounts {
  status: { riders: number; verified: number; pending: number; rejected: number };
  days: Counted<string>[];
  /** The edition before the one read and its entries per day, when there was one (DESIGN.md §9). */
  previous: { edition: string; current: string; days: Counted<string>[] } | null;
  categories: Counted<string | null>[];
  routes: Counted<string | null>[];
  clubs: Counted<string | null>[];
  paymentMethods: Counted<string | null>[];
  sizes: { tshirt: SizeCount[]; finisher_sleeve: SizeCount[]; vest: SizeCount[] };
  turnaround: { verified: number; median: number | null; p90: number | null };
}

const riders = sql<number>`count(*)`.mapWith(Number);
// Positional GROUP BY: an expression holding bound parameters would be a different
// expression each time drizzle writes it, so "group by <expression>" would not match.
const byFirst = sql`1`;
const status = sql<string>`coalesce(${entries.status}::text, 'pending')`;
const tidy = (column: SQLWrapper) => sql`regexp_replace(trim(${column}), '\\s+', ' ', 'g')`;

/** The route of a category, in SQL, from the catalog's own rule. */
const routeOf = sql<RallyRouteId | null>`case ${sql.join(
  RALLY_ROUTE_IDS.map(
    (route) =>
      sql`when ${entries.category}::text in (${sql.join(
        CATEGORIES.filter((c) => routeForCategory(c) === route).map((c) => sql.raw(`'${c}'`)),
        sql`, `,
      )}) then '${sql.raw(route)}'`,
  ),
  sql` `,
)} end`;

/** The figures of `edition` (the current one when undefined); `previous` is the edition before it. */
export async function analyticsCounts(db: Db, viewerRole: Role, edition?: EditionRead): Promise<AnalyticsCounts> {
  const scope = and(enteredRiderIn(edition), visibleAccounts(viewerRole, users.role));
  // Each rider's entry in `edition`: at most one per user, so every count holds.
  const entryOfEdition = entryIn(edition);
  const totals = onlyRow(
    await db
      .select({
        riders,
        verified: sql<number>`count(*) filter (where ${status} = 'verified')`.mapWith(Number),
        pending: sql<number>`count(*) filter (where ${status} = 'pending')`.mapWith(Number),
        rejected: sql<number>`count(*) filter (where ${status} = 'rejected')`.mapWith(Number),
      })
      .from(users)
      .leftJoin(entries, entryOfEdition)
      .where(scope),
  );

  const grouped = async <K>(key: SQL<K>): Promise<Counted<K>[]> =>
    db.select({ key, riders }).from(users).leftJoin(entries, entryOfEdition).where(scope).groupBy(byFirst);

  // A rider entered the day their entry was made (a returning rider's account is older); an
  // account made without registering, the day it was made.
  const entered = sql`coalesce(${entries.createdAt}, ${users.createdAt})`;
  const days = await grouped(
    sql<string>`to_char(${entered} at time zone ${sql.raw(`'${RALLY_TIME_ZONE}'`)}, 'YYYY-MM-DD')`,
  );
  const previous = await previousEditionDays(db, edition);
  const categories = await grouped(sql<string | null>`${entries.category}::text`);
  const routes = await grouped(routeOf);
  const paymentMethods = await grouped(sql<string | null>`${entries.paymentMethod}::text`);
  const clubs = await db
    .select({
      key: sql<string | null>`min(nullif(${tidy(users.clubName)}, ''))`,
      riders,
    })
    .from(users)
    .where(scope)
    .groupBy(sql`upper(nullif(${tidy(users.clubName)}, ''))`);

  // Sizes: the verified riders, who are the ones given a kit.
  const kitScope = and(scope, eq(entries.status, 'verified'));
  const sizeCounts = (size: SQLWrapper, custom: SQLWrapper): Promise<SizeCount[]> =>
    db
      .select({
        size: sql<string | null>`${size}`,
        customKey: sql<string | null>`case when ${size} = 'CUSTOM' then upper(coalesce(${tidy(custom)}, '')) end`,
        customText: sql<string | null>`min(case when ${size} = 'CUSTOM' then ${tidy(custom)} end)`,
        riders,
      })
      .from(users)
      .innerJoin(entries, entryOfEdition)
      .where(kitScope)
      .groupBy(sql`1, 2`);
  const sizes = {
    tshirt: await sizeCounts(entries.tshirtSize, entries.customTshirtSize),
    finisher_sleeve: await sizeCounts(entries.finisherSleeveSize, entries.customFinisherSleeveSize),
    vest: await sizeCounts(entries.vestSize, entries.customVestSize),
  };

  // The clock starts at registration, or at the receipt a rider uploaded later (after a
  // rejection, say) as long as it came before the decision. The latest such receipt, as one
  // value: a rider keeps every receipt they sent (last year's and a resubmitted one), and a
  // join would count them once per receipt.
  const started = sql`greatest(${entries.createdAt}, (select max(f.created_at) from ${files} f
    where f.user_id = ${users.id} and f.kind = 'payment_receipt' and f.created_at <= ${entries.verifiedAt}))`;
  const seconds = sql`extract(epoch from (${entries.verifiedAt} - ${started}))::float8`;
  const turnaround = onlyRow(
    await db
      .select({
        verified: riders,
        median: sql<number | null>`percentile_cont(0.5) within group (order by ${seconds})`,
        p90: sql<number | null>`percentile_cont(0.9) within group (order by ${seconds})`,
      })
      .from(users)
      .innerJoin(entries, entryOfEdition)
      .where(and(kitScope, sql`${entries.verifiedAt} is not null`)),
  );

  return {
    status: totals,
    days,
    previous,
    categories,
    routes,
    clubs,
    paymentMethods,
    sizes,
    turnaround: {
      verified: turnaround.verified,
      median: turnaround.median === null ? null : Number(turnaround.median),
      p90: turnaround.p90 === null ? null : Number(turnaround.p90),
    },
  };
}

/** The last edition before `edition` (the current one when undefined), and its entries per Manila day. */
async function previousEditionDays(db: Db, edition?: EditionRead): Promise<AnalyticsCounts['previous']> {
  const [pair] = await db
    .select({ previousId: sql<string>`prev.id`, previous: sql<string>`prev.name`, current: editions.name })
    .from(editions)
    .innerJoin(
      sql`${editions} prev`,
      sql`prev.closed_at is not null and (${editions.closedAt} is null or prev.closed_at < ${editions.closedAt})`,
    )
    .where(eq(editions.id, editionSql(edition)))
    .orderBy(sql`prev.closed_at desc`)
    .limit(1);
  if (!pair) return null;
  const days = await db
    .select({
      key: sql<string>`to_char(${entries.createdAt} at time zone ${sql.raw(`'${RALLY_TIME_ZONE}'`)}, 'YYYY-MM-DD')`,
      riders,
    })
    .from(entries)
    .innerJoin(users, eq(users.id, entries.userId))
    .where(and(eq(entries.editionId, pair.previousId), isRiderEntry))
    .groupBy(byFirst);
  return { edition: pair.previous, current: pair.current, days };
}
