// A rider's data, on request (DESIGN.md §12). The state of an export and its ZIP are two
// addresses: `GET .../{id}` always answers JSON (pending, ready or failed, its size and
// expiry), `GET .../{id}/download` the ZIP once ready. Riders reach only their own exports;
// staff with delete_user prepare one for a request that came by letter and download it, each
// download logged in the access log as a read of the rider's sensitive fields.
import { errorEnvelope } from '@rally/shared/contracts/common';
import {
  adminDataExportResponse,
  adminUserParams,
  dataExportCreatedResponse,
  dataExportListResponse,
  dataExportParams,
  dataExportResponse,
} from '@rally/shared/contracts/data-export';
import type { FastifyInstance, FastifyReply } from 'fastify';
import type { ZodTypeProvider } from 'fastify-type-provider-zod';
import type { Db } from '../../db/client';
import { actorOf } from '../../lib/actor';
import { requireAuth } from '../../lib/authorize';
import { responses } from '../../lib/route-helpers';
import { manilaDate } from '../exports/spreadsheet';
import { presentExport, presentLetterExport } from './data-export.presenter';
import {
  type ExportRow,
  letterExport,
  letterSubject,
  myExport,
  myExports,
  recordLetterRead,
  requestExport,
  zipOf,
} from './data-export.service';
import { kickDataExports } from './data-export-job';

const staffAccess = { permission: 'delete_user' } as const;
const gone = errorEnvelope.describe('The export has expired (offered for 7 days): ask for a new one');
const notReady = errorEnvelope.describe('The export is still being prepared, or could not be');

function sendZip(reply: FastifyReply, row: ExportRow, zip: Buffer) {
  return (
    reply
      .header('content-type', 'application/zip')
      .header(
        'content-disposition',
        `attachment; filename="rally-data-${manilaDate(row.readyAt ?? row.createdAt)}.zip"`,
      )
      .header('cache-control', 'no-store')
      // Bytes are sent as they are; the route declares no 2xx schema.
      .send(zip)
  );
}

export async function dataExportRoutes(app: FastifyInstance, opts: { db: Db }) {
  const { db } = opts;
  const r = app.withTypeProvider<ZodTypeProvider>();

  r.post('/my/data-export', {
    config: { access: 'authenticated' },
    schema: {
      tags: ['privacy'],
      description:
        'Asks for a copy of everything the platform holds about you (a ZIP: a JSON file per kind, your uploaded files and a readable summary.html). Answers 202 at once: the ZIP is prepared in the background; follow it at `GET /api/my/data-export/{id}` and download it from `.../{id}/download` for 7 days. An export already being prepared or still offered is answered instead of a second one.',
      response: responses({ 202: dataExportCreatedResponse }),
    },
    handler: async (request, reply) => {
      const now = app.clock.now();
      const { row, existing } = await requestExport(db, requireAuth(request).userId, null, now);
      if (row.status === 'pending') kickDataExports(db, now);
      return reply.code(202).send({
        success: true as const,
        data: presentExport(row),
        message: existing
          ? row.status === 'ready'
            ? 'Your data is already prepared: download it below.'
            : 'Your data is already being prepared.'
          : 'Preparing your data. This takes a moment.',
      });
    },
  });

  r.get('/my/data-export', {
    config: { access: 'authenticated' },
    schema: {
      tags: ['privacy'],
      description: 'Your data exports still offered or being prepared, latest first.',
      response: responses({ 200: dataExportListResponse }),
    },
    handler: async (request) => {
      const rows = await myExports(db, requireAuth(request).userId, app.clock.now());
      return { success: true as const, data: rows.map(presentExport) };
    },
  });

  r.get('/my/data-export/:id', {
    config: { access: 'authenticated' },
    schema: {
      tags: ['privacy'],
      description:
        'The state of one of your data exports (always JSON): `pending`, `ready` (with its size and until when it is offered) or `failed`. The ZIP itself is at `.../{id}/download`. Another account’s export is 404; an expired one 410.',
      params: dataExportParams,
      response: responses({ 200: dataExportResponse, 410: gone }),
    },
    handler: async (request) => {
      const row = await myExport(db, requireAuth(request).userId, request.params.id, app.clock.now());
      return { success: true as const, data: presentExport(row) };
    },
  });

  r.get('/my/data-export/:id/download', {
    config: { access: 'authenticated' },
    schema: {
      tags: ['privacy'],
      description:
        'Downloads one of your data exports once ready: `application/zip`, as `rally-data-<date>.zip`. 409 while it is being prepared or after a failure, 410 once expired, 404 for another account’s.',
      params: dataExportParams,
      produces: ['application/zip'],
      response: responses({ 409: notReady, 410: gone }),
    },
    handler: async (request, reply) => {
      const row = await myExport(db, requireAuth(request).userId, request.params.id, app.clock.now());
      return sendZip(reply, row, await zipOf(db, row));
    },
  });

  r.post('/admin/users/:id/data-export', {
    config: { access: staffAccess },
    schema: {
      tags: ['privacy'],
      description:
        'Prepares a copy of a rider’s data for a request that came by letter or email (answer within 30 working days). 202 at once; follow it at `GET /api/admin/data-exports/{id}`. An export of theirs already prepared for a letter and still offered is answered instead of a second one.',
      params: adminUserParams,
      response: responses({ 202: adminDataExportResponse }),
    },
    handler: async (request, reply) => {
      const auth = requireAuth(request);
      const now = app.clock.now();
      const user = await letterSubject(db, auth.role, request.params.id);
      const { row, existing } = await requestExport(db, user.id, actorOf(auth), now);
      if (row.status === 'pending') kickDataExports(db, now);
      return reply.code(202).send({
        success: true as const,
        data: presentLetterExport({ ...row, firstName: user.firstName, lastName: user.lastName, email: user.email }),
        message: existing ? 'An export of their data is already prepared or on its way.' : 'Preparing their data.',
      });
    },
  });

  r.get('/admin/data-exports/:id', {
    config: { access: staffAccess },
    schema: {
      tags: ['privacy'],
      description:
        'The state of a letter export (always JSON), to any staff member with `delete_user` who may see the account. The ZIP is at `.../{id}/download`.',
      params: dataExportParams,
      response: responses({ 200: adminDataExportResponse, 410: gone }),
    },
    handler: async (request) => {
      const row = await letterExport(db, requireAuth(request).role, request.params.id, app.clock.now());
      return { success: true as const, data: presentLetterExport(row) };
    },
  });

  r.get('/admin/data-exports/:id/download', {
    config: { access: staffAccess },
    schema: {
      tags: ['privacy'],
      description:
        'Downloads a letter export once ready (`application/zip`). Each download is logged in the access log (source `data export <id>`) with the sensitive kinds it carries.',
      params: dataExportParams,
      produces: ['application/zip'],
      response: responses({ 409: notReady, 410: gone }),
    },
    handler: async (request, reply) => {
      const auth = requireAuth(request);
      const row = await letterExport(db, auth.role, request.params.id, app.clock.now());
      const zip = await zipOf(db, row);
      const staff = actorOf(auth);
      await recordLetterRead(db, { staffId: staff.id, staffName: staff.name, ip: request.ip }, row, zip);
      return sendZip(reply, row, zip);
    },
  });
}
