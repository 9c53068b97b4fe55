import { describe, expect, it } from 'vitest';
import { CURRENT_EDITION_KEY, editionScopedKey, withViewedEdition } from './viewed-edition';

const BASE = 'https://rally.example';
const PAST = '0b8f4a4e-9c1e-4c57-9f1e-8a0d5d1c2b3a';

describe('withViewedEdition', () => {
  it('adds the browsed edition to staff calls, keeping their own query', () => {
    expect(withViewedEdition('/api/admin/users?limit=20', BASE, PAST)).toBe(
      `/api/admin/users?limit=20&edition=${PAST}`,
    );
    expect(withViewedEdition(`${BASE}/api/admin/exports/masterlist.csv`, BASE, PAST)).toBe(
      `${BASE}/api/admin/exports/masterlist.csv?edition=${PAST}`,
    );
  });

  it('leaves everything else alone: no edition browsed, a rider or public call, the live stream', () => {
    expect(withViewedEdition('/api/admin/users', BASE, null)).toBe('/api/admin/users');
    expect(withViewedEdition('/api/editions', BASE, PAST)).toBe('/api/editions');
    expect(withViewedEdition('/api/my/entries', BASE, PAST)).toBe('/api/my/entries');
    expect(withViewedEdition('/api/admin/event/stream', BASE, PAST)).toBe('/api/admin/event/stream');
  });
});

describe('editionScopedKey', () => {
  it("adds the browsed edition to a console query's key", () => {
    expect(editionScopedKey(['console', 'masterlist', { page: 2 }], PAST)).toEqual([
      'console',
      'masterlist',
      { page: 2 },
      { edition: PAST },
    ]);
  });

  it('leaves the current edition, the live alarm and the rider and public keys alone', () => {
    expect(editionScopedKey(['console', 'masterlist'], null)).toEqual(['console', 'masterlist']);
    const alarm = ['console', 'incidents', 'list', 'open', CURRENT_EDITION_KEY];
    expect(editionScopedKey(alarm, PAST)).toBe(alarm);
    expect(editionScopedKey(['editions'], PAST)).toEqual(['editions']);
    expect(editionScopedKey(['my', 'entries'], PAST)).toEqual(['my', 'entries']);
  });
});
