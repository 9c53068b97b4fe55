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
    expect(c.rateLimits).toMatchObject({
      registrationsPerAddressPerHour: 30,
      globalPerMinute: 1200,
      pagesPerMinute: 1200,
    });
    expect(c.challenge).toEqual({ hmacKey: undefined, work: 400 });
    expect(loadConfig({ REGISTRATION_CHALLENGE_KEY: ` ${'k'.repeat(40)} ` }).challenge.hmacKey).toBe('k'.repeat(40));
    expect(() => loadConfig({ REGISTRATION_CHALLENGE_KEY: 'secret' })).toThrow(/at least 32 characters/);
    expect(() => loadConfig({ REGISTRATION_CHALLENGE_WORK: '0' })).toThrow(
      'REGISTRATION_CHALLENGE_WORK must be at least 1',
    );
    expect(() => loadConfig({ PORT: 'eighty' })).toThrow('PORT must be a non-negative integer, got "eighty"');
  });

  it('keeps files in the database unless S3_BUCKET is set, and refuses half an S3 configuration', () => {
    expect(loadConfig({}).fileStore).toEqual({ kind: 'database' });
    expect(
      loadConfig({
        S3_BUCKET: 'rally',
        S3_ENDPOINT: 'http://127.0.0.1:9000',
        S3_ACCESS_KEY_ID: 'id',
        S3_SECRET_ACCESS_KEY: 'secret',
        S3_FORCE_PATH_STYLE: 'true',
        S3_PREFIX: 'rally-2026',
      }).fileStore,
    ).toEqual({
      kind: 's3',
      bucket: 'rally',
      endpoint: 'http://127.0.0.1:9000',
      region: 'us-east-1',
      credentials: { accessKeyId: 'id', secretAccessKey: 'secret' },
      forcePathStyle: true,
      prefix: 'rally-2026/',
    });
    // AWS S3 with the SDK's own credentials (an instance role): no endpoint, no keys.
    expect(loadConfig({ S3_BUCKET: 'rally', S3_REGION: 'ap-southeast-1' }).fileStore).toMatchObject({
      region: 'ap-southeast-1',
      credentials: undefined,
      endpoint: undefined,
      forcePathStyle: false,
    });
    expect(() => loadConfig({ S3_ENDPOINT: 'http://minio:9000' })).toThrow('S3_ENDPOINT given without S3_BUCKET');
    expect(() => loadConfig({ S3_BUCKET: 'rally', S3_ACCESS_KEY_ID: 'id' })).toThrow('go together');
    expect(() => loadConfig({ S3_BUCKET: 'rally', S3_ENDPOINT: 'minio:9000' })).toThrow('must be an http(s) URL');
    expect(() => loadConfig({ S3_BUCKET: 'rally', S3_FORCE_PATH_STYLE: 'yes' })).toThrow('true or false');
  });

  it('warns at start when production runs without PUBLIC_URL, and only then', () => {
    const unset = loadConfig({ NODE_ENV: 'production', PORT: '8080' });
    expect(unset.publicUrl).toBe('http://localhost:8080');
    expect(unset.warnings).toEqual([expect.stringContaining('PUBLIC_URL is not set')]);
    expect(unset.warnings[0]).toContain('reset links will point at http://localhost:8080');
    expect(unset.warnings[0]).toContain('PUBLIC_URL=https://');
    expect(loadConfig({ NODE_ENV: 'production', PUBLIC_URL: '  ' }).warnings).toHaveLength(1);
    expect(loadConfig({ NODE_ENV: 'production', PUBLIC_URL: 'https://rally.example' }).warnings).toEqual([]);
    expect(loadConfig({}).warnings).toEqual([]);
    expect(loadConfig({ NODE_ENV: 'development' }).warnings).toEqual([]);
  });

  it('reads the tracking settings, with the catalog’s defaults, and refuses a malformed one', () => {
    expect(loadConfig({}).tracking).toEqual({ stoppedMinutes: 15, offRouteM: 500 });
    expect(loadConfig({ TRACKING_STOPPED_MIN: '20', TRACKING_OFF_ROUTE_M: '750' }).tracking).toEqual({
      stoppedMinutes: 20,
      offRouteM: 750,
    });
    expect(() => loadConfig({ TRACKING_STOPPED_MIN: '0' })).toThrow('TRACKING_STOPPED_MIN must be at least 1');
    expect(() => loadConfig({ TRACKING_OFF_ROUTE_M: 'far' })).toThrow(
      'TRACKING_OFF_ROUTE_M must be a non-negative integer, got "far"',
    );
  });
});
