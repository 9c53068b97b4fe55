// The web build's installable-app files: the service worker must revalidate on every
// load (a stale worker would pin an old app), the manifest and the scanner's WebAssembly
// must go out with their own types (browsers refuse compiled WebAssembly streamed under
// another type), hashed assets cache for a year.
import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { buildTestApp, type TestApp } from '../test/build-app';

describe('static files of the web build', () => {
  let t: TestApp;
  let dir: string;

  beforeAll(async () => {
    dir = mkdtempSync(path.join(tmpdir(), 'rally-web-'));
    mkdirSync(path.join(dir, 'assets'));
    writeFileSync(path.join(dir, 'index.html'), '<!doctype html><title>Rally</title>');
    writeFileSync(path.join(dir, 'landing.html'), '<!doctype html><title>Rally</title><h1>Landing</h1>');
    writeFileSync(path.join(dir, 'register.html'), '<!doctype html><title>Register</title><h1>Join</h1>');
    writeFileSync(path.join(dir, 'sw.js'), 'self.addEventListener("fetch", () => {});');
    writeFileSync(path.join(dir, 'workbox-1a2b3c4d.js'), '/* workbox */');
    writeFileSync(path.join(dir, 'manifest.webmanifest'), JSON.stringify({ name: 'Rally', start_url: '/' }));
    // The smallest valid module: magic and version.
    writeFileSync(path.join(dir, 'assets', 'zxing_reader-abc123.wasm'), Buffer.from([0, 0x61, 0x73, 0x6d, 1, 0, 0, 0]));
    writeFileSync(path.join(dir, 'assets', 'index-abc123.js'), 'console.log(1)');
    t = await buildTestApp('pglite', { webDist: dir });
  });
  afterAll(async () => {
    await t?.close();
    rmSync(dir, { recursive: true, force: true });
  });

  const get = (url: string) => t.app.inject({ method: 'GET', url });

  it('serves the service worker from the root, revalidated on every load', async () => {
    const res = await get('/sw.js');
    expect(res.statusCode).toBe(200);
    expect(res.headers['content-type']).toMatch(/^(application|text)\/javascript/);
    expect(res.headers['cache-control']).toBe('no-cache');
    const workbox = await get('/workbox-1a2b3c4d.js');
    expect(workbox.statusCode).toBe(200);
    expect(workbox.headers['content-type']).toMatch(/javascript/);
  });

  it('serves the manifest and WebAssembly with their types', async () => {
    const manifest = await get('/manifest.webmanifest');
    expect(manifest.statusCode).toBe(200);
    expect(manifest.headers['content-type']).toMatch(/^application\/manifest\+json/);
    const wasm = await get('/assets/zxing_reader-abc123.wasm');
    expect(wasm.statusCode).toBe(200);
    expect(wasm.headers['content-type']).toBe('application/wasm');
    expect(wasm.headers['cache-control']).toBe('public, max-age=31536000, immutable');
  });

  it('carries the CSP that lets the scanner compile its WebAssembly, and nothing inline', async () => {
    const res = await get('/scan');
    expect(res.statusCode).toBe(200);
    const csp = res.headers['content-security-policy'] as string;
    expect(csp).toContain("script-src 'self' 'wasm-unsafe-eval'");
    expect(csp).not.toContain('unsafe-inline');
  });

  it('sends the prerendered pages for / and /register, the shell for every other screen', async () => {
    for (const [url, page] of [
      ['/', '<h1>Landing</h1>'],
      ['/register', '<h1>Join</h1>'],
      ['/register/', '<h1>Join</h1>'],
      ['/register?ref=poster', '<h1>Join</h1>'],
    ] as const) {
      const res = await get(url);
      expect(res.statusCode, url).toBe(200);
      expect(res.headers['cache-control'], url).toBe('no-cache');
      expect(res.body, url).toContain(page);
    }
    for (const url of ['/login', '/me', '/register/extra']) {
      const res = await get(url);
      expect(res.statusCode, url).toBe(200);
      expect(res.body, url).toBe('<!doctype html><title>Rally</title>');
    }
  });
});
