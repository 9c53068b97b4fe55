// The counts behind @fastify/rate-limit. The per-route limits that guard against abuse
// (registrations, uploads, reset links) are counted in the database, so several server
// instances on one PostgreSQL enforce one limit, not one each: a client spreading its
// requests over the instances behind the proxy gains nothing. The general per-minute
// ceiling on every API call stays in this process's memory by choice: a database write
// per request would cost more than the flood it stops, and a flood is the reverse proxy's
// to stop (docs/deploy.md); with N instances a client gets at most N times that ceiling.
import type { FastifyRateLimitStore } from '@fastify/rate-limit';
import { lt, sql } from 'drizzle-orm';
import type { Db } from '../db/client';
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

/** One route's counts in the database; the row's key names the route and the client. */
class DatabaseCounts implements FastifyRateLimitStore {
  private lastSweep = 0;
  constructor(
    private readonly db: Db,
    private readonly route: string,
  ) {}

  incr(key: string, answer: Answer, timeWindow: number): void {
    this.count(`${this.route} ${key}`, timeWindow).then(
      (result) => answer(null, result),
      (err: Error) => answer(err, { current: 0, ttl: 0 }),
    );
  }

  private async count(key: string, timeWindow: number) {
    // One statement: the row lock of the upsert orders concurrent requests of one client on
    // any instance, so each gets its own count and none overshoots the limit.
    const result = (await this.db.execute(sql`
      insert into ${rateLimitHits} as h (key, hits, window_ends)
      values (${key}, 1, now() + ${timeWindow} * interval '1 millisecond')
      on conflict (key) do update set
        hits = case when h.window_ends <= now() then 1 else h.hits + 1 end,
        window_ends = case when h.window_ends <= now() then excluded.window_ends else h.window_ends end
      returning hits, greatest(0, ceil(extract(epoch from (window_ends - now())) * 1000))::int as ttl`)) as unknown as {
      rows: { hits: number; ttl: number }[];
    };
    const row = result.rows[0];
    if (!row) throw new Error('rate limit count returned no row');
    this.sweep();
    return { current: Number(row.hits), ttl: Number(row.ttl) };
  }

  private sweep(): void {
    const now = Date.now();
    if (now - this.lastSweep < SWEEP_EVERY_MS) return;
    this.lastSweep = now;
    // Ended windows are dead weight; whichever instance sweeps first does it for all.
    void this.db
      .delete(rateLimitHits)
      .where(lt(rateLimitHits.windowEnds, sql`now()`))
      .catch(() => {});
  }

  child(): FastifyRateLimitStore {
    return this;
  }
}

/** The plugin hands child() the route's merged limit options, the route under `routeInfo`. */
function routeName(options: unknown): string {
  const info = (options as { routeInfo?: { method?: string | string[]; url?: string } }).routeInfo ?? {};
  const method = Array.isArray(info.method) ? info.method.join(',') : (info.method ?? '');
  return `${method} ${info.url ?? ''}`.trim();
}

/**
 * The store class for @fastify/rate-limit's `store` option: the global limit in memory,
 * every route's own limit (`config.rateLimit`) in the database named here.
 */
export function rateLimitStore(db: Db) {
  return class GlobalCounts implements FastifyRateLimitStore {
    private readonly memory = new MemoryCounts();

    incr(key: string, answer: Answer, timeWindow: number): void {
      answer(null, this.memory.incr(key, timeWindow));
    }

    child(options: unknown): FastifyRateLimitStore {
      return new DatabaseCounts(db, routeName(options));
    }
  };
}
