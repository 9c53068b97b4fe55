import {
  authResponse,
  changePasswordSchema,
  forgotPasswordSchema,
  loginSchema,
  PASSWORD_CHANGED_MESSAGE,
  profileResponse,
} from '@rally/shared/contracts/auth';
import { messageEnvelope } from '@rally/shared/contracts/common';
import { eq, sql } from 'drizzle-orm';
import type { FastifyInstance } from 'fastify';
import type { ZodTypeProvider } from 'fastify-type-provider-zod';
import type { Config } from '../../config';
import type { Db } from '../../db/client';
import { users } from '../../db/schema/users';
import { bearerToken, requireAuth } from '../../lib/authorize';
import { type LoginThrottleLimits, pruneLoginThrottle } from '../../lib/login-throttle';
import { clientInfo, responses } from '../../lib/route-helpers';
import { clearPageCookies, grantPageCookies } from '../../lib/session-cookie';
import { displayName } from '../../lib/sql-text';
import { recordActivity } from '../activities/activities.service';
import { changePassword, login, refresh, revokeSession } from './auth.service';
import { loadUserRecord } from './user-record.presenter';

export const FORGOT_PASSWORD_MESSAGE =
  'If an account exists for this email, the organizers have been notified. Password resets are issued by administrators, who will send you a secure reset link.';

export async function authRoutes(app: FastifyInstance, opts: { db: Db; config: Config }) {
  const { db, config } = opts;
  const r = app.withTypeProvider<ZodTypeProvider>();
  const limits = config.rateLimits;
  const throttle: LoginThrottleLimits = {
    enabled: limits.enabled,
    perAccount: limits.loginPerAccount,
    perAddress: limits.loginPerAddress,
    windowMs: limits.loginWindowMs,
  };
  // Closed windows are dropped every few minutes, so a spray of made-up emails leaves no pile of rows.
  if (throttle.enabled) {
    const prune = setInterval(() => {
      pruneLoginThrottle(db, throttle.windowMs).catch((err) => app.log.warn({ err }, 'login throttle prune failed'));
    }, 5 * 60_000);
    prune.unref();
    app.addHook('onClose', async () => clearInterval(prune));
  }

  r.post('/auth/login', {
    config: { access: 'public' },
    schema: { tags: ['auth'], body: loginSchema, response: responses({ 200: authResponse }, 401, 403) },
    handler: async (request, reply) => {
      const { userId, token, role } = await login(db, request.body, clientInfo(request), throttle);
      const user = await loadUserRecord(db, userId);
      await grantPageCookies(db, request, reply, { token, role });
      return { success: true as const, token, data: { user }, message: `Welcome back, ${user.firstName}!` };
    },
  });

  r.post('/auth/refresh', {
    config: { access: 'authenticated' },
    schema: { tags: ['auth'], response: responses({ 200: authResponse }) },
    handler: async (request, reply) => {
      const auth = requireAuth(request);
      const token = await refresh(db, auth.sessionId, auth.userId, clientInfo(request));
      await grantPageCookies(db, request, reply, { token, role: auth.role });
      return { success: true as const, token, data: { user: await loadUserRecord(db, auth.userId) } };
    },
  });

  r.get('/auth/profile', {
    config: { access: 'authenticated' },
    schema: { tags: ['auth'], response: responses({ 200: profileResponse }) },
    handler: async (request, reply) => {
      const auth = requireAuth(request);
      // Every app start checks its session here: a session from before the page cookie, or
      // whose cookie was lost, gets it; an account whose role changed gets or loses it.
      await grantPageCookies(db, request, reply, { token: bearerToken(request) ?? '', role: auth.role });
      return { success: true as const, data: { user: await loadUserRecord(db, auth.userId) } };
    },
  });

  r.post('/auth/logout', {
    config: { access: 'authenticated' },
    schema: { tags: ['auth'], response: responses({ 200: messageEnvelope }) },
    // The page cookie goes whatever the answer: the client also signs out this way after a
    // 401, when the session has already ended, and it cannot delete an HttpOnly cookie itself.
    onSend: async (request, reply, payload) => {
      clearPageCookies(request, reply);
      return payload;
    },
    handler: async (request) => {
      await revokeSession(db, requireAuth(request).sessionId);
      return { success: true as const, message: 'Logged out' };
    },
  });

  r.post('/auth/change-password', {
    config: {
      access: 'authenticated',
      // Each call checks the current password: the same ceiling as resets, per address.
      rateLimit: limits.enabled ? { max: limits.resetsPerAddressPerHour, timeWindow: 3_600_000 } : false,
    },
    schema: {
      tags: ['auth'],
      description:
        'Changes the signed-in user’s password (current password required). The new one follows the reset rules and must not be a common password. Every other session of the user ends; this one stays.',
      body: changePasswordSchema,
      response: responses({ 200: messageEnvelope }),
    },
    handler: async (request) => {
      await changePassword(db, requireAuth(request), request.body);
      return { success: true as const, message: PASSWORD_CHANGED_MESSAGE };
    },
  });

  r.post('/auth/forgot-password', {
    config: {
      access: 'public',
      rateLimit: limits.enabled ? { max: limits.resetsPerAddressPerHour, timeWindow: 3_600_000 } : false,
    },
    schema: { tags: ['auth'], body: forgotPasswordSchema, response: responses({ 200: messageEnvelope }) },
    handler: async (request) => {
      const email = (request.body.email ?? '').trim().toLowerCase();
      if (email) {
        const [user] = await db
          .select({ id: users.id, firstName: users.firstName, lastName: users.lastName })
          .from(users)
          .where(eq(sql`lower(${users.email})`, email))
          .limit(1);
        // Staff see the request in the logs; the answer is the same either way.
        await recordActivity(db, {
          type: 'password_reset_requested',
          userId: user?.id ?? null,
          userName: user ? displayName(user) : null,
          description: `Password reset requested for ${email.slice(0, 254)}`,
          details: user
            ? 'Account exists: generate a reset link in Password Reset Management'
            : 'No account with this email',
          metadata: { ip: request.ip },
        });
      }
      return { success: true as const, message: FORGOT_PASSWORD_MESSAGE };
    },
  });
}
