// The public tracker's one call. The server answers with an ETag and a 10 s max-age, so
// the browser's own HTTP cache revalidates (If-None-Match → 304) and a crowd of refreshing
// spectators costs the server a header comparison each.
import type { LiveResponse } from '@rally/shared/contracts/live';
import { queryOptions } from '@tanstack/react-query';
import { api } from '../../../lib/api-client';

export const liveKeys = { all: ['live'] as const };

export const liveQuery = () =>
  queryOptions({
    queryKey: liveKeys.all,
    queryFn: () => api.get<LiveResponse>('/live'),
    staleTime: 10_000,
    refetchOnWindowFocus: true,
    refetchOnReconnect: true,
  });
