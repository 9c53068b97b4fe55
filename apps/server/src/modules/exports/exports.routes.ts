// The organisers' spreadsheets: the Reports tab's list and the
// files themselves. Both need view_masterlist: they carry contact data officers may not read.
import {
  EXPORT_MEDIA_TYPES,
  exportFileParams,
  exportFileQuery,
  exportListResponse,
} from '@rally/shared/contracts/exports';
import type { FastifyInstance } from 'fastify';
import type { ZodTypeProvider } from 'fastify-type-provider-zod';
import type { Db } from '../../db/client';
import { actorOf } from '../../lib/actor';
import { requireAuth } from '../../lib/authorize';
import { responses } from '../../lib/route-helpers';
import type { ExportViewer } from './export-definition';
import { EXPORTS } from './export-registry';
import { listExports, runExport } from './exports.service';

const access = { permission: 'view_masterlist' } as const;

export async function exportRoutes(app: FastifyInstance, opts: { db: Db }) {
  const { db } = opts;
  const r = app.withTypeProvider<ZodTypeProvider>();
  const viewerOf = (request: Parameters<typeof requireAuth>[0]): ExportViewer => {
    const auth = requireAuth(request);
    return { ...actorOf(auth), role: auth.role, ip: request.ip };
  };

  r.get('/admin/exports', {
    config: { access },
    schema: {
      tags: ['admin: exports'],
      description: 'Every export with its current row count and its last download.',
      response: responses({ 200: exportListResponse }),
    },
    handler: async (request) => ({
      success: true as const,
      data: await listExports(db, viewerOf(request), request.edition),
    }),
  });

  r.get('/admin/exports/:file', {
    config: { access },
    schema: {
      tags: ['admin: exports'],
      description: `Downloads an export as a spreadsheet (attachment, dated file name); each download is logged. An export carrying riders’ sensitive data (its \`sensitiveKinds\` in the list) needs \`reason\`, kept in the access log: without it, 400 \`REASON_REQUIRED\`. Names: ${EXPORTS.map((e) => `\`${e.name}\``).join(', ')}.`,
      params: exportFileParams,
      querystring: exportFileQuery,
      produces: Object.values(EXPORT_MEDIA_TYPES),
    },
    handler: async (request, reply) => {
      const file = await runExport(
        db,
        request.params.file,
        viewerOf(request),
        new Date(),
        request.edition,
        request.query.reason,
      );
      return reply
        .header(
          'content-type',
          file.mediaType === EXPORT_MEDIA_TYPES.csv ? `${file.mediaType}; charset=utf-8` : file.mediaType,
        )
        .header('content-disposition', `attachment; filename="${file.fileName}"`)
        .header('cache-control', 'no-store')
        .header('x-export-rows', String(file.rows))
        .send(file.bytes);
    },
  });
}
