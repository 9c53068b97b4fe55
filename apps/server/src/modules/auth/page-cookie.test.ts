// Issue 26 (7): the cookie that lets the server render /me held the full bearer token, was
// written by the page's scripts (so readable by any script) and was set for staff too. The
// server now sets it (lib/session-cookie.ts): HttpOnly, SameSite=Lax, Secure over https, on the
// pages that read it, for riders only, as long as the session, holding a credential that opens
// that page alone. Whether it renders (and stops rendering when the session ends) is checked
// where the page is rendered: modules/profiles/profile-page.test.ts.
import { SESSION_TTL_MS, STAFF_ROLES } from '@rally/shared/catalog/accounts';
import { SESSION_COOKIE, SESSION_MARK_COOKIE } from '@rally/shared/catalog/web-client';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { buildTestApp, DB_KINDS, type TestApp } from '../../test/build-app';
import {
  bearer,
  login,
  multipart,
  registerRider,
  registrationFields,
  registrationFiles,
  staff,
} from '../../test/factories';
import { type SetCookie, setCookies } from '../../test/page-cookie';

const PAGE_COOKIES = [SESSION_COOKIE, SESSION_MARK_COOKIE];
const pageCookies = (res: Parameters<typeof setCookies>[0]) =>
  setCookies(res).filter((c) => PAGE_COOKIES.includes(c.name));
const isSet = (c: SetCookie) => c.value !== '' && Number(c.attributes['max-age']) > 0;
const isCleared = (c: SetCookie) => c.value === '' && c.attributes['max-age'] === '0';

/** The page cookie and its mark, set on exactly /me and /profile, as an answer to a rider gives them. */
function expectGranted(res: Parameters<typeof setCookies>[0], token: string, secure = false) {
  // (Less the removal of an older client's cookie, see the last test.)
  const cookies = pageCookies(res).filter((c) => !(c.attributes.path === '/' && isCleared(c)));
  expect(cookies.map((c) => `${c.name} ${c.attributes.path}`).sort()).toEqual(
    [
      `${SESSION_COOKIE} /me`,
      `${SESSION_COOKIE} /profile`,
      `${SESSION_MARK_COOKIE} /me`,
      `${SESSION_MARK_COOKIE} /profile`,
    ].sort(),
  );
  for (const c of cookies) {
    expect(isSet(c), c.name).toBe(true);
    expect(c.attributes.samesite).toBe('Lax');
    expect('secure' in c.attributes, `${c.name} Secure`).toBe(secure);
    // As long as the session: a fresh one lasts SESSION_TTL_MS.
    const maxAge = Number(c.attributes['max-age']);
    expect(maxAge).toBeGreaterThan(SESSION_TTL_MS / 1000 - 60);
    expect(maxAge).toBeLessThanOrEqual(SESSION_TTL_MS / 1000);
    // Not the bearer token, nor anything it can be read from.
    expect(c.value).not.toContain(token);
  }
  const credential = cookies.filter((c) => c.name === SESSION_COOKIE);
  // Only the server reads the credential; the mark is the client's to delete on sign-out.
  for (const c of credential) expect('httponly' in c.attributes).toBe(true);
  for (const c of cookies.filter((c) => c.name === SESSION_MARK_COOKIE)) expect('httponly' in c.attributes).toBe(false);
  // One value for both paths.
  expect(new Set(credential.map((c) => c.value)).size).toBe(1);
  expect(res.headers['cache-control']).toBe('private, no-store');
  return credential[0]?.value ?? '';
}

function expectCleared(res: Parameters<typeof setCookies>[0]) {
  const cookies = pageCookies(res);
  expect(cookies.length).toBeGreaterThanOrEqual(4);
  for (const c of cookies) expect(isCleared(c), `${c.name} ${c.attributes.path}: ${c.value}`).toBe(true);
  expect(cookies.filter((c) => c.name === SESSION_COOKIE).map((c) => c.attributes.path)).toEqual(
    expect.arrayContaining(['/me', '/profile']),
  );
}

