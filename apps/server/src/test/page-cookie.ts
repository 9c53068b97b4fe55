// The page cookie (lib/session-cookie.ts) as a browser keeps it: read from an answer's
// Set-Cookie, sent back on a page request the way the browser would.
import { SESSION_COOKIE, SESSION_MARK_COOKIE } from '@rally/shared/catalog/web-client';
import type { FastifyInstance } from 'fastify';
import { bearer } from './factories';

export interface SetCookie {
  name: string;
  value: string;
  /** Attribute names in lower case; a flag (HttpOnly, Secure) has the value ''. */
  attributes: Record<string, string>;
}

interface WithHeaders {
  headers: Record<string, string | string[] | number | undefined>;
}

/** Every Set-Cookie of an answer, parsed. */
export function setCookies(res: WithHeaders): SetCookie[] {
  const raw = res.headers['set-cookie'];
  const lines = raw === undefined ? [] : Array.isArray(raw) ? raw : [String(raw)];
  return lines.map((line) => {
    const [pair = '', ...rest] = line.split(';');
    const eq = pair.indexOf('=');
    const attributes: Record<string, string> = {};
    for (const part of rest) {
      const at = part.indexOf('=');
      const key = (at < 0 ? part : part.slice(0, at)).trim().toLowerCase();
      attributes[key] = at < 0 ? '' : part.slice(at + 1).trim();
    }
    return { name: pair.slice(0, eq).trim(), value: pair.slice(eq + 1).trim(), attributes };
  });
}

/** The Cookie header a browser holding an answer's page cookies sends with a request for `path`. */
export function pageCookieHeader(res: WithHeaders, path = '/me'): string {
  const kept = setCookies(res).filter(
    (c) =>
      (c.name === SESSION_COOKIE || c.name === SESSION_MARK_COOKIE) &&
      c.attributes.path === path &&
      c.value !== '' &&
      Number(c.attributes['max-age']) > 0,
  );
  if (kept.length !== 2) throw new Error(`no page cookie for ${path} in ${JSON.stringify(res.headers['set-cookie'])}`);
  return kept.map((c) => `${c.name}=${c.value}`).join('; ');
}

/** The page cookie of a signed-in session, as its app start (the session check) gets it. */
export async function pageCookieOf(app: FastifyInstance, token: string, path = '/me'): Promise<string> {
  const res = await app.inject({ method: 'GET', url: '/api/auth/profile', headers: bearer(token) });
  if (res.statusCode !== 200) throw new Error(`session check failed: ${res.statusCode} ${res.body}`);
  return pageCookieHeader(res, path);
}
