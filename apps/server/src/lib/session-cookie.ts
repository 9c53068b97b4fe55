// The cookie that lets the server render a signed-in rider's own page (/me, and its old
// address /profile) in the HTML instead of an empty shell that waits for the scripts, then the
// session check, then the screen (3.2 s to the largest paint on slow mobile data).
//
// The server sets it, never the page's scripts: in its answers that start or renew a rider's
// session (sign-in, registration, refresh) and to the session check every app start makes
// (GET /api/auth/profile, which also gives it to a session from before it existed). It is:
// - HttpOnly, so a script (an injected one included) can neither read nor write it;
// - SameSite=Lax, Secure when the request came over https (as the trusted proxies report it);
// - Path=/me and Path=/profile, the only pages that read it: no API request carries it, and
//   the API authenticates by the Authorization header alone (lib/authorize.ts), so a request
//   another site makes the browser send gains nothing from it;
// - for rider accounts only (RIDER_ROLES): staff pages are never rendered this way, and a
//   staff sign-in or session check clears a rider's cookie left on the device;
// - as long-lived as the session (Max-Age to its expiry).
//
// Its value is not the bearer token but `<session id>.<MAC>`, the MAC an HMAC-SHA256 keyed by
// the session's stored token hash (which never leaves the server). It only opens this page:
// whoever gets it (a log, a proxy, a browser profile copied off the phone) cannot call the API
// with it, and it needs no column or secret of its own. It is bound to its session: the page
// looks the session up by id and renders only while that session is live and unrevoked, so
// the cookie dies with the session (sign-out, refresh, expiry, deactivation), and a refresh's
// new session comes with a new cookie. The same session always gets the same value, so two
// tabs starting at once cannot leave a cookie that no longer matches.
//
// One thing an HttpOnly cookie cannot do is leave with a sign-out the server never hears of
// (a rider signing out offline on a shared phone): the scripts cannot delete it. So a second,
// script-readable cookie goes with it, the mark, derived from the credential (it opens
// nothing), which the server sets and clears with the credential and the client only deletes
// on sign-out (apps/web/src/lib/storage.ts). The page is rendered only when both come and
// match; a credential without its mark is cleared, unused.
import { createHash, createHmac, timingSafeEqual } from 'node:crypto';
import { isRiderRole } from '@rally/shared/catalog/accounts';
import { SESSION_COOKIE, SESSION_MARK_COOKIE } from '@rally/shared/catalog/web-client';
import { and, eq, isNull } from 'drizzle-orm';
import type { FastifyReply, FastifyRequest } from 'fastify';
import type { Db } from '../db/client';
import { sessions } from '../db/schema/sessions';
import { liveSessionQuery } from './authorize';
import { oncePerDb } from './per-db';
import { sha256Hex } from './tokens';

/** The pages that read the cookie (modules/profiles/my-profile-page.routes.ts): its paths. */
export const PAGE_COOKIE_PATHS = ['/me', '/profile'] as const;

const CREDENTIAL = /^([0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12})\.([A-Za-z0-9_-]{43})$/;

function mac(tokenHash: string): string {
  return createHmac('sha256', tokenHash).update('rally page: my profile').digest('base64url');
}

function markOf(credential: string): string {
  return createHash('sha256').update(credential).digest('base64url').slice(0, 22);
}

/** Every value the request's Cookie header gives `name` (a name may come once per path). */
function cookieValues(request: FastifyRequest, name: string): string[] {
  const header = request.headers.cookie;
  if (!header) return [];
  const values: string[] = [];
  for (const part of header.split(';')) {
    const eq = part.indexOf('=');
    if (eq >= 0 && part.slice(0, eq).trim() === name) values.push(part.slice(eq + 1).trim());
  }
  return values;
}

export interface PageCredential {
  sessionId: string;
  mac: string;
}

/**
 * The page credential a page request carries with its matching mark, or null; `clear` says
 * whether the answer should remove what came instead (a credential without its mark, or a
 * leftover of the cookie older clients wrote with the bearer token in it).
 */
