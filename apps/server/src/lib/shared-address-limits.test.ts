// Issue 26: a crowd on one address is not an attack. From one address, the files of the web
// build cost nothing and pages have their own ceiling, so neither spends the API's per-address
// budget (after 1,500 requests for a script, /user/{id} answered the API's 429 JSON); a page
// that is limited answers a page; and calls with a session count against their account.
import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import type { FastifyInstance } from 'fastify';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { buildApp } from '../app';
import { loadConfig } from '../config';
import { buildTestApp, DB_KINDS, openTestDatabase, type TestApp } from '../test/build-app';
import { bearer, registerRider } from '../test/factories';

const API_BUDGET = 8;
const PAGE_BUDGET = 5;

function webBuild(): string {
  const dir = mkdtempSync(path.join(tmpdir(), 'rally-limits-web-'));
  mkdirSync(path.join(dir, 'assets'));
  writeFileSync(path.join(dir, 'index.html'), '<!doctype html><title>Rally</title>');
  writeFileSync(path.join(dir, 'assets', 'index-abc123.js'), 'console.log(1)');
  return dir;
}

const limitsWith = (env: Record<string, string>) =>
  loadConfig({ RATE_LIMIT_GLOBAL: String(API_BUDGET), RATE_LIMIT_PAGES: String(PAGE_BUDGET), ...env }).rateLimits;

describe.each(DB_KINDS)('per-address budgets on %s', (kind) => {
  let t: TestApp;
  let web: string;
  let address = 0;
  // Each test from its own address: the in-memory counts outlive a test.
  const nextAddress = () => `198.51.100.${++address}`;

  beforeAll(async () => {
    web = webBuild();
    t = await buildTestApp(kind, { webDist: web, rateLimits: limitsWith({}) });
  });
  afterAll(async () => {
    await t?.close();
    rmSync(web, { recursive: true, force: true });
  });

  const get = (url: string, ip: string, headers: Record<string, string> = {}) =>
    t.app.inject({ method: 'GET', url, remoteAddress: ip, headers });

  it('does not count files of the web build, nor pages, against the API', async () => {
    const ip = nextAddress();
    // Far past both budgets: the script as often as a crowd's first visits fetch it.
    for (let i = 0; i < 60; i++) {
      const res = await get('/assets/index-abc123.js', ip);
      expect(res.statusCode, `script ${i}`).toBe(200);
    }
    for (let i = 0; i < PAGE_BUDGET; i++) expect((await get('/me', ip)).statusCode, `page ${i}`).toBe(200);
    // The whole API budget is still there.
    for (let i = 0; i < API_BUDGET; i++) {
      const res = await get('/api/rider-numbers/taken', ip);
      expect(res.statusCode, `api ${i}`).toBe(200);
    }
    const spent = await get('/api/rider-numbers/taken', ip);
    expect(spent.statusCode).toBe(429);
    expect(spent.headers['content-type']).toMatch(/^application\/json/);
    expect(spent.json()).toMatchObject({ success: false, code: 'RATE_LIMITED' });
    expect(spent.json().message).toMatch(/^Too many requests\. Please try again in \d+ seconds\.$/);
    expect(spent.headers['retry-after']).toBeDefined();
    // And a spent API budget leaves the files alone. A file the build no longer has (an old
    // hashed script after a deploy) is not a page either: the page budget is spent by now.
    expect((await get('/assets/index-abc123.js', ip)).statusCode).toBe(200);
    expect((await get('/me', ip)).statusCode).toBe(429);
    for (let i = 0; i < 3; i++) expect((await get('/assets/index-old999.js', ip)).statusCode).not.toBe(429);
  });

  it('answers a limited page with a page, never JSON, and a wait in Retry-After', async () => {
    const ip = nextAddress();
    for (let i = 0; i < PAGE_BUDGET; i++) {
      const url = i % 2 ? `/user/${'0'.repeat(8)}-0000-4000-8000-${'0'.repeat(12)}` : '/me';
      expect((await get(url, ip)).statusCode, url).toBe(200);
    }
    for (const url of ['/me', '/user/8b0c5b4e-0000-4000-8000-000000000001', '/register']) {
      const res = await get(url, ip, { accept: 'text/html' });
      expect(res.statusCode, url).toBe(429);
      expect(res.headers['content-type'], url).toBe('text/html; charset=utf-8');
      expect(res.body, url).toMatch(/^<!doctype html>/);
      expect(res.body, url).not.toContain('"success"');
      const wait = Number(res.headers['retry-after']);
      expect(wait, url).toBeGreaterThan(0);
      expect(wait, url).toBeLessThanOrEqual(60);
      expect(res.body, url).toContain(`<meta http-equiv="refresh" content="${wait}">`);
    }
    // The API is another budget, and another address another count.
    expect((await get('/api/rider-numbers/taken', ip)).statusCode).toBe(200);
    expect((await get('/me', nextAddress())).statusCode).toBe(200);
  });

  it('counts an API 404 as the API, not as a page', async () => {
    const ip = nextAddress();
    for (let i = 0; i < PAGE_BUDGET + 2; i++) {
      const res = await get('/api/no-such-route', ip);
      expect(res.statusCode).toBe(404);
      expect(res.headers['content-type']).toMatch(/^application\/json/);
    }
    expect((await get('/login', ip)).statusCode).toBe(200);
  });

  it('gives each signed-in account its own budget, on one address', async () => {
    const ip = nextAddress();
    const [a, b] = [await registerRider(t.app), await registerRider(t.app)];
    const profile = (token: string) => get('/api/auth/profile', ip, bearer(token));
    for (let i = 0; i < API_BUDGET; i++) expect((await profile(a.token)).statusCode, `a ${i}`).toBe(200);
    expect((await profile(a.token)).statusCode).toBe(429);
    // Same address, another rider: a full budget of its own.
    for (let i = 0; i < API_BUDGET; i++) expect((await profile(b.token)).statusCode, `b ${i}`).toBe(200);
    expect((await profile(b.token)).statusCode).toBe(429);
    // Calls without a session from that address were not charged for either rider's.
    expect((await get('/api/rider-numbers/taken', ip)).statusCode).toBe(200);
    // A signed-in account keeps its count whatever address it calls from.
    expect((await get('/api/auth/profile', nextAddress(), bearer(a.token))).statusCode).toBe(429);
  });

  it('keeps calls without a session, or with a token that is no session, per address', async () => {
    const ip = nextAddress();
    const junk = bearer('x'.repeat(43));
    for (let i = 0; i < API_BUDGET; i++) {
      const res = await get('/api/rider-numbers/taken', ip, i % 2 ? junk : {});
      expect(res.statusCode, `call ${i}`).toBe(200);
    }
    expect((await get('/api/rider-numbers/taken', ip, junk)).statusCode).toBe(429);
    expect((await get('/api/rider-numbers/taken', ip)).statusCode).toBe(429);
    expect((await get('/api/rider-numbers/taken', nextAddress())).statusCode).toBe(200);
  });
});

