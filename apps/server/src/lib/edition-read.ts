// Past editions, read through the very routes that read the current one (DESIGN.md §9).
//
// Every entry-scoped table holds every edition's rows, each with its `edition_id`. A staff
// GET naming a past edition (`?edition=ID`) is checked here and handed to its route as
// `request.edition`; the route passes it to its service, which filters by it
// (lib/edition-of.ts `inEdition`, lib/riders.ts `entryIn`). A route that reads no edition's
// rows (logs, login activities, the activity feed: the install's) leaves it unused. Nothing is
// materialised and no transaction is held: a past read costs what a current one does.
import { eq } from 'drizzle-orm';
import type { FastifyInstance } from 'fastify';
import type { Db } from '../db/client';
import { editions } from '../db/schema/editions';
import type { EditionRead } from './edition-of';
import { BadRequestError, ConflictError, NotFoundError } from './errors';

declare module 'fastify' {
  interface FastifyRequest {
    /** The past edition a staff GET names (`?edition=`); undefined: the current edition. */
    edition: EditionRead;
  }
  interface FastifyContextConfig {
    /** false: the route serves the current edition only (`?edition=` of a past one is refused). */
    pastEditions?: boolean;
  }
}

const UUID = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/i;

/**
 * `?edition=ID` on the staff API (`/api/admin/...`): a GET of a past edition gets it as
 * `request.edition`; naming the current one changes nothing; a write naming a past one is
 * refused (history is read-only), as is a route with `config.pastEditions: false` (a live
 * stream). The parameter is taken off the query before the route's own schema sees it.
 */
export function readPastEditions(api: FastifyInstance, db: Db): void {
  api.decorateRequest('edition', undefined);
  api.addHook('preValidation', async (request) => {
    if (!request.url.startsWith('/api/admin/')) return;
    const query = request.query as Record<string, unknown> | undefined;
    const asked = query?.edition;
    if (asked === undefined) return;
    delete query?.edition;
    if (typeof asked !== 'string' || !UUID.test(asked)) throw new BadRequestError('edition must be an edition id');
    const [row] = await db
      .select({ id: editions.id, name: editions.name, current: editions.current })
      .from(editions)
      .where(eq(editions.id, asked))
      .limit(1);
    if (!row) throw new NotFoundError('Edition not found', 'EDITION_NOT_FOUND');
    if (row.current) return;
    if (request.method !== 'GET' || request.routeOptions.config.pastEditions === false)
      throw new ConflictError(`${row.name} is a past edition: its history is read-only`, 'EDITION_READ_ONLY');
    request.edition = row.id;
  });
}
