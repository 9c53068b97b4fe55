// The server-rendered profile pages, the public profile (/user/{id}) and the signed-in rider's
// own (/me, by the page cookie the server sets: lib/session-cookie.ts), with the web client's real renderer: the
// test runs the web build's own prerender step (apps/web/scripts/prerender.mjs) on a
// directory holding the web client's index.html, which builds dist/ssr as the server reads it.
import { execFile } from 'node:child_process';
import { cpSync, mkdirSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { promisify } from 'node:util';
import { brotliDecompressSync, gunzipSync } from 'node:zlib';
import {
  MY_PROFILE_QUERY_KEYS,
  publicProfileQueryKey,
  SESSION_COOKIE,
  SESSION_MARK_COOKIE,
  SESSION_SEED_KEY,
} from '@rally/shared/catalog/web-client';
import { eq } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { sessions } from '../../db/schema/sessions';
import { users } from '../../db/schema/users';
import { sha256Hex } from '../../lib/tokens';
import { buildTestApp, DB_KINDS, type TestApp } from '../../test/build-app';
import { deactivate, verifiedRider } from '../../test/community-factories';
import { login, registerRider } from '../../test/factories';
import { pageCookieHeader, pageCookieOf, setCookies } from '../../test/page-cookie';

const webDir = fileURLToPath(new URL('../../../../web', import.meta.url));
const SEED = /<script type="application\/json" id="query-seed">([\s\S]*?)<\/script>/;
const HOSTILE = '</script><script>alert("pwned")</script><!--';

const seedOf = (html: string) => JSON.parse(SEED.exec(html)?.[1] ?? 'null');

let dist: string;
let shell: string;

beforeAll(async () => {
  dist = mkdtempSync(path.join(tmpdir(), 'rally-ssr-'));
  mkdirSync(path.join(dist, 'assets'));
  writeFileSync(path.join(dist, 'index.html'), readFileSync(path.join(webDir, 'index.html')));
  shell = readFileSync(path.join(dist, 'index.html'), 'utf8');
  await promisify(execFile)(process.execPath, [path.join(webDir, 'scripts', 'prerender.mjs'), dist], {
    cwd: webDir,
    maxBuffer: 16 * 1024 * 1024,
  });
}, 300_000);
afterAll(() => rmSync(dist, { recursive: true, force: true }));

describe.each(DB_KINDS)('GET /user/:id rendered by the server (%s)', (kind) => {
  let t: TestApp;
  let rider: Awaited<ReturnType<typeof verifiedRider>>;
  let hostile: Awaited<ReturnType<typeof verifiedRider>>;

  beforeAll(async () => {
    t = await buildTestApp(kind, { webDist: dist });
    rider = await verifiedRider(t.app, t.database.db, { kitName: 'AGILA NG SILANGAN', firstName: 'Agila' });
    hostile = await verifiedRider(t.app, t.database.db, { firstName: 'Bituin' });
    // Written directly: whatever registration allows, the page must survive any stored name.
    await t.database.db.update(users).set({ kitName: HOSTILE }).where(eq(users.id, hostile.userId));
  });
  afterAll(() => t?.close());

  const get = (url: string) => t.app.inject({ method: 'GET', url });

  it('sends the profile drawn in the HTML, with the API answer inlined for the client', async () => {
    for (const url of [`/user/${rider.userId}`, `/user/${rider.userId}?from=qr`]) {
      const res = await get(url);
      expect(res.statusCode, url).toBe(200);
      expect(res.headers['content-type'], url).toBe('text/html; charset=utf-8');
      expect(res.headers['cache-control'], url).toBe('no-cache');
      const root = /<div id="root">([\s\S]*)<\/div><script type="application\/json"/.exec(res.body)?.[1] ?? '';
      expect(root, url).toMatch(/<h1[^>]*>AGILA NG SILANGAN<\/h1>/);
      expect(root, url).toContain('GIVE FIRE');
      expect(res.body, url).toContain(
        '<title>AGILA NG SILANGAN — Warrior Profile | Mindanao Warriors Endurance Rally</title>',
      );
      // The scripts wait, inert, for the first paint (as on the prerendered pages).
      expect(res.body, url).toContain('<template id="app-scripts">');
      // Nothing the CSP would refuse: no inline script runs, no inline style.
      expect(res.body, url).not.toMatch(/<script(?![^>]*\ssrc=)(?![^>]*type="application\/json")[^>]*>/i);
      expect(root, url).not.toMatch(/\sstyle=/i);

      const api = await get(`/api/users/${rider.userId}/profile`);
      expect(seedOf(res.body), url).toEqual([
        { queryKey: [...publicProfileQueryKey(rider.userId)], data: api.json().data },
      ]);
    }
  });

  it('sends every other spelling of the id to the one canonical page, rendered and cached once', async () => {
    const id = rider.userId;
    const encoded = [...id].map((c) => `%${c.charCodeAt(0).toString(16)}`).join('');
    const cases: Array<[string, string]> = [
      [`/user/${id.toUpperCase()}`, `/user/${id}`],
      [`/user/${encoded}`, `/user/${id}`],
      [`/user/${id}/`, `/user/${id}`],
      [`/user/${id.toUpperCase()}/?from=qr&x=%20y`, `/user/${id}?from=qr&x=%20y`],
    ];
    for (const [url, location] of cases) {
      const res = await get(url);
      expect(res.statusCode, url).toBe(301);
      expect(res.headers.location, url).toBe(location);
    }
    t.app.answerCache.invalidate();
    await get(`/user/${id}`);
    const slots = t.app.answerCache.size;
    for (const [url] of cases) await get(url);
    // The API too: the same rider under capitals is the same stored answer.
    const api = await get(`/api/users/${id.toUpperCase()}/profile`);
    expect(api.statusCode).toBe(200);
    expect(api.json().data.id).toBe(id);
    expect(t.app.answerCache.size).toBe(slots);
    // Not an id at all: the app shell (its client says "User not found"), never a redirect.
    for (const url of ['/user/not-an-id', '/user/not%20an%20id/', '/user/%2F%2Fevil.example']) {
      const res = await get(url);
      expect(res.statusCode, url).toBe(200);
      expect(res.body, url).toBe(shell);
    }
  });

  it('renders a shared link once and draws the next change', async () => {
    const url = `/user/${rider.userId}`;
    const first = (await get(url)).body;
    expect((await get(url)).body).toBe(first);
    const fan = await verifiedRider(t.app, t.database.db, { firstName: 'Tagahanga' });
    const fire = await t.app.inject({
      method: 'POST',
      url: `/api/users/${rider.userId}/fire`,
      headers: { authorization: `Bearer ${fan.token}` },
    });
    expect(fire.statusCode, fire.body).toBe(200);
    const after = await get(url);
    expect(seedOf(after.body)[0].data.stats.fires).toBe(seedOf(first)[0].data.stats.fires + 1);
    expect(seedOf(after.body)[0].data).toEqual((await get(`/api/users/${rider.userId}/profile`)).json().data);
  });

  it('sends the page compressed to browsers that accept it', async () => {
    const plain = (await get(`/user/${rider.userId}`)).body;
    for (const [encoding, decode] of [
      ['br', brotliDecompressSync],
      ['gzip', gunzipSync],
    ] as const) {
      const res = await t.app.inject({
        method: 'GET',
        url: `/user/${rider.userId}`,
        headers: { 'accept-encoding': `gzip, deflate, ${encoding}` },
      });
      expect(res.headers['content-encoding']).toBe(encoding);
      expect(res.headers.vary).toContain('accept-encoding');
      expect(decode(res.rawPayload).toString()).toBe(plain);
    }
  });

  it('escapes a name that would close the data block', async () => {
    const res = await get(`/user/${hostile.userId}`);
    expect(res.statusCode).toBe(200);
    // One data block, ended by its own tag only; the name reads back intact.
    expect(res.body.match(/<script type="application\/json"/g)).toHaveLength(1);
    expect(res.body).not.toContain('<script>alert');
    const block = SEED.exec(res.body)?.[1] ?? '';
    expect(block).not.toContain('<');
    expect(seedOf(res.body)[0].data.kitName).toBe(HOSTILE);
    // In the markup React escapes it as text.
    expect(res.body).toContain('&lt;/script&gt;&lt;script&gt;alert(&quot;pwned&quot;)&lt;/script&gt;&lt;!--');
  });

  it('sends the plain shell for unknown, malformed and deactivated ids', async () => {
    const gone = await verifiedRider(t.app, t.database.db, { firstName: 'Gone' });
    await deactivate(t.database.db, gone.userId);
    for (const url of [
      '/user/00000000-0000-4000-8000-000000000000',
      '/user/not-a-user',
      `/user/${gone.userId}`,
      '/user/',
      '/user',
    ]) {
      const res = await get(url);
      expect(res.statusCode, url).toBe(200);
      expect(res.body, url).toBe(shell);
    }
  });

  it('keeps the renderer itself from being downloaded', async () => {
    for (const url of ['/ssr/entry-server.js', '/ssr/shell.html']) {
      const res = await get(url);
      expect(res.body, url).toBe(shell);
    }
  });

  describe('when rendering fails', () => {
    let broken: string;
    let b: TestApp;

    beforeAll(async () => {
      // The same build, but its shell has lost the root the page goes into: the renderer throws.
      broken = mkdtempSync(path.join(tmpdir(), 'rally-ssr-broken-'));
      cpSync(dist, broken, { recursive: true });
      const shellFile = path.join(broken, 'ssr', 'shell.html');
      writeFileSync(shellFile, readFileSync(shellFile, 'utf8').replace('<div id="root"></div>', ''));
      b = await buildTestApp(kind, { webDist: broken });
    });
    afterAll(async () => {
      await b?.close();
      rmSync(broken, { recursive: true, force: true });
    });

    it('sends the plain shell instead of an error', async () => {
      const created = await verifiedRider(b.app, b.database.db, { firstName: 'Datu' });
      const res = await b.app.inject({ method: 'GET', url: `/user/${created.userId}` });
      expect(res.statusCode).toBe(200);
      expect(res.body).toBe(shell);
    });
  });
});

describe.each(DB_KINDS)('GET /me rendered for the page cookie (%s)', (kind) => {
  let t: TestApp;
  let rider: Awaited<ReturnType<typeof verifiedRider>>;
  let cookie: string;

  beforeAll(async () => {
    t = await buildTestApp(kind, { webDist: dist });
    rider = await verifiedRider(t.app, t.database.db, { firstName: 'Malaya', lastName: 'Dimasalang' });
    cookie = await pageCookieOf(t.app, rider.token);
  });
  afterAll(() => t?.close());

  const page = (url: string, cookies?: string) =>
    t.app.inject({ method: 'GET', url, headers: cookies ? { cookie: `theme=dark; ${cookies}` } : {} });
  const api = (method: 'GET' | 'POST', url: string, token: string) =>
    t.app.inject({ method, url, headers: { authorization: `Bearer ${token}` } });
  /** Whether an answer removes the page cookie (and its mark) from the browser. */
  const clears = (res: Parameters<typeof setCookies>[0]) => {
    const mine = setCookies(res).filter((c) => c.name === SESSION_COOKIE && c.attributes.path === '/me');
    return mine.length === 1 && mine[0]?.value === '' && mine[0]?.attributes['max-age'] === '0';
  };

  it('draws the rider’s own page, with the session and its answers inlined, never stored on the way', async () => {
    for (const url of ['/me', '/me/', '/profile', '/me?tab=code']) {
      const res = await page(
        url,
        await pageCookieOf(t.app, rider.token, url.startsWith('/profile') ? '/profile' : '/me'),
      );
      expect(res.statusCode, url).toBe(200);
      expect(res.headers['cache-control'], url).toBe('private, no-store');
      expect(res.headers.vary, url).toBe('cookie, accept-encoding');
      expect(res.headers['set-cookie'], url).toBeUndefined();
      const root = /<div id="root">([\s\S]*)<\/div><script type="application\/json"/.exec(res.body)?.[1] ?? '';
      expect(root, url).toContain('MY PROFILE');
      expect(root, url).toContain('Malaya Dimasalang');
      expect(root, url).not.toContain('Authenticating warrior...');
      expect(res.body, url).toContain('<template id="app-scripts">');
      expect(res.body, url).not.toMatch(/<script(?![^>]*\ssrc=)(?![^>]*type="application\/json")[^>]*>/i);
      expect(root, url).not.toMatch(/\sstyle=/i);
      const seed = seedOf(res.body) as { queryKey: unknown[]; data: unknown }[];
      expect(seed.map((q) => q.queryKey)).toEqual([
        [...SESSION_SEED_KEY],
        [...MY_PROFILE_QUERY_KEYS.tshirt],
        [...MY_PROFILE_QUERY_KEYS.gear],
        [...MY_PROFILE_QUERY_KEYS.eventSettings],
      ]);
      // The very answers the client would have asked for.
      expect(seed[0]?.data).toEqual((await api('GET', '/api/auth/profile', rider.token)).json().data.user);
      expect(seed[1]?.data).toEqual((await api('GET', '/api/my/tshirt-size/status', rider.token)).json().data);
      expect(seed[2]?.data).toEqual((await api('GET', '/api/my/gear-sizes', rider.token)).json().data);
      expect(seed[3]?.data).toEqual((await api('GET', '/api/settings/event', rider.token)).json().data);
    }
  });

  it('sends the plain shell without a cookie, with a malformed or unknown one, or for the unverified', async () => {
    const pending = await registerRider(t.app, { firstName: 'Naghihintay' });
    const [credential = '', mark = ''] = cookie.split('; ');
    const sessionId = credential.slice(`${SESSION_COOKIE}=`.length).split('.')[0];
    const cases: Array<[string, string | undefined, boolean]> = [
      ['no cookie', undefined, false],
      ['malformed', `${SESSION_COOKIE}=not a token!; ${SESSION_MARK_COOKIE}=x`, true],
      // What older clients wrote: the bearer token itself opens nothing now, and is removed.
      ['the bearer token', `${SESSION_COOKIE}=${rider.token}`, true],
      ['a forged MAC', `${SESSION_COOKIE}=${sessionId}.${'A'.repeat(43)}; ${mark}`, true],
      // Signed out offline: the client deleted the mark; the credential alone draws nothing.
      ['the credential without its mark', credential, true],
      ['the mark of another credential', `${credential}; ${SESSION_MARK_COOKIE}=${'B'.repeat(22)}`, true],
      ['an unverified rider', await pageCookieOf(t.app, pending.token), false],
    ];
    for (const [name, cookies, cleared] of cases) {
      const res = await page('/me', cookies);
      expect(res.statusCode, name).toBe(200);
      expect(res.body, name).toBe(shell);
      expect(res.headers.vary, name).toBe('cookie, accept-encoding');
      expect(clears(res), name).toBe(cleared);
    }
  });

  it('draws nothing once the session has ended: a refresh, a sign-out, its expiry', async () => {
    const token = (await login(t.app, rider.email)).json().token as string;
    const first = await pageCookieOf(t.app, token);
    expect((await page('/me', first)).body).toContain('Malaya Dimasalang');
    const refreshed = await api('POST', '/api/auth/refresh', token);
    const next = pageCookieHeader(refreshed);
    expect((await page('/me', next)).body).toContain('Malaya Dimasalang');
    // The refresh ended the old session: its cookie draws nothing, and goes.
    const stale = await page('/me', first);
    expect(stale.body).toBe(shell);
    expect(clears(stale)).toBe(true);
    expect((await api('POST', '/api/auth/logout', refreshed.json().token)).statusCode).toBe(200);
    expect((await page('/me', next)).body).toBe(shell);

    const later = (await login(t.app, rider.email)).json().token as string;
    const lasting = await pageCookieOf(t.app, later);
    expect((await page('/me', lasting)).body).toContain('Malaya Dimasalang');
    // The browser may keep a cookie past its Max-Age (a wrong clock): the session's end counts.
    await t.database.db
      .update(sessions)
      .set({ expiresAt: new Date(Date.now() - 1000) })
      .where(eq(sessions.tokenHash, sha256Hex(later)));
    expect((await page('/me', lasting)).body).toBe(shell);
  });

  it('never lets the cookie stand in for the bearer token on the API', async () => {
    for (const cookies of [cookie, `${SESSION_COOKIE}=${rider.token}`]) {
      const res = await t.app.inject({ method: 'GET', url: '/api/auth/profile', headers: { cookie: cookies } });
      expect(res.statusCode).toBe(401);
    }
  });

  it('sends the shell once the account is deactivated, or made staff', async () => {
    const gone = await verifiedRider(t.app, t.database.db, { firstName: 'Paalam' });
    const goneCookie = await pageCookieOf(t.app, gone.token);
    expect((await page('/me', goneCookie)).body).toContain('MY PROFILE');
    await deactivate(t.database.db, gone.userId);
    expect((await page('/me', goneCookie)).body).toBe(shell);

    const promoted = await verifiedRider(t.app, t.database.db, { firstName: 'Tagapamahala' });
    const promotedCookie = await pageCookieOf(t.app, promoted.token);
    expect((await page('/me', promotedCookie)).body).toContain('MY PROFILE');
    await t.database.db.update(users).set({ role: 'marshall' }).where(eq(users.id, promoted.userId));
    expect((await page('/me', promotedCookie)).body).toBe(shell);
  });
});
