// The session token, also carried by a cookie on page requests, so the server can render a
// signed-in rider's own page (/me) in the HTML instead of an empty shell that waits for the
// scripts, then the session check, then the screen (3.2 s to the largest paint on slow
// mobile data). The web client writes and removes the cookie together with the token it
// stores (apps/web/src/lib/storage.ts), so it never outlives the session on the device.
// Only the page routes read it: the API authenticates by the Authorization header alone
// (lib/authorize.ts), so a request another site makes the browser send gains nothing from it.
import { SESSION_COOKIE } from '@rally/shared/catalog';
import type { FastifyRequest } from 'fastify';

const TOKEN = /^[A-Za-z0-9_-]{16,200}$/;

/** The token in the request's session cookie, or null (none, or not shaped like a token). */
export function sessionCookieToken(request: FastifyRequest): string | null {
  const header = request.headers.cookie;
  if (!header) return null;
  for (const part of header.split(';')) {
    const eq = part.indexOf('=');
    if (eq < 0 || part.slice(0, eq).trim() !== SESSION_COOKIE) continue;
    const value = part.slice(eq + 1).trim();
    return TOKEN.test(value) ? value : null;
  }
  return null;
}
