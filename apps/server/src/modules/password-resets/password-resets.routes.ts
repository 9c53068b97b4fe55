import { resetPasswordSchema, resetTokenInfo, resetTokenParam } from '@rally/shared/contracts/auth';
import { makePagination, messageEnvelope } from '@rally/shared/contracts/common';
import {
  generateResetBody,
  generateResetResponse,
  resetCleanupResponse,
  resetHistoryQuery,
  resetHistoryResponse,
  resetUsersQuery,
  resetUsersResponse,
} from '@rally/shared/contracts/password-resets';
import type { FastifyInstance } from 'fastify';
import type { ZodTypeProvider } from 'fastify-type-provider-zod';
import type { Config } from '../../config';
import type { Db } from '../../db/client';
import { actorOf } from '../../lib/actor';
import { requireAuth } from '../../lib/authorize';
import { responses } from '../../lib/route-helpers';
import { presentReset } from './password-resets.presenter';
import {
  cleanupResetLinks,
  completeReset,
  generateForUser,
  listResetHistory,
  listResetUsers,
  readResetToken,
} from './password-resets.service';

const access = { permission: 'manage_password_resets' } as const;

export async function passwordResetRoutes(app: FastifyInstance, opts: { db: Db; config: Config }) {
  const { db, config } = opts;
  const r = app.withTypeProvider<ZodTypeProvider>();

  r.post('/admin/password-resets/generate', {
    config: { access },
    schema: {
      tags: ['password-resets'],
      body: generateResetBody,
      response: responses({ 200: generateResetResponse }, 404),
    },
    handler: async (request, reply) => {
      const auth = requireAuth(request);
      const link = await generateForUser(
        db,
        request.body.userId,
        { ...actorOf(auth), role: auth.role },
        config.publicUrl,
      );
      // The answer carries a live credential: no cache may keep it.
      reply.header('cache-control', 'no-store');
      return {
        success: true as const,
        data: {
          resetUrl: link.resetUrl,
          resetToken: link.resetToken,
          expiresAt: link.expiresAt,
          user: { fullName: link.user.fullName, email: link.user.email },
        },
        message: `Password reset link generated for ${link.user.fullName}`,
      };
    },
  });

  r.get('/admin/password-resets/history', {
    config: { access },
    schema: {
      tags: ['password-resets'],
      querystring: resetHistoryQuery,
      response: responses({ 200: resetHistoryResponse }),
    },
    handler: async (request) => {
      const q = request.query;
      const { resets, total } = await listResetHistory(db, q, requireAuth(request).role);
      return {
        success: true as const,
        data: { resets: resets.map(presentReset), pagination: makePagination(q.page, q.limit, total) },
      };
    },
  });

  r.post('/admin/password-resets/cleanup', {
    config: { access },
    schema: { tags: ['password-resets'], response: responses({ 200: resetCleanupResponse }) },
    handler: async (request) => {
      const deleted = await cleanupResetLinks(db, actorOf(requireAuth(request)));
      return {
        success: true as const,
        data: { deleted },
        message:
          deleted === 0
            ? 'No expired reset links to clean up'
            : `Removed ${deleted} expired reset link${deleted === 1 ? '' : 's'}`,
      };
    },
  });

  r.get('/admin/password-resets/users', {
    config: { access },
    schema: {
      tags: ['password-resets'],
      querystring: resetUsersQuery,
      response: responses({ 200: resetUsersResponse }),
    },
    handler: async (request) => {
      const q = request.query;
      const auth = requireAuth(request);
      const { rows, total } = await listResetUsers(db, q, { id: auth.userId, role: auth.role });
      return { success: true as const, data: { users: rows, pagination: makePagination(q.page, q.limit, total) } };
    },
  });

  // The rider's side of a reset link: public, under /auth like the other sign-in screens' calls.
  const limits = config.rateLimits;
  r.get('/auth/reset-password/:token', {
    config: { access: 'public' },
    schema: { tags: ['auth'], params: resetTokenParam, response: responses({ 200: resetTokenInfo }) },
    handler: async (request) => {
      const data = await readResetToken(db, request.params.token);
      return { success: true as const, message: 'Reset link is valid', data };
    },
  });

  r.post('/auth/reset-password', {
    config: {
      access: 'public',
      rateLimit: limits.enabled ? { max: limits.resetsPerAddressPerHour, timeWindow: 3_600_000 } : false,
    },
    schema: { tags: ['auth'], body: resetPasswordSchema, response: responses({ 200: messageEnvelope }, 404) },
    handler: async (request) => {
      await completeReset(db, request.body.token, request.body.newPassword);
      return { success: true as const, message: 'Password reset successfully!' };
    },
  });
}
