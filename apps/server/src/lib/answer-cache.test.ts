import { setTimeout as sleep } from 'node:timers/promises';
import type { FastifyInstance } from 'fastify';
import pg from 'pg';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { buildApp } from '../app';
import { type Database, openDatabase } from '../db/client';
import { buildTestApp, DB_KINDS, type TestApp, useTestApp } from '../test/build-app';
import { approvedRider, bearer, registerRider } from '../test/factories';
import { AnswerCache } from './answer-cache';

function deferred<T>() {
  let resolve!: (v: T) => void;
  let reject!: (e: unknown) => void;
  const promise = new Promise<T>((res, rej) => {
    resolve = res;
    reject = rej;
  });
  return { promise, resolve, reject };
}

describe('AnswerCache', () => {
  it('computes once and serves the stored answer until it expires', async () => {
    const cache = new AnswerCache({ ttlMs: 40, maxEntries: 10 });
    let calls = 0;
    const compute = async () => `{"n":${++calls}}`;
    expect(await cache.get('k', compute)).toBe('{"n":1}');
    expect(await cache.get('k', compute)).toBe('{"n":1}');
    await new Promise((r) => setTimeout(r, 60));
    expect(await cache.get('k', compute)).toBe('{"n":2}');
    expect(calls).toBe(2);
  });

  it('shares one computation between concurrent misses of the same key', async () => {
    const cache = new AnswerCache({ ttlMs: 1000, maxEntries: 10 });
    const gate = deferred<string>();
    let calls = 0;
    const compute = () => {
      calls++;
      return gate.promise;
    };
    const answers = Promise.all(Array.from({ length: 20 }, () => cache.get('k', compute)));
    gate.resolve('"shared"');
    expect(await answers).toEqual(Array(20).fill('"shared"'));
    expect(calls).toBe(1);
  });

  it('drops every answer on invalidate', async () => {
    const cache = new AnswerCache({ ttlMs: 60_000, maxEntries: 10 });
    await cache.get('a', async () => '1');
    await cache.get('b', async () => '2');
    cache.invalidate();
    expect(cache.size).toBe(0);
    expect(await cache.get('a', async () => '3')).toBe('3');
  });

  it('never stores an answer computed while a write finished', async () => {
    const cache = new AnswerCache({ ttlMs: 60_000, maxEntries: 10 });
    const gate = deferred<string>();
    const before = cache.get('k', () => gate.promise);
    cache.invalidate(); // a write commits while the read is under way
    // A read after the write does not join the older computation.
    const after = cache.get('k', async () => '"new"');
    gate.resolve('"old"');
    expect(await before).toBe('"old"');
    expect(await after).toBe('"new"');
    expect(await cache.get('k', async () => '"newer"')).toBe('"new"');
  });

  it('stores nothing when the computation fails, and every waiter sees the error', async () => {
    const cache = new AnswerCache({ ttlMs: 60_000, maxEntries: 10 });
    const gate = deferred<string>();
    const waiters = [cache.get('k', () => gate.promise), cache.get('k', () => gate.promise)];
    gate.reject(new Error('database went away'));
    for (const w of waiters) await expect(w).rejects.toThrow('database went away');
    expect(cache.size).toBe(0);
    expect(await cache.get('k', async () => '"ok"')).toBe('"ok"');
  });

  it('keeps at most maxEntries answers, dropping the oldest', async () => {
    const cache = new AnswerCache({ ttlMs: 60_000, maxEntries: 3 });
    for (const k of ['a', 'b', 'c', 'd']) await cache.get(k, async () => `"${k}"`);
    expect(cache.size).toBe(3);
    expect(await cache.get('a', async () => '"a2"')).toBe('"a2"');
    expect(await cache.get('d', async () => '"d2"')).toBe('"d"');
  });
});

