import { envelope, uuidParam } from '@rally/shared/contracts/common';
import {
  historyQuery,
  historyResponse,
  myVerificationResponse,
  pendingQuery,
  pendingResponse,
  verificationStatsResponse,
  verifyBody,
  verifyResult,
} from '@rally/shared/contracts/verifications';
import type { FastifyInstance } from 'fastify';
import type { ZodTypeProvider } from 'fastify-type-provider-zod';
import { z } from 'zod';
import type { Config } from '../../config';
import type { Db } from '../../db/client';
import { requireAuth } from '../../lib/authorize';
import { BadRequestError } from '../../lib/errors';
import type { FileStore } from '../../lib/file-store';
import { acceptUpload } from '../../lib/files';
import { FILE_PARTS, readMultipart } from '../../lib/multipart';
import { responses } from '../../lib/route-helpers';
import { myVerification, resubmitReceipt } from './my-verification.service';
import { decide, history, listPending, stats, undo } from './verifications.service';

const resubmitted = envelope(
  z.object({
    status: z.literal('pending'),
    verification_code: z.string(),
    file: z.object({ id: z.string(), mime_type: z.string(), created_at: z.string() }),
  }),
);

export async function verificationRoutes(app: FastifyInstance, opts: { db: Db; config: Config; fileStore: FileStore }) {
  const { db, config, fileStore } = opts;
  const r = app.withTypeProvider<ZodTypeProvider>();
  const tags = ['admin: verifications'];

  r.get('/admin/verifications/pending', {
    config: { access: { permission: 'verify_users' } },
    schema: { tags, querystring: pendingQuery, response: responses({ 200: pendingResponse }) },
    handler: async (request) => ({
      success: true as const,
      ...(await listPending(db, request.query, request.edition)),
    }),
  });

  r.post('/admin/verifications/verify', {
    config: { access: { permission: 'verify_users' } },
    schema: { tags, body: verifyBody, response: responses({ 200: verifyResult }, 404, 409) },
    handler: async (request) => {
      const data = await decide(db, requireAuth(request), request.body, app.messenger);
      return {
        success: true as const,
        message: data.status === 'verified' ? 'User approved successfully!' : 'User rejected successfully!',
        data,
      };
    },
  });

  r.post('/admin/verifications/undo/:id', {
    config: { access: { permission: 'undo_verification' } },
    schema: {
      tags,
      description: 'Returns a verified (or rejected) rider to pending. `id` is the USER id.',
      params: uuidParam,
      response: responses({ 200: verifyResult }, 409),
    },
    handler: async (request) => ({
      success: true as const,
      message: 'Verification undone; the status is pending again',
      data: await undo(db, requireAuth(request), request.params.id),
    }),
  });

  r.get('/admin/verifications/history', {
    config: { access: { permission: 'verify_users' } },
    schema: { tags, querystring: historyQuery, response: responses({ 200: historyResponse }) },
    handler: async (request) => ({
      success: true as const,
      ...(await history(db, requireAuth(request), request.query, request.edition)),
    }),
  });

  r.get('/admin/verifications/stats', {
    config: { access: { permission: 'verify_users' } },
    schema: { tags, response: responses({ 200: verificationStatsResponse }) },
    handler: async (request) => ({ success: true as const, data: await stats(db, request.edition) }),
  });

  r.get('/my/verification', {
    config: { access: 'authenticated' },
    schema: {
      tags: ['verification'],
      description: "The caller's payment verification, with the staff's reason when it was rejected.",
      response: responses({ 200: myVerificationResponse }, 404),
    },
    handler: async (request) => ({
      success: true as const,
      data: await myVerification(db, requireAuth(request).userId),
    }),
  });

  r.post('/my/verification/receipt', {
    config: {
      access: 'authenticated',
      rateLimit: config.rateLimits.enabled
        ? { max: config.rateLimits.uploadsPerAddressPerHour, timeWindow: 3_600_000 }
        : false,
      multipart: { files: { paymentReceipt: FILE_PARTS.paymentReceipt(true) } },
    },
    schema: {
      tags: ['verification'],
      consumes: ['multipart/form-data'],
      description:
        'A rejected rider (or a pending one without a receipt) sends a new receipt in the paymentReceipt field and goes back to pending. The previous receipt is kept for staff.',
      response: responses({ 201: resubmitted }, 404, 409),
    },
    handler: async (request, reply) => {
      const auth = requireAuth(request);
      const { files } = await readMultipart(request);
      const part = files.paymentReceipt;
      if (!part) throw new BadRequestError('No file was sent in the paymentReceipt field', 'NO_FILE');
      const data = await resubmitReceipt(
        db,
        fileStore,
        auth.userId,
        // Stored as sent and processed by the file queue, off the request (DESIGN.md §13).
        await acceptUpload('payment_receipt', part.buffer, part.filename),
      );
      reply.code(201);
      return { success: true as const, message: 'New receipt sent; your verification is pending again', data };
    },
  });
}
