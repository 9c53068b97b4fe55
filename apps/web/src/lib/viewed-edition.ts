// The past edition the console is browsing (DESIGN.md §9), or null for the current one.
// While one is set, every staff call (`/api/admin/...`) carries `?edition=ID`: reads answer
// for that edition from its archive, and writes are refused by the server (409
// EDITION_READ_ONLY) instead of landing on the current edition by mistake. The live event
// stream is the current edition's only, so it never carries it.
let viewed: string | null = null;

export function viewedEdition(): string | null {
  return viewed;
}

export function setViewedEdition(id: string | null): void {
  viewed = id;
}

const STAFF_PATH = /^\/api\/admin\//;
const LIVE_ONLY = '/api/admin/event/stream';

/** `url` with the browsed edition added when it is a staff call; else `url` itself. */
export function withViewedEdition(url: string, base: string, edition: string | null = viewed): string {
  if (!edition) return url;
  const parsed = new URL(url, base);
  if (!STAFF_PATH.test(parsed.pathname) || parsed.pathname.startsWith(LIVE_ONLY)) return url;
  parsed.searchParams.set('edition', edition);
  return parsed.origin === new URL(base).origin && !/^[a-z]+:/i.test(url)
    ? `${parsed.pathname}${parsed.search}`
    : parsed.toString();
}

/** The first part of every console query's key (features/console/**). */
const CONSOLE_KEY = 'console';
/** A key part naming a console query that is today's whatever the console browses (the SOS alarm's). */
export const CURRENT_EDITION_KEY = 'current-edition';

/**
 * The key a console query is cached under: its own, with the edition browsed added, so an
 * answer about a past edition and one about the current edition never share a cache entry
 * (the console hashes its keys so, features/console/pages/console-page.tsx). Other keys, the
 * rider's and the public's, stay as they are.
 */
export function editionScopedKey(key: readonly unknown[], edition: string | null = viewed): readonly unknown[] {
  if (!edition || key[0] !== CONSOLE_KEY || key.includes(CURRENT_EDITION_KEY)) return key;
  return [...key, { edition }];
}

/**
 * Sent by calls that are always about today whatever the console browses (the SOS alarm
 * and its acknowledgement): the client leaves their URL alone and drops the header.
 */
export const LIVE_EDITION_HEADER = 'x-rally-edition';
export const LIVE_EDITION = { [LIVE_EDITION_HEADER]: 'current' } as const;
