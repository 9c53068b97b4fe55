// The document tells a third-party validating proxy the truth: the real server listens on
// a free port, Prism (@stoplight/prism-cli, the OpenAPI ecosystem's validating proxy)
// runs in front of it with the product's own /api/docs/json, and one acceptance-style
// session (registration with uploads, login, public reads, a rider upload, a staff
// verification, refusals) is played directly and through the proxy. Every call must
// answer the same status both ways, and Prism must report no violation on any of them
// (it lists request and response violations in its `sl-violations` header).
//
// Prism's proxy decodes request bodies as UTF-8 text before forwarding them
// (stoplightio/prism#1321, #2349), so a binary JPEG would arrive corrupted whatever the
// document says; the uploads here are ASCII-only PDFs, which survive that intact. The
// in-process validator (test/openapi-validation.ts) covers image uploads for every test.
import { type ChildProcess, spawn } from 'node:child_process';
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { createServer } from 'node:net';
import os from 'node:os';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createUser } from '../modules/operator/operator.service';
import { buildTestApp, type TestApp } from '../test/build-app';
import { pdf, registrationFields, STRONG_PASSWORD } from '../test/factories';

const PRISM = fileURLToPath(new URL('../../../../node_modules/@stoplight/prism-cli/dist/index.js', import.meta.url));

async function freePort(): Promise<number> {
  return new Promise((resolve, reject) => {
    const server = createServer();
    server.once('error', reject);
    server.listen(0, '127.0.0.1', () => {
      const address = server.address();
      const port = typeof address === 'object' && address ? address.port : 0;
      server.close(() => resolve(port));
    });
  });
}

async function startPrism(documentPath: string, upstream: string, port: number): Promise<ChildProcess> {
  const child = spawn(
    process.execPath,
    [PRISM, 'proxy', documentPath, upstream, '--port', String(port), '--host', '127.0.0.1', '--errors', 'false'],
    { stdio: ['ignore', 'pipe', 'pipe'] },
  );
  let output = '';
  await new Promise<void>((resolve, reject) => {
    const timer = setTimeout(() => reject(new Error(`Prism did not start:\n${output}`)), 90_000);
    const onData = (chunk: Buffer) => {
      output += chunk.toString();
      if (output.includes('Prism is listening')) {
        clearTimeout(timer);
        resolve();
      }
    };
    child.stdout?.on('data', onData);
    child.stderr?.on('data', onData);
    child.once('exit', (code) => {
      clearTimeout(timer);
      reject(new Error(`Prism exited with ${code}:\n${output}`));
    });
  });
  return child;
}

interface Outcome {
  call: string;
  status: number;
  violations: string | null;
  /** A call that breaks the document on purpose (no token): Prism must say so of the request only. */
  offDocument: boolean;
}

