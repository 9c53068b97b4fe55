import { makePagination } from '@rally/shared/contracts/common';
import {
  flaggedScanListResponse,
  flaggedScanQuery,
  passagesResponse,
  reviewScanRequest,
  reviewScanResponse,
  rosterQuery,
  rosterResponse,
  scanBatchRequest,
  scanBatchResponse,
} from '@rally/shared/contracts/scans';
import type { FastifyInstance } from 'fastify';
import type { ZodTypeProvider } from 'fastify-type-provider-zod';
import { z } from 'zod';
import type { Db } from '../../db/client';
import { actorOf } from '../../lib/actor';
import { requireAuth } from '../../lib/authorize';
import { responses } from '../../lib/route-helpers';
import { riderPassages } from '../course/passages';
import { scanRoster } from './roster.service';
import { listFlagged, reviewScan } from './scan-review.service';
import { presentFlagged, presentPassage } from './scans.presenter';
import { ingestScans } from './scans.service';

const idParam = z.object({ id: z.uuid({ message: 'id must be a scan id' }) });

export async function scanRoutes(app: FastifyInstance, opts: { db: Db }) {
  const { db } = opts;
  const r = app.withTypeProvider<ZodTypeProvider>();

  r.post('/admin/scans', {
    // Each item is checked alone (scanItem refuses control characters), so one bad item
    // is `invalid` while its neighbours are stored, instead of the whole batch a 400.
    config: { access: { permission: 'qr_scan' }, textCheckPerItem: ['scans'] },
    // 500 scans of a few hundred bytes each; room for long ids and codes.
    bodyLimit: 1024 * 1024,
    schema: {
      tags: ['scans'],
      description: 'A batch of 1-500 scans from a device; answers per scan, in the order sent.',
      body: scanBatchRequest,
      response: responses({ 200: scanBatchResponse }),
    },
    handler: async (request) => {
      const results = await ingestScans(db, request.body.scans, requireAuth(request), undefined, app.messenger);
      return { success: true as const, data: { results } };
    },
  });

  r.get('/admin/scan-roster', {
    config: { access: { permission: 'qr_scan' } },
    schema: { tags: ['scans'], querystring: rosterQuery, response: responses({ 200: rosterResponse }) },
    handler: async (request) => ({
      success: true as const,
      data: await scanRoster(db, request.query.since, undefined, request.edition),
    }),
  });

  // Reading the queue is the Event Day tab's business (view_dashboard: the same riders and
  // stations the board shows, no contact data); deciding needs manage_event.
  r.get('/admin/scans/flagged', {
    config: { access: { permission: 'view_dashboard' } },
    schema: { tags: ['scans'], querystring: flaggedScanQuery, response: responses({ 200: flaggedScanListResponse }) },
    handler: async (request) => {
      const q = request.query;
      const { rows, total } = await listFlagged(db, q, request.edition);
      const viewer = requireAuth(request).role;
      return {
        success: true as const,
        data: {
          scans: rows.map((row) => presentFlagged(row, viewer)),
          pagination: makePagination(q.page, q.limit, total),
        },
      };
    },
  });

  r.post('/admin/scans/:id/review', {
    config: { access: { permission: 'manage_event' } },
    schema: {
      tags: ['scans'],
      params: idParam,
      body: reviewScanRequest,
      response: responses({ 200: reviewScanResponse }, 409),
    },
    handler: async (request) => {
      const { decision, note } = request.body;
      const auth = requireAuth(request);
      const row = await reviewScan(db, request.params.id, decision, note, actorOf(auth));
      return {
        success: true as const,
        data: presentFlagged(row, auth.role),
        message: decision === 'accept' ? 'Scan accepted' : 'Scan voided',
      };
    },
  });

  r.get('/my/passages', {
    config: { access: 'authenticated' },
    schema: { tags: ['scans'], response: responses({ 200: passagesResponse }) },
    handler: async (request) => {
      const rows = await riderPassages(db, requireAuth(request).userId);
      return { success: true as const, data: rows.map(presentPassage) };
    },
  });
}
