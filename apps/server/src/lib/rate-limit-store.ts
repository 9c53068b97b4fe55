// The counts behind @fastify/rate-limit. The per-route limits that guard against abuse
// (registrations, uploads, reset links) are counted in the database, so several server
// instances on one PostgreSQL enforce one limit, not one each: a client spreading its
// requests over the instances behind the proxy gains nothing. The general per-minute
// ceiling on every API call stays in this process's memory by choice: a database write
// per request would cost more than the flood it stops, and a flood is the reverse proxy's
// to stop (docs/deploy.md); with N instances a client gets at most N times that ceiling.
// Page navigations have their own ceiling in memory, apart from the API's (app.ts).
import type { FastifyRateLimitStore } from '@fastify/rate-limit';
import { lt, sql } from 'drizzle-orm';
import type { Db, DbOrTx } from '../db/client';
import { rateLimitHits } from '../db/schema/rate-limits';

type Answer = (err: Error | null, result: { current: number; ttl: number }) => void;

/** Counts in this process: a fixed window per key, the oldest keys dropped past `max`. */
class MemoryCounts {
  private readonly windows = new Map<string, { hits: number; endsAt: number }>();
  constructor(private readonly maxKeys = 5000) {}

  incr(key: string, timeWindow: number): { current: number; ttl: number } {
    const now = Date.now();
    let entry = this.windows.get(key);
    if (!entry || entry.endsAt <= now) {
      entry = { hits: 0, endsAt: now + timeWindow };
      this.windows.delete(key);
      if (this.windows.size >= this.maxKeys) {
        const oldest = this.windows.keys().next().value;
        if (oldest !== undefined) this.windows.delete(oldest);
      }
      this.windows.set(key, entry);
    }
    entry.hits++;
    return { current: entry.hits, ttl: entry.endsAt - now };
  }
}

/** How often this process sweeps ended windows out of the table. */
const SWEEP_EVERY_MS = 10 * 60_000;
const lastSweep = new WeakMap<Db, number>();

function sweep(db: Db): void {
  const now = Date.now();
  if (now - (lastSweep.get(db) ?? 0) < SWEEP_EVERY_MS) return;
  lastSweep.set(db, now);
  // Ended windows are dead weight; whichever instance sweeps first does it for all.
  void db
    .delete(rateLimitHits)
    .where(lt(rateLimitHits.windowEnds, sql`now()`))
    .catch(() => {});
}

/**
 * The one statement that counts a hit of `key` in its window of `windowMs` (opened by the first
 * hit, a new one once it ended). The row lock of the upsert orders concurrent hits of one key
 * on any instance, so each gets its own count and none overshoots a limit. With `max`, a hit
 * past it is not counted and returns no row.
 */
async function hit(db: DbOrTx, key: string, windowMs: number, max?: number) {
  const result = (await db.execute(sql`
    insert into ${rateLimitHits} as h (key, hits, window_ends)
    values (${key}, 1, now() + ${windowMs} * interval '1 millisecond')
    on conflict (key) do update set
      hits = case when h.window_ends <= now() then 1 else h.hits + 1 end,
      window_ends = case when h.window_ends <= now() then excluded.window_ends else h.window_ends end
      ${max === undefined ? sql`` : sql`where h.window_ends <= now() or h.hits < ${max}`}
    returning hits, greatest(0, ceil(extract(epoch from (window_ends - now())) * 1000))::int as ttl`)) as unknown as {
    rows: { hits: number; ttl: number }[];
  };
  return result.rows[0];
}

/**
 * Counts one hit of `key` in a window of `timeWindow` ms shared by every instance on the
 * database: the route limits below, and the registrations per address that decide when a
 * proof-of-work challenge is asked (modules/registration).
 */
export async function countHit(db: Db, key: string, timeWindow: number): Promise<{ current: number; ttl: number }> {
  const row = await hit(db, key, timeWindow);
  if (!row) throw new Error('rate limit count returned no row');
  sweep(db);
  return { current: Number(row.hits), ttl: Number(row.ttl) };
}