/** One rider's and one officer's session, against `base` (the server, or Prism in front of it). */
async function acceptanceSession(base: string, staffEmail: string): Promise<Outcome[]> {
  const outcomes: Outcome[] = [];
  const call = async (name: string, url: string, init: RequestInit = {}, offDocument = false) => {
    const res = await fetch(`${base}${url}`, init);
    const text = await res.text();
    outcomes.push({ call: name, status: res.status, violations: res.headers.get('sl-violations'), offDocument });
    return { status: res.status, json: () => JSON.parse(text) };
  };
  const json = (body: unknown, token?: string): RequestInit => ({
    method: 'POST',
    headers: { 'content-type': 'application/json', ...(token ? { authorization: `Bearer ${token}` } : {}) },
    body: JSON.stringify(body),
  });
  const bearer = (token: string) => ({ headers: { authorization: `Bearer ${token}` } });

  await call('health', '/api/health');
  await call('payment instructions', '/api/config/payment');
  await call('taken numbers', '/api/rider-numbers/taken');
  const fields = registrationFields();
  await call('number check', `/api/rider-numbers/check/${fields.riderNumber}`);

  const form = new FormData();
  for (const [name, value] of Object.entries(fields)) form.append(name, value);
  form.append('paymentReceipt', new Blob([new Uint8Array(pdf())], { type: 'application/pdf' }), 'receipt.pdf');
  const registered = await call('register with uploads', '/api/auth/register-with-uploads', {
    method: 'POST',
    body: form,
  });
  const { token: riderToken, data } = registered.json();
  const riderId: string = data.user.id;
  const code: string = data.user.verificationCode;

  await call('register again (taken email)', '/api/auth/register-with-uploads', {
    method: 'POST',
    body: form,
  });
  await call('login, wrong password', '/api/auth/login', json({ email: fields.email, password: 'Wrong2Password' }));
  const login = await call('login', '/api/auth/login', json({ email: fields.email, password: STRONG_PASSWORD }));
  const token: string = login.json().token ?? riderToken;
  await call('profile', '/api/auth/profile', bearer(token));
  await call('profile without a token', '/api/auth/profile', {}, true);
  await call('public profile', `/api/users/${riderId}/profile`);
  await call('public comments', `/api/users/${riderId}/comments`);
  await call('fire status', `/api/users/${riderId}/fire/status`);
  await call('my files', '/api/upload/user-files', bearer(token));
  await call('my receipt', `/api/upload/payment-receipt/${riderId}`, bearer(token));

  const receipt = new FormData();
  receipt.append('paymentReceipt', new Blob([new Uint8Array(pdf())], { type: 'application/pdf' }), 'receipt.pdf');
  await call('replace receipt', '/api/upload/payment-receipt', {
    method: 'POST',
    headers: { authorization: `Bearer ${token}` },
    body: receipt,
  });
  await call('announcements', '/api/announcements', bearer(token));

  const staff = await call('staff login', '/api/auth/login', json({ email: staffEmail, password: STRONG_PASSWORD }));
  const staffToken: string = staff.json().token;
  await call('users list', '/api/admin/users?page=1&limit=5', bearer(staffToken));
  await call('pending verifications', '/api/admin/verifications/pending', bearer(staffToken));
  await call(
    'verify payment',
    '/api/admin/verifications/verify',
    json({ verification_code: code, action: 'verified' }, staffToken),
  );
  await call('rider may not list users', '/api/admin/users', bearer(token));
  await call('logout', '/api/auth/logout', json({}, token));
  return outcomes;
}

describe('the document, through Prism', () => {
  let t: TestApp;
  let prism: ChildProcess | undefined;
  let dir: string;
  let direct: string;
  let proxied: string;
  const staffEmails = ['officer.direct@example.com', 'officer.prism@example.com'];

  beforeAll(async () => {
    t = await buildTestApp('pglite');
    for (const email of staffEmails) {
      await createUser(t.database.db, { email, password: STRONG_PASSWORD, role: 'marshall' });
    }
    direct = await t.app.listen({ port: 0, host: '127.0.0.1' });
    dir = mkdtempSync(path.join(os.tmpdir(), 'rally-openapi-'));
    const documentPath = path.join(dir, 'openapi.json');
    writeFileSync(documentPath, JSON.stringify(t.app.swagger()));
    const port = await freePort();
    prism = await startPrism(documentPath, direct, port);
    proxied = `http://127.0.0.1:${port}`;
  }, 240_000);

  afterAll(async () => {
    prism?.kill();
    await t?.close();
    if (dir) rmSync(dir, { recursive: true, force: true });
  });

  it('answers acceptance traffic through the proxy exactly as directly, with no violation', async () => {
    const [staffDirect = '', staffProxied = ''] = staffEmails;
    const straight = await acceptanceSession(direct, staffDirect);
    const through = await acceptanceSession(proxied, staffProxied);
    expect(through.map((o) => [o.call, o.status])).toEqual(straight.map((o) => [o.call, o.status]));
    expect(through.filter((o) => !o.offDocument && o.violations !== null)).toEqual([]);
    for (const o of through.filter((x) => x.offDocument)) {
      const violations = JSON.parse(o.violations ?? '[]') as { location: string[]; message: string }[];
      expect(violations.map((v) => [v.location[0], v.message])).toEqual([['request', 'Invalid security scheme used']]);
    }
    // The session did what it says (not a run of refusals).
    expect(Object.fromEntries(straight.map((o) => [o.call, o.status]))).toMatchObject({
      'register with uploads': 201,
      'register again (taken email)': 409,
      'login, wrong password': 401,
      login: 200,
      'profile without a token': 401,
      'public profile': 200,
      'my receipt': 200,
      'replace receipt': 201,
      'users list': 200,
      'verify payment': 200,
      'rider may not list users': 403,
      logout: 200,
    });
  });
});
