// Serialised answers of the hottest public reads (a rider's profile, the taken rider
// numbers), kept in the process so a registration rush or a shared profile link does not
// cost a database round trip per request.
//
// Correctness rests on a generation number rather than on knowing which write changes
// which answer: every state-changing request (and every operator command) bumps it when it
// finishes, which drops all answers at once, and an answer computed while a write was
// under way is never stored (its generation no longer matches). Writes by other server
// instances on the same PostgreSQL arrive as notifications (migration 0002's triggers);
// while that feed is down, every answer expires after `ttlMs`. An answer that itself names
// a moment it stops being true (a held rider number's release) ends then at the latest.
import type { FastifyInstance, FastifyReply, FastifyRequest } from 'fastify';
import fp from 'fastify-plugin';
import type { ListenHandlers } from '../db/listen';

interface Entry {
  json: string;
  generation: number;
  expiresAt: number;
}

/** A computed answer that stops being true at a known moment (ms, on the cache's clock). */
export interface ExpiringAnswer {
  json: string;
  expiresAt: number | null;
}

export interface AnswerCacheOptions {
  /** How long an answer may be served without a write in this process; bounds staleness across instances. */
  ttlMs: number;
  /** Upper bound on stored answers (one per profile id); the oldest are dropped first. */
  maxEntries: number;
  /**
   * Announcements of changes made by any writer of the database. While they arrive, answers
   * live `liveTtlMs` (a safety net); while they do not, `ttlMs`.
   */
  changeFeed?: { listen(handlers: ListenHandlers): () => Promise<void>; liveTtlMs: number };
}

export class AnswerCache {
  private generation = 0;
  private readonly entries = new Map<string, Entry>();
  // Concurrent misses for one key share one computation (a burst of 50 readers costs one query).
  private readonly inFlight = new Map<string, { generation: number; promise: Promise<string> }>();

  private ttlMs: number;
  private readonly now: () => number;

  /** `now`: the clock answers age by and `expiresAt` is on (the app's, so the test clock moves both). */
  constructor(private readonly options: Pick<AnswerCacheOptions, 'ttlMs' | 'maxEntries'> & { now?: () => number }) {
    this.ttlMs = options.ttlMs;
    this.now = options.now ?? Date.now;
  }

  /** A new lifetime for answers from now on; the stored ones are dropped (they may have missed a change). */
  setTtl(ttlMs: number): void {
    this.ttlMs = ttlMs;
    this.invalidate();
  }

  private readonly listeners = new Set<() => void>();

  /** Drops every stored answer; called after anything that may have changed state. */
  invalidate(): void {
    this.generation++;
    this.entries.clear();
    this.inFlight.clear();
    for (const fn of this.listeners) fn();
  }

  /** Runs `fn` on every invalidation, for answers kept elsewhere (the live tracker's); returns how to stop. */
  onInvalidate(fn: () => void): () => void {
    this.listeners.add(fn);
    return () => this.listeners.delete(fn);
  }

  /** How long answers stored now will live. */
  get currentTtlMs(): number {
    return this.ttlMs;
  }

  get size(): number {
    return this.entries.size;
  }

  /**
   * The stored JSON for `key`, or `compute()`'s (which must return the serialised answer,
   * with the moment it stops being true when it knows one). A computation that throws
   * stores nothing and rejects every caller waiting on it.
   */
  async get(key: string, compute: () => Promise<string | ExpiringAnswer>): Promise<string> {
    const now = this.now();
    const hit = this.entries.get(key);
    if (hit && hit.generation === this.generation && hit.expiresAt > now) return hit.json;
    const pending = this.inFlight.get(key);
    if (pending && pending.generation === this.generation) return pending.promise;

    const generation = this.generation;
    const promise = compute().then(
      (answer) => {
        this.settle(key, promise);
        const { json, expiresAt } = typeof answer === 'string' ? { json: answer, expiresAt: null } : answer;
        // A write finished while this was computed: the answer may predate it, so serve it
        // to the callers already waiting but keep nothing.
        if (generation === this.generation)
          this.store(key, {
            json,
            generation,
            expiresAt: Math.min(now + this.ttlMs, expiresAt ?? Number.POSITIVE_INFINITY),
          });
        return json;
      },
      (err: unknown) => {
        this.settle(key, promise);
        throw err;
      },
    );
    this.inFlight.set(key, { generation, promise });
    return promise;
  }

  private settle(key: string, promise: Promise<string>): void {
    if (this.inFlight.get(key)?.promise === promise) this.inFlight.delete(key);
  }

  private store(key: string, entry: Entry): void {
    this.entries.delete(key);
    if (this.entries.size >= this.options.maxEntries) {
      const oldest = this.entries.keys().next().value;
      if (oldest !== undefined) this.entries.delete(oldest);
    }
    this.entries.set(key, entry);
  }
}

/** Sends an already serialised JSON answer as it is (the schema checked it when it was made). */
export function sendJson(reply: FastifyReply, json: string): FastifyReply {
  return reply
    .type('application/json; charset=utf-8')
    .serializer((payload) => payload as string)
    .send(json);
}

declare module 'fastify' {
  interface FastifyInstance {
    answerCache: AnswerCache;
  }
}

const READ_METHODS = new Set(['GET', 'HEAD', 'OPTIONS']);

export const answerCachePlugin = fp(async (app: FastifyInstance, opts: AnswerCacheOptions) => {
  // The app's clock (decorated later, read at each call): a held number's release is on it.
  const cache = new AnswerCache({ ...opts, now: () => app.clock.now().getTime() });
  app.decorate('answerCache', cache);
  const feed = opts.changeFeed;
  if (feed) {
    const stop = feed.listen({
      onNotify: () => cache.invalidate(),
      onLive: (live) => cache.setTtl(live ? feed.liveTtlMs : opts.ttlMs),
    });
    app.addHook('onClose', async () => stop());
  }
  // A write's handler has committed by the time its answer is about to be sent (onSend), so
  // a client that reads right after seeing the answer never gets an older one; onResponse
  // catches writes whose client went away. A refused or failed write also drops the
  // answers, which costs one query, never a stale read.
  const drop = (request: FastifyRequest) => {
    if (!READ_METHODS.has(request.method)) cache.invalidate();
  };
  app.addHook('onSend', (request, _reply, payload, done) => {
    drop(request);
    done(null, payload);
  });
  app.addHook('onResponse', (request, _reply, done) => {
    drop(request);
    done();
  });
});
