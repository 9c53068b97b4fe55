import {
  commentBody,
  commentListResponse,
  commentResponse,
  commentsQuery,
  fireResponse,
  myCommentListResponse,
  publicProfileResponse,
  userIdParam,
} from '@rally/shared/contracts/profiles';
import type { FastifyInstance } from 'fastify';
import type { ZodTypeProvider } from 'fastify-type-provider-zod';
import type { Db } from '../../db/client';
import { sendJson } from '../../lib/answer-cache';
import { requireAuth } from '../../lib/authorize';
import { responses } from '../../lib/route-helpers';
import {
  addComment,
  fireStatus,
  giveFire,
  listComments,
  listMyComments,
  publicProfileAnswer,
} from './profiles.service';

export async function profileRoutes(app: FastifyInstance, opts: { db: Db }) {
  const { db } = opts;
  const r = app.withTypeProvider<ZodTypeProvider>();

  r.get('/users/:id/profile', {
    config: { access: 'public' },
    schema: {
      tags: ['profiles'],
      description:
        'The public profile of an active rider: no contact, payment or code fields. A rider who withdrew the public_profile consent is “User not found” (404) to everyone but themself; one who withdrew public_photo reads `hasProfileImage: false` to others.',
      params: userIdParam,
      response: responses({ 200: publicProfileResponse }),
    },
    // Served from the answer cache: a shared profile link opened by a crowd costs one query.
    handler: async (request, reply) => {
      return sendJson(
        reply,
        await publicProfileAnswer(app.answerCache, db, request.params.id, request.auth?.userId ?? null),
      );
    },
  });

  r.post('/users/:id/fire', {
    config: { access: 'verified' },
    schema: { tags: ['profiles'], params: userIdParam, response: responses({ 200: fireResponse }, 409) },
    handler: async (request) => ({
      success: true as const,
      data: await giveFire(db, requireAuth(request), request.params.id),
      message: 'Fire given! 🔥',
    }),
  });

  r.get('/users/:id/fire/status', {
    config: { access: 'public' },
    schema: { tags: ['profiles'], params: userIdParam, response: responses({ 200: fireResponse }) },
    handler: async (request) => ({
      success: true as const,
      data: await fireStatus(db, request.params.id, request.auth?.userId ?? null),
    }),
  });

  r.post('/users/:id/comments', {
    config: { access: 'verified' },
    schema: {
      tags: ['profiles'],
      description:
        'Adds a support comment to a rider’s profile. A comment has no length limit of its own; only the request body limit of 1 MB bounds it. Tab, newline and carriage return are allowed; other control characters are refused.',
      params: userIdParam,
      body: commentBody,
      response: responses({ 201: commentResponse }),
    },
    handler: async (request, reply) => {
      const created = await addComment(db, requireAuth(request), request.params.id, request.body.comment);
      reply.code(201);
      return { success: true as const, data: created, message: 'Comment added' };
    },
  });

  r.get('/users/:id/comments', {
    config: { access: 'public' },
    schema: {
      tags: ['profiles'],
      params: userIdParam,
      querystring: commentsQuery,
      response: responses({ 200: commentListResponse }),
    },
    handler: async (request) => ({
      success: true as const,
      data: await listComments(db, request.params.id, request.query, request.auth?.userId ?? null),
    }),
  });

  r.get('/my/comments', {
    config: { access: 'authenticated' },
    schema: { tags: ['profiles'], querystring: commentsQuery, response: responses({ 200: myCommentListResponse }) },
    handler: async (request) => ({
      success: true as const,
      data: await listMyComments(db, requireAuth(request).userId, request.query),
    }),
  });
}
