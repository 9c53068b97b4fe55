import { mkdirSync, mkdtempSync, writeFileSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { brotliCompressSync } from 'node:zlib';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { buildTestApp, type TestApp } from '../../test/build-app';

describe('platform behaviour', () => {
  let t: TestApp;
  let web: string;
  beforeAll(async () => {
    // A real (tiny) web build directory, so the single-page fallback is exercised.
    web = mkdtempSync(path.join(os.tmpdir(), 'rally-web-'));
    mkdirSync(path.join(web, 'assets'));
    writeFileSync(path.join(web, 'index.html'), '<!doctype html><title>Rally</title><div id="root"></div>');
    writeFileSync(path.join(web, 'assets', 'app-abc123.js'), 'console.log(1)');
    writeFileSync(path.join(web, 'assets', 'app-abc123.js.br'), brotliCompressSync('console.log(1)'));
    t = await buildTestApp('pglite', { webDist: web });
  });
  afterAll(() => t.close());

  it('answers health and the payment instructions', async () => {
    const health = await t.app.inject({ method: 'GET', url: '/api/health' });
    expect(health.json()).toEqual({ success: true, data: { status: 'ok', database: 'pglite' } });
    const pay = await t.app.inject({ method: 'GET', url: '/api/config/payment' });
    expect(pay.json().data.gcash).toHaveProperty('accountNumber');
    expect(pay.json().data.bank_transfer).toHaveProperty('bankName');
  });

  it('serves an OpenAPI document generated from the route schemas, and its UI at /api/docs', async () => {
    const doc = await t.app.inject({ method: 'GET', url: '/api/docs/json' });
    expect(doc.statusCode).toBe(200);
    const spec = doc.json();
    expect(spec.openapi).toMatch(/^3\./);
    for (const p of [
      '/api/auth/login',
      '/api/auth/register-with-uploads',
      '/api/rider-numbers/taken',
      '/api/upload/payment-receipt/{id}',
    ]) {
      expect(spec.paths).toHaveProperty([p]);
    }
    expect(spec.paths['/api/auth/login'].post.requestBody).toBeDefined();
    const ui = await t.app.inject({ method: 'GET', url: '/api/docs/' });
    expect(ui.statusCode).toBe(200);
    expect(ui.headers['content-type']).toContain('text/html');
  });

  it('sends the security headers', async () => {
    const res = await t.app.inject({ method: 'GET', url: '/reset-password?token=abc' });
    expect(res.statusCode).toBe(200);
    const csp = String(res.headers['content-security-policy']);
    expect(csp).toContain("default-src 'self'");
    expect(csp).toContain("script-src 'self'");
    expect(csp).toContain("style-src 'self';");
    expect(csp).not.toContain('unsafe-inline');
    // The scanner's WebAssembly needs 'wasm-unsafe-eval'; JavaScript eval stays refused.
    expect(csp).toContain("script-src 'self' 'wasm-unsafe-eval'");
    expect(csp).not.toContain("'unsafe-eval'");
    expect(csp).toContain("frame-ancestors 'none'");
    expect(csp).toContain("object-src 'none'");
    expect(res.headers['x-content-type-options']).toBe('nosniff');
    expect(res.headers['x-frame-options']).toBe('DENY');
    expect(res.headers['referrer-policy']).toBe('no-referrer');
  });

  it('answers unknown API paths with the envelope, and other paths with the app', async () => {
    const api = await t.app.inject({ method: 'GET', url: '/api/nope' });
    expect(api.statusCode).toBe(404);
    expect(api.json()).toMatchObject({ success: false, code: 'NOT_FOUND' });
    for (const url of ['/user/123', '/admin?tab=users', '/']) {
      const res = await t.app.inject({ method: 'GET', url });
      expect(res.statusCode, url).toBe(200);
    }
    const page = await t.app.inject({ method: 'GET', url: '/user/123' });
    expect(page.body).toContain('<div id="root">');
    const asset = await t.app.inject({ method: 'GET', url: '/assets/app-abc123.js' });
    expect(asset.headers['cache-control']).toContain('immutable');
    const compressed = await t.app.inject({
      method: 'GET',
      url: '/assets/app-abc123.js',
      headers: { 'accept-encoding': 'br, gzip' },
    });
    expect(compressed.headers['content-encoding']).toBe('br');
    expect(compressed.headers['cache-control']).toContain('immutable');
  });

  it('refuses malformed JSON, oversize bodies and wrong content types with 4xx envelopes', async () => {
    const bad = await t.app.inject({
      method: 'POST',
      url: '/api/auth/login',
      headers: { 'content-type': 'application/json' },
      payload: '{"email":',
    });
    expect(bad.statusCode).toBe(400);
    expect(bad.json()).toMatchObject({ success: false, message: 'The request body is not valid JSON' });
    const huge = await t.app.inject({
      method: 'POST',
      url: '/api/auth/login',
      headers: { 'content-type': 'application/json' },
      payload: JSON.stringify({ email: 'a'.repeat(2 * 1024 * 1024), password: 'x' }),
    });
    expect(huge.statusCode).toBe(413);
    expect(huge.json().success).toBe(false);
    const poisoned = await t.app.inject({
      method: 'POST',
      url: '/api/auth/login',
      headers: { 'content-type': 'application/json' },
      payload: '{"email":"a@b.c","password":"x","__proto__":{"admin":true}}',
    });
    expect(poisoned.statusCode).toBe(400);
    const emptyBody = await t.app.inject({
      method: 'POST',
      url: '/api/auth/logout',
      headers: { 'content-type': 'application/json' },
      payload: '',
    });
    expect(emptyBody.statusCode).toBe(401);
    const xml = await t.app.inject({
      method: 'POST',
      url: '/api/auth/login',
      headers: { 'content-type': 'application/xml' },
      payload: '<a/>',
    });
    expect(xml.statusCode).toBe(415);
    expect(xml.json().success).toBe(false);
  });

  it('lists every API route in the route table with its access', () => {
    expect(t.app.routeTable.length).toBeGreaterThan(15);
    expect(t.app.routeTable).toContainEqual({ method: 'POST', url: '/api/auth/login', access: 'public' });
    expect(t.app.routeTable).toContainEqual({ method: 'GET', url: '/api/auth/profile', access: 'authenticated' });
  });
});

describe('rate limits', () => {
  let t: TestApp;
  beforeAll(async () => {
    const { loadConfig } = await import('../../config');
    const base = loadConfig({
      RATE_LIMIT_LOGIN_PER_ACCOUNT: '3',
      RATE_LIMIT_LOGIN_PER_ADDRESS: '5',
      RATE_LIMIT_REGISTRATIONS: '2',
    });
    t = await buildTestApp('pglite', { rateLimits: base.rateLimits });
  });
  afterAll(() => t.close());

  it('throttles failed logins per account, then per address, with 429 and a clear message', async () => {
    const attempt = (email: string, ip = '203.0.113.5') =>
      t.app.inject({
        method: 'POST',
        url: '/api/auth/login',
        remoteAddress: ip,
        payload: { email, password: 'Wrong-pass1' },
      });
    for (let i = 0; i < 3; i++) expect((await attempt('victim@example.com')).statusCode).toBe(401);
    const locked = await attempt('victim@example.com');
    expect(locked.statusCode).toBe(429);
    expect(locked.json().message).toMatch(/^Too many failed login attempts\. Please try again in \d+ minutes?\.$/);
    // An address that has not failed on the account is still judged once (so the attacker
    // cannot lock the real rider out), then closed too (lib/login-throttle.ts).
    expect((await attempt('victim@example.com', '198.51.100.7')).statusCode).toBe(401);
    expect((await attempt('victim@example.com', '198.51.100.7')).statusCode).toBe(429);
    // The same address trying other accounts is stopped by the per-address limit.
    expect((await attempt('other1@example.com')).statusCode).toBe(401);
    expect((await attempt('other2@example.com')).statusCode).toBe(401);
    expect((await attempt('other3@example.com')).statusCode).toBe(429);
  });

  it('asks registrations past the per-address threshold for a challenge instead of refusing them', async () => {
    const register = (ip: string) =>
      t.app.inject({ method: 'POST', url: '/api/auth/register', remoteAddress: ip, payload: { riderNumber: 'x' } });
    expect((await register('203.0.113.9')).statusCode).toBe(400);
    expect((await register('203.0.113.9')).statusCode).toBe(400);
    // Issue 26: one address is often a whole club; past the threshold it is asked for work, not refused.
    const asked = await register('203.0.113.9');
    expect(asked.statusCode).toBe(403);
    expect(asked.json()).toMatchObject({ success: false, code: 'CHALLENGE_REQUIRED' });
    // Another address is not affected.
    expect((await register('203.0.113.10')).statusCode).toBe(400);
  });
});
