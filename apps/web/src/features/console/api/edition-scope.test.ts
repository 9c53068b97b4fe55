import { QueryClient } from '@tanstack/react-query';
import { afterEach, describe, expect, it } from 'vitest';
import { CURRENT_EDITION_KEY, setViewedEdition } from '../../../lib/viewed-edition';
import { dropOtherEditions, scopeConsoleQueries } from './edition-scope';

const PAST = '0b8f4a4e-9c1e-4c57-9f1e-8a0d5d1c2b3a';
const MASTERLIST = ['console', 'masterlist', { page: 1 }] as const;
const ALARM = ['console', 'incidents', 'list', 'open', CURRENT_EDITION_KEY] as const;
const EDITIONS = ['editions'] as const;

function consoleCache() {
  const client = new QueryClient();
  scopeConsoleQueries(client);
  return client;
}

afterEach(() => setViewedEdition(null));

describe('the console cache while a past edition is browsed', () => {
  it('keeps the current and the past answers of one key apart', () => {
    const client = consoleCache();
    client.setQueryData(MASTERLIST, 'current');
    setViewedEdition(PAST);
    expect(client.getQueryData(MASTERLIST)).toBeUndefined();
    client.setQueryData(MASTERLIST, 'past');
    expect(client.getQueryData(MASTERLIST)).toBe('past');
    setViewedEdition(null);
    expect(client.getQueryData(MASTERLIST)).toBe('current');
  });

  it("shares the alarm's and the non-console answers across editions", () => {
    const client = consoleCache();
    client.setQueryData(ALARM, 'today');
    client.setQueryData(EDITIONS, 'list');
    setViewedEdition(PAST);
    expect(client.getQueryData(ALARM)).toBe('today');
    expect(client.getQueryData(EDITIONS)).toBe('list');
  });

  it("drops the other edition's console answers on a switch, and nothing else", () => {
    const client = consoleCache();
    client.setQueryData(MASTERLIST, 'current');
    client.setQueryData(ALARM, 'today');
    client.setQueryData(EDITIONS, 'list');
    setViewedEdition(PAST);
    client.setQueryData(MASTERLIST, 'past');
    dropOtherEditions(client, PAST);
    expect(client.getQueryData(MASTERLIST)).toBe('past');
    expect(client.getQueryData(ALARM)).toBe('today');
    expect(client.getQueryData(EDITIONS)).toBe('list');
    setViewedEdition(null);
    expect(client.getQueryData(MASTERLIST)).toBeUndefined();
    expect(client.getQueryData(ALARM)).toBe('today');
  });
});
