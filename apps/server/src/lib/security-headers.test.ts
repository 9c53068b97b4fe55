import { IncomingMessage, ServerResponse } from 'node:http';
import { Socket } from 'node:net';
import helmet from 'helmet';
import { describe, expect, it } from 'vitest';
import { HELMET_OPTIONS, helmetHeaders } from './security-headers';

describe('security headers computed once', () => {
  it('are exactly what helmet sets on a real response for the same options', () => {
    const req = new IncomingMessage(new Socket());
    const res = new ServerResponse(req);
    res.setHeader('X-Powered-By', 'something');
    helmet(HELMET_OPTIONS)(req, res, () => {});
    const real = Object.fromEntries(Object.entries(res.getHeaders()).map(([k, v]) => [k, String(v)]));
    expect(helmetHeaders(HELMET_OPTIONS)).toEqual(real);
  });

  it('hold the policies the site relies on', () => {
    const headers = helmetHeaders(HELMET_OPTIONS);
    // The scanner compiles its own WebAssembly QR decoder; still no eval and nothing inline.
    expect(headers['content-security-policy']).toContain("script-src 'self' 'wasm-unsafe-eval';");
    expect(headers['content-security-policy']).not.toContain("'unsafe-eval'");
    expect(headers['content-security-policy']).toContain("style-src 'self'");
    expect(headers['content-security-policy']).not.toContain('unsafe-inline');
    expect(headers['content-security-policy']).toContain("frame-ancestors 'none'");
    expect(headers['x-content-type-options']).toBe('nosniff');
    expect(headers['x-frame-options']).toBe('DENY');
    expect(headers['referrer-policy']).toBe('no-referrer');
    expect(headers['strict-transport-security']).toBeUndefined();
  });
});
