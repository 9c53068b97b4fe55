// The editions (GET /api/editions): read by the console's Editions tab and by the
// registration form, which says when registration is closed. Saving the event settings
// changes the current edition, so it drops this too.
import { PRICES, type Prices } from '@rally/shared/catalog/registration';
import type { Edition } from '@rally/shared/contracts/editions';
import { queryOptions, useQuery } from '@tanstack/react-query';
import { call, client } from './api-client';

export const editionsKey = ['editions'] as const;

export const editionsQuery = () =>
  queryOptions({
    queryKey: editionsKey,
    queryFn: async (): Promise<Edition[]> => (await call(client.GET('/api/editions'))).data,
    staleTime: 60_000,
  });

/**
 * The current edition's prices (DESIGN.md §9). Until the list has arrived (a prerendered
 * page, a phone on weak data) the catalog's, which an edition keeps unless its organiser
 * changed them; the server computes the amount either way.
 */
export function useCurrentPrices(): Prices {
  const { data } = useQuery(editionsQuery());
  return data?.find((e) => e.current)?.prices ?? PRICES;
}
