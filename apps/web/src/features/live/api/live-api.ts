// The public tracker's one call, without the session (it is public). The server answers
// with an ETag and a 10 s max-age for proxies; the page asks with `cache: 'no-cache'`, so
// the browser always revalidates (If-None-Match): a spectator who presses Refresh sees the
// newest answer, and an unchanged one costs a 304 with no body.
import type { LiveResponse } from '@rally/shared/contracts/live';
import { queryOptions } from '@tanstack/react-query';
import { API_BASE, ApiError } from '../../../lib/api-client';

export const liveKeys = { all: ['live'] as const };

export async function fetchLive(signal?: AbortSignal): Promise<LiveResponse> {
  const response = await fetch(`${API_BASE}/live`, { cache: 'no-cache', signal });
  const body = (await response.json().catch(() => null)) as LiveResponse | { message?: string } | null;
  if (!response.ok || !body || !('data' in body)) {
    const message = body && 'message' in body && body.message ? body.message : `HTTP error! status: ${response.status}`;
    throw new ApiError(message, response.status, body);
  }
  return body;
}

export const liveQuery = () =>
  queryOptions({
    queryKey: liveKeys.all,
    queryFn: ({ signal }) => fetchLive(signal),
    staleTime: 10_000,
    refetchOnWindowFocus: true,
    refetchOnReconnect: true,
  });
