import { describe, expect, it } from 'vitest';
import { loadConfig } from './config';

describe('configuration', () => {
  it('resolves DATA_DIR from where npm was run, defaulting to ./data there', () => {
    expect(loadConfig({ INIT_CWD: '/srv/rally' }).dataDir).toBe('/srv/rally/data');
    expect(loadConfig({ INIT_CWD: '/srv/rally', DATA_DIR: 'store' }).dataDir).toBe('/srv/rally/store');
    expect(loadConfig({ INIT_CWD: '/srv/rally', DATA_DIR: '/var/lib/rally' }).dataDir).toBe('/var/lib/rally');
  });

  it('reads the documented defaults and refuses a malformed number', () => {
    const c = loadConfig({});
    expect(c).toMatchObject({
      port: 3000,
      host: '127.0.0.1',
      publicUrl: 'http://localhost:3000',
      databaseUrl: undefined,
    });
    expect(c.rateLimits.enabled).toBe(true);
    expect(loadConfig({ PORT: '8080', PUBLIC_URL: 'https://rally.example/' }).publicUrl).toBe('https://rally.example');
    expect(loadConfig({ RATE_LIMITS: 'off' }).rateLimits.enabled).toBe(false);
    expect(() => loadConfig({ PORT: 'eighty' })).toThrow('PORT must be a non-negative integer, got "eighty"');
  });
});