/**
 * Takes one of `max` uses of `key` in a window of `windowMs`: true when taken, false when the
 * window's uses are all spent (nothing counted then). Inside a transaction, rolled back with
 * it. The SMS line's wrong PINs and replies per number (modules/sms-inbound).
 */
export async function takeSlot(db: DbOrTx, key: string, max: number, windowMs: number): Promise<boolean> {
  return (await hit(db, key, windowMs, max)) !== undefined;
}

/** The requests `key` has counted in its window still running (0 when none runs): a look, never a hit. */
export async function currentHits(db: Db, key: string): Promise<number> {
  const result = (await db.execute(
    sql`select hits from ${rateLimitHits} where key = ${key} and window_ends > now()`,
  )) as unknown as { rows: { hits: number }[] };
  return Number(result.rows[0]?.hits ?? 0);
}

/**
 * Marks `key` as used until `until`: true the first time, false for every later claim on
 * any instance while it lasts. A limit of one use per window, in the same table: a solved
 * proof-of-work challenge is spent this way (lib/proof-of-work.ts), and its row is swept
 * with the ended windows once the challenge has expired anyway.
 */
export async function claimOnce(db: Db, key: string, until: Date): Promise<boolean> {
  const result = (await db.execute(sql`
    insert into ${rateLimitHits} as h (key, hits, window_ends)
    values (${key}, 1, ${until.toISOString()}::timestamptz)
    on conflict (key) do update set hits = 1, window_ends = excluded.window_ends
      where h.window_ends <= now()
    returning hits`)) as unknown as { rows: unknown[] };
  sweep(db);
  return result.rows.length === 1;
}

/** One route's counts in the database; the row's key names the route and the client. */
class DatabaseCounts implements FastifyRateLimitStore {
  constructor(
    private readonly db: Db,
    private readonly route: string,
  ) {}

  incr(key: string, answer: Answer, timeWindow: number): void {
    countHit(this.db, `${this.route} ${key}`, timeWindow).then(
      (result) => answer(null, result),
      (err: Error) => answer(err, { current: 0, ttl: 0 }),
    );
  }

  child(): FastifyRateLimitStore {
    return this;
  }
}

/** A limit counted in this process's memory, for every route that shares it. */
class MemoryStore implements FastifyRateLimitStore {
  private readonly memory = new MemoryCounts();

  incr(key: string, answer: Answer, timeWindow: number): void {
    answer(null, this.memory.incr(key, timeWindow));
  }

  child(): FastifyRateLimitStore {
    return this;
  }
}

/**
 * The `groupId` of the page limit (app.ts): its routes share one count per address, kept in
 * memory like the API's general ceiling, and apart from it.
 */
export const PAGE_LIMIT_GROUP = 'pages';

/** The plugin hands child() the route's merged limit options, the route under `routeInfo`. */
function routeName(options: unknown): string {
  const info = (options as { routeInfo?: { method?: string | string[]; url?: string } }).routeInfo ?? {};
  const method = Array.isArray(info.method) ? info.method.join(',') : (info.method ?? '');
  return `${method} ${info.url ?? ''}`.trim();
}

/**
 * The store class for @fastify/rate-limit's `store` option: the global limit in memory, the
 * page limit in memory apart from it, every other route's own limit (`config.rateLimit`) in
 * the database named here.
 */
export function rateLimitStore(db: Db) {
  return class GlobalCounts implements FastifyRateLimitStore {
    private readonly memory = new MemoryCounts();
    private readonly pages = new MemoryStore();

    incr(key: string, answer: Answer, timeWindow: number): void {
      answer(null, this.memory.incr(key, timeWindow));
    }

    child(options: unknown): FastifyRateLimitStore {
      if ((options as { groupId?: string }).groupId === PAGE_LIMIT_GROUP) return this.pages;
      return new DatabaseCounts(db, routeName(options));
    }
  };
}
