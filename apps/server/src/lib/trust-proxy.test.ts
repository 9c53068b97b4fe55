// Issue 16: TRUST_PROXY=true believed any X-Forwarded-For a client sent, so a client
// chose the address every rate limit sees. It takes a hop count or the proxies' addresses.
import { afterAll, describe, expect, it } from 'vitest';
import { buildApp } from '../app';
import { loadConfig, parseTrustProxy } from '../config';
import { type Database, openDatabase } from '../db/client';

describe('TRUST_PROXY', () => {
  let database: Database | null = null;
  afterAll(async () => database?.close());

  /** The address the server attributes a request to, for a given TRUST_PROXY. */
  const seenAddress = async (trust: string | undefined, from: string, forwarded?: string) => {
    database ??= await openDatabase({});
    const config = loadConfig({ RATE_LIMITS: 'off', WEB_DIST: '/nonexistent', TRUST_PROXY: trust });
    const app = await buildApp({ config, database, logger: false });
    app.get('/probe', { config: { access: 'public' } }, async (request) => ({
      ip: request.ip,
      protocol: request.protocol,
    }));
    await app.ready();
    const res = await app.inject({
      method: 'GET',
      url: '/probe',
      remoteAddress: from,
      headers: forwarded ? { 'x-forwarded-for': forwarded, 'x-forwarded-proto': 'https' } : {},
    });
    await app.close();
    return res.json() as { ip: string; protocol: string };
  };

  it('with 1 hop, a client cannot choose its address by sending X-Forwarded-For itself', async () => {
    // The client sent "X-Forwarded-For: 6.6.6.6"; the proxy (10.0.0.2) appended the real address.
    const seen = await seenAddress('1', '10.0.0.2', '6.6.6.6, 198.51.100.5');
    expect(seen.ip).toBe('198.51.100.5');
    expect(seen.protocol).toBe('https');
  });

  it('reads true as 1 hop, with a warning', async () => {
    const warnings: string[] = [];
    expect(parseTrustProxy('true', warnings)).toBe(1);
    expect(warnings[0]).toMatch(/TRUST_PROXY=true is read as 1 proxy hop/);
    expect((await seenAddress('true', '10.0.0.2', '6.6.6.6, 198.51.100.5')).ip).toBe('198.51.100.5');
  });

  it('takes a list of proxy addresses or CIDRs, and ignores the header from anyone else', async () => {
    expect((await seenAddress('10.0.0.0/8, 192.0.2.1', '10.0.0.2', '6.6.6.6, 198.51.100.5')).ip).toBe('198.51.100.5');
    const direct = await seenAddress('10.0.0.0/8', '203.0.113.9', '6.6.6.6');
    expect(direct).toEqual({ ip: '203.0.113.9', protocol: 'http' });
  });

  it('trusts nothing by default, and refuses a malformed value', async () => {
    expect((await seenAddress(undefined, '203.0.113.9', '6.6.6.6')).ip).toBe('203.0.113.9');
    expect(parseTrustProxy('false')).toBe(false);
    expect(parseTrustProxy('0')).toBe(false);
    expect(parseTrustProxy('2')).toBe(2);
    expect(parseTrustProxy('::1, fd00::/8')).toEqual(['::1', 'fd00::/8']);
    expect(() => parseTrustProxy('yes')).toThrow(
      'TRUST_PROXY must be a number of proxy hops or a list of proxy addresses/CIDRs, got "yes"',
    );
    expect(() => parseTrustProxy('10.0.0.0/33')).toThrow(/got "10.0.0.0\/33"/);
  });
});