describe.each(DB_KINDS)('the /me page cookie (%s)', (kind) => {
  let t: TestApp;
  beforeAll(async () => {
    // Behind a proxy on 10.0.0.0/8, which says whether the client came over https.
    t = await buildTestApp(kind, { trustProxy: ['10.0.0.0/8'] });
  });
  afterAll(() => t?.close());

  const profile = (token: string) => t.app.inject({ method: 'GET', url: '/api/auth/profile', headers: bearer(token) });

  it('comes with a rider’s sign-in: HttpOnly, SameSite=Lax, on /me and /profile, as long as the session', async () => {
    const rider = await registerRider(t.app);
    const res = await login(t.app, rider.email);
    expect(res.statusCode).toBe(200);
    expectGranted(res, res.json().token);
    // Nothing for every path any more, as the page's scripts once wrote it.
    expect(setCookies(res).some((c) => c.attributes.path === '/' && isSet(c))).toBe(false);
  });

  it('comes with a registration, a refresh and the session check of an app start', async () => {
    const fields = registrationFields();
    const registered = await t.app.inject({
      method: 'POST',
      url: '/api/auth/register-with-uploads',
      ...multipart(fields, await registrationFiles()),
    });
    expect(registered.statusCode, registered.body).toBe(201);
    const token: string = registered.json().token;
    const first = expectGranted(registered, token);

    // The session check gives the same session the same cookie (two tabs cannot disagree).
    expect(expectGranted(await profile(token), token)).toBe(first);

    const refreshed = await t.app.inject({ method: 'POST', url: '/api/auth/refresh', headers: bearer(token) });
    expect(refreshed.statusCode).toBe(200);
    const next = expectGranted(refreshed, refreshed.json().token);
    // A new session, a new cookie: the old one belonged to the session the refresh ended.
    expect(next).not.toBe(first);
  });

  it('is never set for staff, whose sign-in and session check clear a rider’s left on the device', async () => {
    for (const role of STAFF_ROLES) {
      const member = await staff(t.app, t.database.db, role);
      const res = await login(t.app, member.email);
      expect(res.statusCode).toBe(200);
      expect(pageCookies(res).some(isSet), role).toBe(false);
      expectCleared(res);
      const checked = await profile(member.token);
      expect(pageCookies(checked).some(isSet), role).toBe(false);
      expectCleared(checked);
    }
  });

  it('is Secure when the request came over https, as the trusted proxy says, and only then', async () => {
    const rider = await registerRider(t.app);
    const viaProxy = (remoteAddress: string, proto: string) =>
      t.app.inject({
        method: 'POST',
        url: '/api/auth/login',
        remoteAddress,
        headers: { 'x-forwarded-proto': proto, 'x-forwarded-for': '198.51.100.7' },
        payload: { email: rider.email, password: 'Warrior2025!' },
      });
    const https = await viaProxy('10.0.0.2', 'https');
    expectGranted(https, https.json().token, true);
    const http = await viaProxy('10.0.0.2', 'http');
    expectGranted(http, http.json().token, false);
    // A client that is not the proxy cannot claim https for itself.
    const claimed = await viaProxy('203.0.113.9', 'https');
    expectGranted(claimed, claimed.json().token, false);
    // Clearing over https is Secure too, or the browser would not let it replace the cookie.
    const out = await t.app.inject({
      method: 'POST',
      url: '/api/auth/logout',
      remoteAddress: '10.0.0.2',
      headers: { ...bearer(https.json().token), 'x-forwarded-proto': 'https' },
    });
    for (const c of pageCookies(out)) expect('secure' in c.attributes).toBe(true);
  });

  it('is cleared by a sign-out, also one after the session has already ended (a 401)', async () => {
    const rider = await registerRider(t.app);
    const token: string = (await login(t.app, rider.email)).json().token;
    const out = await t.app.inject({ method: 'POST', url: '/api/auth/logout', headers: bearer(token) });
    expect(out.statusCode).toBe(200);
    expectCleared(out);
    // The client signs out the same way after a 401: the session is gone, the cookie goes too.
    const again = await t.app.inject({ method: 'POST', url: '/api/auth/logout', headers: bearer(token) });
    expect(again.statusCode).toBe(401);
    expectCleared(again);
  });

  it('clears the bearer-token cookie older clients wrote for every path', async () => {
    const rider = await registerRider(t.app);
    const res = await t.app.inject({
      method: 'GET',
      url: '/api/auth/profile',
      headers: { ...bearer(rider.token), cookie: `${SESSION_COOKIE}=${rider.token}` },
    });
    expectGranted(res, rider.token);
    const legacy = setCookies(res).filter((c) => c.attributes.path === '/');
    expect(legacy).toHaveLength(1);
    expect(legacy[0]?.name).toBe(SESSION_COOKIE);
    expect(isCleared(legacy[0] as SetCookie)).toBe(true);
  });
});
