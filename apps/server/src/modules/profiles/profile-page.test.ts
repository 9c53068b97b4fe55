// The server-rendered public profile (/user/{id}), with the web client's real renderer: the
// test runs the web build's own prerender step (apps/web/scripts/prerender.mjs) on a
// directory holding the web client's index.html, which builds dist/ssr as the server reads it.
import { execFile } from 'node:child_process';
import { cpSync, mkdirSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { promisify } from 'node:util';
import { brotliDecompressSync, gunzipSync } from 'node:zlib';
import { publicProfileQueryKey } from '@rally/shared/catalog';
import { eq } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { users } from '../../db/schema/users';
import { buildTestApp, DB_KINDS, type TestApp } from '../../test/build-app';
import { deactivate, verifiedRider } from '../../test/community-factories';

const webDir = fileURLToPath(new URL('../../../../web', import.meta.url));
const SEED = /<script type="application\/json" id="query-seed">([\s\S]*?)<\/script>/;
const HOSTILE = '</script><script>alert("pwned")</script><!--';

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
  const seedOf = (html: string) => JSON.parse(SEED.exec(html)?.[1] ?? 'null');

  it('sends the profile drawn in the HTML, with the API answer inlined for the client', async () => {
    for (const url of [`/user/${rider.userId}`, `/user/${rider.userId}/`, `/user/${rider.userId}?from=qr`]) {
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