export function readPageCredential(request: FastifyRequest): { credential: PageCredential | null; clear: boolean } {
  const values = cookieValues(request, SESSION_COOKIE);
  const marks = new Set(cookieValues(request, SESSION_MARK_COOKIE));
  for (const value of values) {
    const match = CREDENTIAL.exec(value);
    if (match?.[1] && match[2] && marks.has(markOf(value))) {
      return { credential: { sessionId: match[1], mac: match[2] }, clear: false };
    }
  }
  return { credential: null, clear: values.length > 0 || marks.size > 0 };
}

const pageSessionQuery = oncePerDb((db) => liveSessionQuery(db, 'id', 'find_page_session'));

/** The live session a page credential belongs to, or null (unknown, ended, or a forged MAC). */
export async function findPageSession(
  db: Db,
  credential: PageCredential,
): Promise<{ userId: string; role: string; status: string; verificationStatus: string | null } | null> {
  const [row] = await pageSessionQuery(db).execute({ key: credential.sessionId, now: new Date().toISOString() });
  if (!row) return null;
  const expected = Buffer.from(mac(row.tokenHash));
  const given = Buffer.from(credential.mac);
  if (expected.length !== given.length || !timingSafeEqual(expected, given)) return null;
  const { userId, role, status, verificationStatus } = row;
  return { userId, role, status, verificationStatus };
}

/** Whether an account's own page is rendered by the server (and so gets the cookie). */
export function rendersOwnPage(role: string): boolean {
  return isRiderRole(role);
}

function line(request: FastifyRequest, name: string, value: string, path: string, maxAge: number, httpOnly: boolean) {
  const secure = request.protocol === 'https' ? '; Secure' : '';
  return `${name}=${value}; Path=${path}; Max-Age=${maxAge}${httpOnly ? '; HttpOnly' : ''}; SameSite=Lax${secure}`;
}

/** The cookie older clients wrote from the page (Path=/, the bearer token in it): gone when seen. */
function legacyClear(request: FastifyRequest): string[] {
  const legacy = cookieValues(request, SESSION_COOKIE).some((value) => !CREDENTIAL.test(value));
  return legacy ? [line(request, SESSION_COOKIE, '', '/', 0, false)] : [];
}

function setCookies(reply: FastifyReply, lines: string[]) {
  if (lines.length === 0) return;
  // An answer that sets a session's cookie is nobody else's to keep.
  reply.header('set-cookie', lines).header('cache-control', 'private, no-store');
}

/** Removes the page credential and its mark (and any leftover of older clients). */
export function clearPageCookies(request: FastifyRequest, reply: FastifyReply): void {
  const lines = PAGE_COOKIE_PATHS.flatMap((path) => [
    line(request, SESSION_COOKIE, '', path, 0, true),
    line(request, SESSION_MARK_COOKIE, '', path, 0, false),
  ]);
  setCookies(reply, [...lines, ...legacyClear(request)]);
}

/**
 * Sets the page cookie for the session of `token` when its account's page is rendered by the
 * server, and clears it otherwise (a staff sign-in after a rider's on the same device).
 */
export async function grantPageCookies(
  db: Db,
  request: FastifyRequest,
  reply: FastifyReply,
  session: { token: string; role: string },
): Promise<void> {
  if (!rendersOwnPage(session.role)) return clearPageCookies(request, reply);
  const tokenHash = sha256Hex(session.token);
  const [row] = await db
    .select({ id: sessions.id, expiresAt: sessions.expiresAt })
    .from(sessions)
    .where(and(eq(sessions.tokenHash, tokenHash), isNull(sessions.revokedAt)))
    .limit(1);
  const maxAge = row ? Math.floor((row.expiresAt.getTime() - Date.now()) / 1000) : 0;
  if (!row || maxAge <= 0) return clearPageCookies(request, reply);
  const credential = `${row.id}.${mac(tokenHash)}`;
  const mark = markOf(credential);
  const lines = PAGE_COOKIE_PATHS.flatMap((path) => [
    line(request, SESSION_COOKIE, credential, path, maxAge, true),
    line(request, SESSION_MARK_COOKIE, mark, path, maxAge, false),
  ]);
  setCookies(reply, [...lines, ...legacyClear(request)]);
}
