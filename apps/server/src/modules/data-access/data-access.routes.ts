// Who looked (DESIGN.md §12): the rider's own access log, the staff's view of it by rider and
// by staff member (view_logs), and the breach kit. The lines themselves are written by the
// hook in data-access.hook.ts, for every staff answer, and by the exports.

import { makePagination } from '@rally/shared/contracts/common';
import {
  affectedQuery,
  affectedResponse,
  dataAccessPeopleQuery,
  dataAccessPeopleResponse,
  dataAccessQuery,
  dataAccessResponse,
  myDataAccessResponse,
} from '@rally/shared/contracts/data-access';
import type { FastifyInstance } from 'fastify';
import type { ZodTypeProvider } from 'fastify-type-provider-zod';
import type { Db } from '../../db/client';
import { requireAuth } from '../../lib/authorize';
import { responses } from '../../lib/route-helpers';
import { manilaDate } from '../exports/spreadsheet';
import {
  affectedCsv,
  presentAffected,
  presentDataAccess,
  presentMyDataAccess,
  presentPerson,
} from './data-access.presenter';
import { affectedRiders, findPeople, listDataAccess, myDataAccess } from './data-access.service';

const access = { permission: 'view_logs' } as const;

export async function dataAccessRoutes(app: FastifyInstance, opts: { db: Db }) {
  const { db } = opts;
  const r = app.withTypeProvider<ZodTypeProvider>();

  r.get('/my/data-access', {
    config: { access: 'authenticated' },
    schema: {
      tags: ['privacy'],
      description:
        'Who on the staff read your medical notes, emergency contact, birthdate, licence or position: when, which, and on which screen or export. Newest first, the last 500.',
      response: responses({ 200: myDataAccessResponse }),
    },
    handler: async (request) => {
      const rows = await myDataAccess(db, requireAuth(request).userId);
      return { success: true as const, data: rows.map(presentMyDataAccess) };
    },
  });

  r.get('/admin/data-access', {
    config: { access },
    schema: {
      tags: ['privacy'],
      description:
        'The access log of riders’ sensitive fields, by rider (`userId`), staff member (`staffId`) and window, newest first. The install’s, whatever edition is named.',
      querystring: dataAccessQuery,
      response: responses({ 200: dataAccessResponse }),
    },
    handler: async (request) => {
      const q = request.query;
      const { rows, total } = await listDataAccess(db, requireAuth(request), q);
      return {
        success: true as const,
        data: { entries: rows.map(presentDataAccess), pagination: makePagination(q.page, q.limit, total) },
      };
    },
  });

  r.get('/admin/data-access/people', {
    config: { access },
    schema: {
      tags: ['privacy'],
      description:
        'Riders (`who=riders`) or staff members (`who=staff`) whose name or email matches `search`, to pick one for the access log: names, emails and roles only, so the lookup is no read of sensitive data.',
      querystring: dataAccessPeopleQuery,
      response: responses({ 200: dataAccessPeopleResponse }),
    },
    handler: async (request) => {
      const rows = await findPeople(db, requireAuth(request), request.query);
      return { success: true as const, data: rows.map(presentPerson) };
    },
  });

  r.get('/admin/data-access/affected', {
    config: { access },
    schema: {
      tags: ['privacy'],
      description:
        'The breach kit: every rider whose sensitive fields were read between `from` and `to` (by `staffId`, or from the address `ip`, when named), which fields, how often, first and last; `format=csv` downloads it for the 72-hour notice.',
      querystring: affectedQuery,
      produces: ['application/json', 'text/csv'],
      response: responses({ 200: affectedResponse }),
    },
    handler: async (request, reply) => {
      const rows = (await affectedRiders(db, requireAuth(request), request.query)).map(presentAffected);
      if (request.query.format === 'csv') {
        return (
          reply
            .header('content-type', 'text/csv; charset=utf-8')
            .header('content-disposition', `attachment; filename="affected-${manilaDate()}.csv"`)
            .header('cache-control', 'no-store')
            // Bytes are sent as they are (Fastify serialises no Buffer); the schema describes the JSON form.
            .send(affectedCsv(rows) as unknown as never)
        );
      }
      return { success: true as const, data: rows };
    },
  });
}
