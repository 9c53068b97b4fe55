// Past editions, read through the very handlers that read the current one (DESIGN.md §9).
//
// Every entry-scoped table holds every edition's rows, each with its `edition_id`, and every
// query names the edition it reads (`current_edition_id()`, lib/edition-of.ts). A staff read
// with `?edition=ID` of a past edition runs its route's handler inside one transaction that
// names that edition (`rally.edition`): the queries read its rows, and `currentEdition`
// answers with it (its name, dates and hotline). Nothing is materialised.
//
// The handle the routes hold is a proxy that, inside such a read, hands out that
// transaction (AsyncLocalStorage), so no service needs to know editions exist.
import { AsyncLocalStorage } from 'node:async_hooks';
import { eq, sql } from 'drizzle-orm';
import type { FastifyInstance, FastifyRequest, RouteOptions } from 'fastify';
import { z } from 'zod';
import type { Db, Tx } from '../db/client';
import { editions } from '../db/schema/editions';
import { BadRequestError, ConflictError, NotFoundError } from './errors';

interface Scope {
  tx: Tx;
  open: boolean;
}
const scope = new AsyncLocalStorage<Scope>();
const RAW = Symbol('raw database handle');

/**
 * The handle routes are given: the database itself, except inside `inPastEdition`, where
 * it is that read's transaction over the past edition's tables.
 */
export function editionScopedDb(db: Db): Db {
  return new Proxy(db, {
    get(target, prop) {
      if (prop === RAW) return target;
      const current = scope.getStore();
      const base: object = current?.open ? current.tx : target;
      const value = Reflect.get(base, prop, base);
      // Methods run on the handle they came from; the constructor stays itself (Drizzle's `is`).
      return typeof value === 'function' && prop !== 'constructor' ? value.bind(base) : value;
    },
  });
}

/** The database behind a scoped handle (caches keyed per database key on it). */
export function rawDb(db: Db): Db {
  return ((db as unknown as Record<symbol, Db | undefined>)[RAW] ?? db) as Db;
}

/**
 * Makes `editionId` the edition read in `tx`: the one `current_edition_id()` names, so every
 * entry-scoped query reads it and `currentEdition` answers with it (its name, dates, hotline).
 */
export async function nameEdition(tx: Tx, editionId: string): Promise<void> {
  await tx.execute(sql`select set_config('rally.edition', ${editionId}, true)`);
}

/** Runs `read` over the past edition `editionId`, in one transaction (the setting lasts as long as it). */
export async function inPastEdition<T>(db: Db, editionId: string, read: () => Promise<T>): Promise<T> {
  return rawDb(db).transaction(async (tx) => {
    await nameEdition(tx, editionId);
    const state: Scope = { tx, open: true };
    try {
      return await scope.run(state, read);
    } finally {
      // Work the read started and left behind must not use a finished transaction.
      state.open = false;
    }
  });
}

declare module 'fastify' {
  interface FastifyContextConfig {
    /** false: the route serves the current edition only (`?edition=` of a past one is refused). */
    pastEditions?: boolean;
  }
}

const UUID = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/i;
const pastEditionOf = new WeakMap<FastifyRequest, string>();

/**
 * `?edition=ID` on the staff API (`/api/admin/...`): a GET of a past edition runs its
 * handler over that edition's rows; naming the current one changes nothing; a write
 * naming a past one is refused (history is read-only). The parameter is taken off the
 * query before the route's own schema sees it. Routes with `config.pastEditions: false`
 * (a live stream) refuse it.
 */
export function readPastEditions(api: FastifyInstance, db: Db): void {
  api.addHook('preValidation', async (request) => {
    if (!request.url.startsWith('/api/admin/')) return;
    const query = request.query as Record<string, unknown> | undefined;
    const asked = query?.edition;
    if (asked === undefined) return;
    delete query?.edition;
    if (typeof asked !== 'string' || !UUID.test(asked)) throw new BadRequestError('edition must be an edition id');
    const [row] = await rawDb(db)
      .select({ id: editions.id, name: editions.name, current: editions.current })
      .from(editions)
      .where(eq(editions.id, asked))
      .limit(1);
    if (!row) throw new NotFoundError('Edition not found', 'EDITION_NOT_FOUND');
    if (row.current) return;
    if (request.method !== 'GET' || request.routeOptions.config.pastEditions === false)
      throw new ConflictError(`${row.name} is a past edition: its history is read-only`, 'EDITION_READ_ONLY');
    pastEditionOf.set(request, row.id);
  });
  api.addHook('onRoute', (route: RouteOptions) => {
    const handler = route.handler;
    route.handler = function pastOrCurrent(this: FastifyInstance, request, reply) {
      const past = pastEditionOf.get(request);
      if (past === undefined) return handler.call(this, request, reply);
      return inPastEdition(db, past, async () => handler.call(this, request, reply));
    };
  });
}

const editionId = z.uuid();

/**
 * Logs, login activities and the activity feed are the install's, not an edition's
 * (DESIGN.md §9): a read naming a past edition answers as one naming none, from today's
 * tables and today's roles, never as that edition's (the staff API would run it as a read of
 * that edition, above, and the log's verification history would be that edition's). So
 * `?edition=` of a known edition is taken off a GET here, before that hook sees it; anything
 * else it names (not an id, an unknown edition, a write) is left to that hook to refuse, as
 * on every other staff route. Registered by the plugins of logs, login activities and the activity feed, given the raw handle.
 */
export function readsTheInstall(app: FastifyInstance, db: Db): void {
  // onRequest: before the staff API's preValidation hook, whichever context holds it.
  app.addHook('onRequest', async (request) => {
    const query = request.query as Record<string, unknown> | undefined;
    const asked = query?.edition;
    if (request.method !== 'GET' || !editionId.safeParse(asked).success) return;
    const [known] = await db
      .select({ id: editions.id })
      .from(editions)
      .where(eq(editions.id, asked as string))
      .limit(1);
    if (known) delete query?.edition;
  });
}