describe('a page route of its own', () => {
  let app: FastifyInstance;
  let web: string;
  let close: () => Promise<void>;

  beforeAll(async () => {
    web = webBuild();
    const opened = await openTestDatabase('pglite');
    const config = {
      ...loadConfig({ WEB_DIST: web, PUBLIC_URL: 'http://rally.test' }),
      rateLimits: limitsWith({}),
    };
    app = await buildApp({ config, database: opened.database, logger: false });
    // Registered like the server-drawn pages (/user/{id}, /me): a route outside /api.
    app.get('/drawn-page', async (_request, reply) => reply.type('text/html').send('<!doctype html><p>drawn'));
    await app.ready();
    close = async () => {
      await app.close();
      await opened.drop();
    };
  });
  afterAll(async () => {
    await close?.();
    rmSync(web, { recursive: true, force: true });
  });

  it('shares the page ceiling with the app shell, and answers a page when it trips', async () => {
    const ip = '203.0.113.77';
    const get = (url: string) => app.inject({ method: 'GET', url, remoteAddress: ip });
    for (let i = 0; i < PAGE_BUDGET; i++) expect((await get(i % 2 ? '/drawn-page' : '/login')).statusCode).toBe(200);
    const limited = await get('/drawn-page');
    expect(limited.statusCode).toBe(429);
    expect(limited.headers['content-type']).toBe('text/html; charset=utf-8');
    expect(limited.headers['retry-after']).toBeDefined();
    expect((await get('/assets/index-abc123.js')).statusCode).toBe(200);
  });

  it('leaves pages unlimited when the limits are off', async () => {
    const opened = await openTestDatabase('pglite');
    const off = await buildApp({
      config: loadConfig({ WEB_DIST: web, RATE_LIMITS: 'off', RATE_LIMIT_PAGES: '1' }),
      database: opened.database,
      logger: false,
    });
    try {
      for (let i = 0; i < 5; i++)
        expect((await off.inject({ method: 'GET', url: '/me', remoteAddress: '203.0.113.78' })).statusCode).toBe(200);
    } finally {
      await off.close();
      await opened.drop();
    }
  });
});
