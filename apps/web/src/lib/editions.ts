// The editions (GET /api/editions): read by the console's Editions tab and by the
// registration form, which says when registration is closed. Saving the event settings
// changes the current edition, so it drops this too.
import type { Edition } from '@rally/shared/contracts/editions';
import { queryOptions } from '@tanstack/react-query';
import { call, client } from './api-client';

export const editionsKey = ['editions'] as const;

export const editionsQuery = () =>
  queryOptions({
    queryKey: editionsKey,
    queryFn: async (): Promise<Edition[]> => (await call(client.GET('/api/editions'))).data,
    staleTime: 60_000,
  });
