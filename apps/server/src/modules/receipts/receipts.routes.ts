// The desk's receipt routes (DESIGN.md §13): a verification's receipt check, and staff
// typing or correcting what was read. `{id}` is the verification's id.
import { uuidParam } from '@rally/shared/contracts/common';
import { readingPatchBody, receiptCheckResponse } from '@rally/shared/contracts/receipts';
import type { FastifyInstance } from 'fastify';
import type { ZodTypeProvider } from 'fastify-type-provider-zod';
import type { Db } from '../../db/client';
import { requireAuth } from '../../lib/authorize';
import { responses } from '../../lib/route-helpers';
import { checkOfVerification, correctReading } from './receipt-check.service';

export async function receiptRoutes(app: FastifyInstance, opts: { db: Db }) {
  const { db } = opts;
  const r = app.withTypeProvider<ZodTypeProvider>();
  const tags = ['admin: verifications'];

  r.get('/admin/verifications/:id/receipt-check', {
    config: { access: { permission: 'verify_users' } },
    schema: {
      tags,
      description: "The verification's current receipt: what was read, its flags and the statement row it matched.",
      params: uuidParam,
      response: responses({ 200: receiptCheckResponse }, 404),
    },
    handler: async (request) => ({
      success: true as const,
      data: await checkOfVerification(db, request.params.id, request.edition),
    }),
  });

  r.patch('/admin/verifications/:id/reading', {
    config: { access: { permission: 'verify_users' } },
    schema: {
      tags,
      description:
        'Staff type or correct the reading of the current receipt; fields left out are kept, fields sent are never overwritten by a later reading. Answers the new check.',
      params: uuidParam,
      body: readingPatchBody,
      response: responses({ 200: receiptCheckResponse }, 404),
    },
    handler: async (request) => ({
      success: true as const,
      message: 'Reading saved',
      data: await correctReading(db, requireAuth(request), request.params.id, request.body),
    }),
  });
}
