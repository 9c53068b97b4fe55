// The public tracker's one call, without the session (it is public). The server answers
// with an ETag and a 10 s max-age for proxies; the page asks with `cache: 'no-cache'`, so
// the browser always revalidates (If-None-Match): a spectator who presses Refresh sees the
// newest answer, and an unchanged one costs a 304 with no body.
import { queryOptions } from '@tanstack/react-query';
import { type ApiAnswer, call, publicClient } from '../../../lib/api-client';

/**
 * One route of the answer, as the document has it: the document gives `counts` as an open
 * record (the contract's record over every state), so a count may read as missing.
 */
export type LiveRouteAnswer = ApiAnswer<'/api/live'>['data'][number];

export const liveKeys = { all: ['live'] as const };

export async function fetchLive(signal?: AbortSignal) {
  return call(publicClient.GET('/api/live', { cache: 'no-cache', signal }));
}

export const liveQuery = () =>
  queryOptions({
    queryKey: liveKeys.all,
    queryFn: ({ signal }) => fetchLive(signal),
    staleTime: 10_000,
    refetchOnWindowFocus: true,
    refetchOnReconnect: true,
  });
