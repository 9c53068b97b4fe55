import { makePagination, uuidParam } from '@rally/shared/contracts/common';
import { stickerSheetBody } from '@rally/shared/contracts/exports';
import {
  idCardDetailResponse,
  idCardSearchQuery,
  idCardSearchResponse,
  idCardStatsResponse,
  markPrintedBody,
  markPrintedResponse,
  medicalInfoBody,
  medicalInfoResponse,
} from '@rally/shared/contracts/id-cards';
import type { FastifyInstance } from 'fastify';
import type { ZodTypeProvider } from 'fastify-type-provider-zod';
import type { Db } from '../../db/client';
import { actorOf } from '../../lib/actor';
import { requireAuth } from '../../lib/authorize';
import { responses } from '../../lib/route-helpers';
import { manilaDate } from '../exports/spreadsheet';
import { presentCard, presentCardDetail } from './id-cards.presenter';
import {
  cardDetail,
  cardStats,
  markPrinted,
  printStickerSheet,
  searchCards,
  updateMedicalInfo,
} from './id-cards.service';

const access = { permission: 'manage_id_cards' } as const;

export async function idCardRoutes(app: FastifyInstance, opts: { db: Db }) {
  const { db } = opts;
  const r = app.withTypeProvider<ZodTypeProvider>();

  r.get('/admin/id-cards/search', {
    config: { access },
    schema: { tags: ['id-cards'], querystring: idCardSearchQuery, response: responses({ 200: idCardSearchResponse }) },
    handler: async (request) => {
      const q = request.query;
      const { rows, total } = await searchCards(db, q, request.edition);
      return {
        success: true as const,
        data: { users: rows.map(presentCard), pagination: makePagination(q.page, q.limit, total) },
      };
    },
  });

  r.get('/admin/id-cards/stats', {
    config: { access },
    schema: { tags: ['id-cards'], response: responses({ 200: idCardStatsResponse }) },
    handler: async (request) => ({ success: true as const, data: await cardStats(db, request.edition) }),
  });

  r.get('/admin/id-cards/user/:id', {
    config: { access },
    schema: { tags: ['id-cards'], params: uuidParam, response: responses({ 200: idCardDetailResponse }, 409) },
    handler: async (request) => {
      const row = await cardDetail(db, request.params.id, requireAuth(request).role, request.edition);
      return { success: true as const, data: presentCardDetail(row) };
    },
  });

  r.post('/admin/id-cards/mark-printed/:id', {
    config: { access },
    schema: {
      tags: ['id-cards'],
      params: uuidParam,
      body: markPrintedBody,
      response: responses({ 200: markPrintedResponse }, 409),
    },
    handler: async (request) => {
      const auth = requireAuth(request);
      const result = await markPrinted(db, request.params.id, request.body?.notes, {
        ...actorOf(auth),
        role: auth.role,
      });
      return {
        success: true as const,
        data: { id: result.id, print_count: result.printCount, printed_at: result.printedAt.toISOString() },
        message: 'ID marked as printed successfully',
      };
    },
  });

  r.put('/admin/id-cards/medical-info/:id', {
    config: { access },
    schema: {
      tags: ['id-cards'],
      params: uuidParam,
      body: medicalInfoBody,
      response: responses({ 200: medicalInfoResponse }, 409),
    },
    handler: async (request) => {
      const auth = requireAuth(request);
      const row = await updateMedicalInfo(db, request.params.id, request.body, { ...actorOf(auth), role: auth.role });
      return {
        success: true as const,
        data: {
          id: row.id,
          blood_type: row.bloodType,
          allergies: row.allergies,
          medical_conditions: row.medicalConditions,
        },
        message: 'Medical information updated',
      };
    },
  });

  r.post('/admin/stickers/sheet', {
    config: { access },
    schema: {
      tags: ['id-cards'],
      description:
        'An A4 PDF of 5 cm × 5 cm QR stickers with cut marks (15 a page) for the riders named, or for every verified rider never printed. Each sticker on the sheet counts as printed; the sheet is logged.',
      body: stickerSheetBody,
      produces: ['application/pdf'],
      response: responses({}, 404, 409),
    },
    handler: async (request, reply) => {
      const auth = requireAuth(request);
      const sheet = await printStickerSheet(db, request.body, { ...actorOf(auth), role: auth.role });
      return reply
        .header('content-type', 'application/pdf')
        .header('content-disposition', `attachment; filename="qr-stickers-${manilaDate()}.pdf"`)
        .header('cache-control', 'no-store')
        .header('x-sticker-count', String(sheet.count))
        .send(sheet.pdf);
    },
  });
}
