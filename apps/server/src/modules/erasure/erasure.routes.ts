// Erasure on request (DESIGN.md §12): the rider's own request in My Profile, and the staff's
// decisions (delete_user) in the console's Privacy tab.
import { messageEnvelope, uuidParam } from '@rally/shared/contracts/common';
import {
  adminErasureRequestResponse,
  erasureDecisionBody,
  erasureRequestBody,
  erasureRequestsQuery,
  erasureRequestsResponse,
  myErasureRequestResponse,
} from '@rally/shared/contracts/erasure';
import type { FastifyInstance } from 'fastify';
import type { ZodTypeProvider } from 'fastify-type-provider-zod';
import type { Db } from '../../db/client';
import { requireAuth } from '../../lib/authorize';
import type { FileStore } from '../../lib/file-store';
import { responses } from '../../lib/route-helpers';
import { presentAdminErasure, presentMyErasure } from './erasure.presenter';
import {
  askErasure,
  decideErasure,
  type ErasureDecision,
  listErasureRequests,
  myErasureRequest,
  withdrawErasure,
} from './erasure.service';

const tags = ['privacy'];
const access = { permission: 'delete_user' } as const;

export async function erasureRoutes(app: FastifyInstance, opts: { db: Db; fileStore: FileStore }) {
  const { db, fileStore } = opts;
  const r = app.withTypeProvider<ZodTypeProvider>();

  r.get('/my/erasure-request', {
    config: { access: 'authenticated' },
    schema: {
      tags,
      description: 'Your latest request to have your account erased (a pending one first), or null if you never asked.',
      response: responses({ 200: myErasureRequestResponse }),
    },
    handler: async (request) => {
      const row = await myErasureRequest(db, requireAuth(request).userId);
      return { success: true as const, data: row ? presentMyErasure(row) : null };
    },
  });

  r.post('/my/erasure-request', {
    config: { access: 'authenticated' },
    schema: {
      tags,
      description:
        'Asks for your account to be erased, with an optional note; staff decide. 409: a request is already pending (ERASURE_PENDING), or the account is a staff one (STAFF_ACCOUNT: staff accounts are removed by an administrator).',
      body: erasureRequestBody,
      response: responses({ 201: myErasureRequestResponse }, 409),
    },
    handler: async (request, reply) => {
      const row = await askErasure(db, requireAuth(request).userId, request.body);
      reply.code(201);
      return {
        success: true as const,
        message: 'Your request was sent: staff will decide on it',
        data: presentMyErasure(row),
      };
    },
  });

  r.delete('/my/erasure-request', {
    config: { access: 'authenticated' },
    schema: {
      tags,
      description: 'Withdraws your pending erasure request. 404 when none is pending.',
      response: responses({ 200: messageEnvelope }, 404),
    },
    handler: async (request) => {
      await withdrawErasure(db, requireAuth(request).userId);
      return { success: true as const, message: 'Your request was withdrawn' };
    },
  });

  r.get('/admin/erasure-requests', {
    config: { access },
    schema: {
      tags,
      description:
        'Erasure requests, newest first, by status (`decided`: approved or refused). The rider (name, email, rider number) is shown while the account exists; an approved request names nobody.',
      querystring: erasureRequestsQuery,
      response: responses({ 200: erasureRequestsResponse }),
    },
    handler: async (request) => {
      const { rows, pagination } = await listErasureRequests(db, requireAuth(request).role, request.query);
      return { success: true as const, data: { requests: rows.map(presentAdminErasure), pagination } };
    },
  });

  const decisions: Array<[ErasureDecision, string, string, string]> = [
    [
      'approved',
      '/admin/erasure-requests/:id/approve',
      'Approves a pending request with a reason: the account is deleted now (as `DELETE /api/admin/users/{id}` does, with its visibility rule), in the same transaction. 409: already decided (ERASURE_ALREADY_DECIDED).',
      'The account was erased',
    ],
    [
      'refused',
      '/admin/erasure-requests/:id/refuse',
      'Refuses a pending request with a reason, which the rider reads in My Profile; they may ask again. 409: already decided (ERASURE_ALREADY_DECIDED).',
      'The request was refused',
    ],
  ];
  for (const [decision, url, description, message] of decisions) {
    r.post(url, {
      config: { access },
      schema: {
        tags,
        description,
        params: uuidParam,
        body: erasureDecisionBody,
        response: responses({ 200: adminErasureRequestResponse }, 409),
      },
      handler: async (request) => {
        const viewer = requireAuth(request);
        const row = await decideErasure(db, viewer, request.params.id, decision, request.body, fileStore);
        return { success: true as const, message, data: presentAdminErasure(row) };
      },
    });
  }
}