// The cached public reads must never show a rider an answer older than a write they saw finish.
describe.each(DB_KINDS)('cached public reads follow every write at once (%s)', (kind) => {
  const t = useTestApp(kind, 'admin');
  const { admin } = t.staff;

  const profile = async (id: string) => {
    const res = await t.app.inject({ method: 'GET', url: `/api/users/${id}/profile` });
    return { status: res.statusCode, body: res.json(), type: res.headers['content-type'] };
  };
  const taken = async () => {
    const res = await t.app.inject({ method: 'GET', url: '/api/rider-numbers/taken' });
    expect(res.statusCode).toBe(200);
    expect(res.headers['content-type']).toMatch(/^application\/json/);
    expect(res.headers['cache-control']).toBe('no-store');
    return res.json().data.takenNumbers as number[];
  };

  it('answers the same JSON as before caching, and reflects fire, edits and deactivation immediately', async () => {
    const rider = await approvedRider(t.app, admin, { kitName: 'BAGYO' });
    const fan = await approvedRider(t.app, admin);
    const first = await profile(rider.userId);
    expect(first.status).toBe(200);
    expect(first.type).toMatch(/^application\/json/);
    expect(first.body).toMatchObject({
      success: true,
      data: { id: rider.userId, kitName: 'BAGYO', stats: { fires: 0 } },
    });
    expect((await profile(rider.userId)).body).toEqual(first.body);

    const fire = await t.app.inject({
      method: 'POST',
      url: `/api/users/${rider.userId}/fire`,
      headers: bearer(fan.token),
    });
    expect(fire.statusCode).toBe(200);
    expect((await profile(rider.userId)).body.data.stats.fires).toBe(1);

    const comment = await t.app.inject({
      method: 'POST',
      url: `/api/users/${rider.userId}/comments`,
      headers: bearer(fan.token),
      payload: { comment: 'Ride safe, warrior!' },
    });
    expect(comment.statusCode).toBe(201);
    expect((await profile(rider.userId)).body.data.stats.comments).toBe(1);

    const status = await t.app.inject({
      method: 'PATCH',
      url: `/api/admin/users/${rider.userId}/status`,
      headers: bearer(admin.token),
      payload: { status: 'inactive' },
    });
    expect(status.statusCode).toBe(200);
    const gone = await profile(rider.userId);
    expect(gone.status).toBe(404);
    expect(gone.body).toMatchObject({ success: false, code: 'USER_NOT_FOUND' });
  });

  it('lists a number as taken as soon as its registration answers', async () => {
    const before = await taken();
    expect(await taken()).toEqual(before);
    const free = Array.from({ length: 1000 }, (_, i) => i + 1).find((n) => !before.includes(n)) as number;
    const rider = await registerRider(t.app, { riderNumber: String(free) });
    expect(rider.riderNumber).toBe(free);
    const after = await taken();
    expect(after).toContain(free);
    expect(after).toEqual([...after].sort((x, y) => x - y));
  });

  it('does not cache refusals: an unknown profile answers 404 every time', async () => {
    const missing = '00000000-0000-4000-8000-000000000000';
    expect((await profile(missing)).status).toBe(404);
    expect((await profile(missing)).status).toBe(404);
    expect((await profile('not-a-uuid')).body).toMatchObject({ success: false, code: 'USER_NOT_FOUND' });
  });
});

// Two server instances on one PostgreSQL: a change made through one (or by anything else
// writing the database) reaches the other's cached answers through the change feed, well
// inside the 1 s the answers would otherwise live.
describe.skipIf(!process.env.TEST_DATABASE_URL)('cached public reads across server instances (postgres)', () => {
  let a: TestApp;
  let b: FastifyInstance;
  let bDatabase: Database;
  let sql: pg.Client;

  const live = async (app: FastifyInstance) => {
    for (let i = 0; i < 100 && app.answerCache.currentTtlMs !== 60_000; i++) await sleep(50);
    expect(app.answerCache.currentTtlMs).toBe(60_000);
  };
  const takenOn = async (app: FastifyInstance) =>
    (await app.inject({ method: 'GET', url: '/api/rider-numbers/taken' })).json().data.takenNumbers as number[];
  /** Reads until `ok` holds, for at most `ms`; the time it took. */
  const within = async (ms: number, read: () => Promise<boolean>) => {
    const t0 = performance.now();
    while (!(await read())) {
      if (performance.now() - t0 > ms) throw new Error(`not seen within ${ms} ms`);
      await sleep(20);
    }
    return performance.now() - t0;
  };

  beforeAll(async () => {
    a = await buildTestApp('postgres');
    bDatabase = await openDatabase({ databaseUrl: a.databaseUrl, poolSize: 5 });
    b = await buildApp({ config: a.config, database: bDatabase, logger: false });
    await b.ready();
    sql = new pg.Client({ connectionString: a.databaseUrl });
    await sql.connect();
  });
  afterAll(async () => {
    await sql?.end();
    await b?.close();
    await bDatabase?.close();
    await a?.close();
  });

  it('shows a registration made through another instance within moments, not after the answers expire', async () => {
    await live(b);
    const before = await takenOn(b);
    const rider = await registerRider(a.app);
    expect(before).not.toContain(rider.riderNumber);
    expect(await within(500, async () => (await takenOn(b)).includes(rider.riderNumber))).toBeLessThan(500);
  });

  it('follows a change made outside any server (psql) as well', async () => {
    await live(b);
    const rider = await registerRider(a.app);
    const read = async () =>
      (await b.inject({ method: 'GET', url: `/api/users/${rider.userId}/profile` })).json().data.kitName as string;
    await read();
    await sql.query(`update users set kit_name = 'MAKIISA' where id = $1`, [rider.userId]);
    await within(500, async () => (await read()) === 'MAKIISA');
  });

  it('falls back to 1 s answers while the feed is down, and listens again by itself', async () => {
    await live(b);
    // The listening connections: their last statement is the LISTEN, or the ping it sends every
    // 10 s once it has listened that long (db/listen.ts; nothing else sends `select 1`). A test
    // before this one that took 10 s (a loaded machine) left the ping there, and only the
    // LISTEN was matched: nothing was cut, and the answers kept their 60 s.
    await sql.query(
      `select pg_terminate_backend(pid) from pg_stat_activity
        where query in ('LISTEN rally_answers', 'select 1') and datname = current_database()
          and pid <> pg_backend_pid()`,
    );
    await within(2000, async () => b.answerCache.currentTtlMs === 1000);
    await live(b);
  });
});
