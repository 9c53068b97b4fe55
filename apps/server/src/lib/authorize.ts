// Route access, declared on every API route as `config.access` and enforced here before
// the body is read. The route table collected at start-up is what the generated
// authorization tests walk, so a route without a declaration refuses to register.
import type { Role, VerificationStatus } from '@rally/shared/catalog/accounts';
import { can, type Permission } from '@rally/shared/permissions';
import { and, eq, gt, isNull, sql } from 'drizzle-orm';
import type { FastifyInstance, FastifyRequest } from 'fastify';
import fp from 'fastify-plugin';
import type { Db } from '../db/client';
import { entries } from '../db/schema/entries';
import { sessions } from '../db/schema/sessions';
import { users } from '../db/schema/users';
import { ForbiddenError, UnauthorizedError } from './errors';
import { oncePerDb } from './per-db';
import { ownEntry } from './riders';
import { sha256Hex } from './tokens';

export type Access =
  | 'public'
  | 'authenticated'
  | 'verified'
  | { permission: Permission }
  // Held by the union of the permissions' roles (e.g. the station list: scanners and the console).
  | { anyPermission: readonly Permission[] }
  | { roles: readonly Role[] };

export interface AuthContext {
  sessionId: string;
  userId: string;
  role: Role;
  firstName: string;
  lastName: string;
  email: string;
  verificationStatus: VerificationStatus | null;
}

export interface RouteEntry {
  method: string;
  url: string;
  access: Access;
}

declare module 'fastify' {
  interface FastifyContextConfig {
    access?: Access;
  }
  interface FastifyRequest {
    auth: AuthContext | null;
  }
  interface FastifyInstance {
    routeTable: RouteEntry[];
  }
}

export function describeAccess(access: Access): string {
  if (typeof access === 'string') return access;
  if ('permission' in access) return `permission:${access.permission}`;
  if ('anyPermission' in access) return `any-permission:${access.anyPermission.join(',')}`;
  return `roles:${access.roles.join(',')}`;
}

/** Whether an actor satisfies a declaration; the one rule the hook and the tests share. */
export function accessAllows(
  access: Access,
  actor: { role: string; verificationStatus: string | null } | null,
): 'ok' | 401 | 403 {
  if (access === 'public') return 'ok';
  if (!actor) return 401;
  if (access === 'authenticated') return 'ok';
  if (access === 'verified') return actor.verificationStatus === 'verified' ? 'ok' : 403;
  if ('permission' in access) return can(actor.role, access.permission) ? 'ok' : 403;
  if ('anyPermission' in access) return access.anyPermission.some((p) => can(actor.role, p)) ? 'ok' : 403;
  return (access.roles as readonly string[]).includes(actor.role) ? 'ok' : 403;
}

/**
 * The token of the request's `Authorization: Bearer` header: null without the header, '' when
 * it is there but not a token (refused like an unknown one on every route that is not public).
 */
export function bearerToken(request: FastifyRequest): string | null {
  const header = request.headers.authorization;
  if (!header) return null;
  const match = /^Bearer\s+([A-Za-z0-9_-]{16,200})$/.exec(header.trim());
  return match?.[1] ?? '';
}

// Runs on every request that carries a token, so it is prepared once per database.
/**
 * The live (unrevoked, unexpired) session found by its token hash or by its id, with its
 * account: the one definition of a session that still opens something, read by the API's
 * bearer check here and by the page cookie (lib/session-cookie.ts).
 */
export function liveSessionQuery(db: Db, by: 'tokenHash' | 'id', name: string) {
  return db
    .select({
      sessionId: sessions.id,
      tokenHash: sessions.tokenHash,
      userId: users.id,
      role: users.role,
      status: users.status,
      firstName: users.firstName,
      lastName: users.lastName,
      email: users.email,
      verificationStatus: entries.status,
    })
    .from(sessions)
    .innerJoin(users, eq(users.id, sessions.userId))
    .leftJoin(entries, ownEntry)
    .where(
      and(
        eq(by === 'id' ? sessions.id : sessions.tokenHash, sql.placeholder('key')),
        isNull(sessions.revokedAt),
        gt(sessions.expiresAt, sql.placeholder('now')),
      ),
    )
    .limit(1)
    .prepare(name);
}

const sessionQuery = oncePerDb((db) => liveSessionQuery(db, 'tokenHash', 'find_session'));

export async function findSession(db: Db, token: string): Promise<(AuthContext & { status: string }) | null> {
  const [row] = await sessionQuery(db).execute({ key: sha256Hex(token), now: new Date().toISOString() });
  if (!row) return null;
  const { tokenHash: _tokenHash, ...session } = row;
  return session;
}

export type AccessVerdict =
  | { ok: true; auth: AuthContext | null }
  | { ok: false; error: UnauthorizedError | ForbiddenError };

/**
 * Whether the holder of `token` (as bearerToken reads it) may use a route declaring `access`,
 * and as whom: the verdict of the access hook, also asked again by what outlives its request
 * (the event stream, before each burst it writes), so both refuse alike.
 */
export async function checkAccess(db: Db, token: string | null, access: Access): Promise<AccessVerdict> {
  let auth: AuthContext | null = null;
  if (token) {
    const session = await findSession(db, token);
    if (session && session.status === 'active') {
      const { status: _status, ...rest } = session;
      auth = rest;
    } else if (access !== 'public') {
      // A deactivated rider is told so, rather than seeing a generic session error.
      if (session)
        return {
          ok: false,
          error: new UnauthorizedError(
            'Your account has been deactivated. Please contact the organizers.',
            'ACCOUNT_INACTIVE',
          ),
        };
      return { ok: false, error: invalidSession() };
    }
  } else if (token === '' && access !== 'public') {
    return { ok: false, error: invalidSession() };
  }
  const verdict = accessAllows(access, auth);
  if (verdict === 401) return { ok: false, error: new UnauthorizedError() };
  if (verdict === 403) {
    if (access === 'verified')
      return { ok: false, error: new ForbiddenError('Your account must be verified to do this', 'NOT_VERIFIED') };
    return { ok: false, error: new ForbiddenError() };
  }
  return { ok: true, auth };
}

function invalidSession(): UnauthorizedError {
  return new UnauthorizedError('Invalid or expired session. Please log in again.', 'INVALID_SESSION');
}

export const authorizePlugin = fp(async (app: FastifyInstance, opts: { db: Db }) => {
  app.decorate('routeTable', [] as RouteEntry[]);
  app.decorateRequest('auth', null);

  app.addHook('onRoute', (route) => {
    if (!route.url.startsWith('/api/') || route.url.startsWith('/api/docs')) return;
    const access = route.config?.access;
    if (!access) throw new Error(`Route ${route.method} ${route.url} declares no config.access`);
    const methods = Array.isArray(route.method) ? route.method : [route.method];
    for (const method of methods) {
      if (method === 'HEAD') continue;
      app.routeTable.push({ method, url: route.url, access });
    }
  });

  app.addHook('onRequest', async (request) => {
    const access = request.routeOptions.config?.access;
    if (!access) return;
    const verdict = await checkAccess(opts.db, bearerToken(request), access);
    if (!verdict.ok) throw verdict.error;
    request.auth = verdict.auth;
  });
});

/** The signed-in user of a route whose access guarantees one. */
export function requireAuth(request: FastifyRequest): AuthContext {
  if (!request.auth) throw new UnauthorizedError();
  return request.auth;
}
