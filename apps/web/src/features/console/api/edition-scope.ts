// The console's cache while it browses a past edition (DESIGN.md §9, lib/viewed-edition.ts):
// every console query is cached under its key and the edition it asked about, and leaving an
// edition drops that edition's answers, so a past answer is never shown as today's nor
// refetched under the other edition's name.
import { hashKey, type Query, type QueryClient } from '@tanstack/react-query';
import { editionScopedKey } from '../../../lib/viewed-edition';

const CONSOLE = ['console'] as const;

/** From now on, console queries are told apart by the edition browsed when they are asked. */
export function scopeConsoleQueries(queryClient: QueryClient): void {
  queryClient.setQueryDefaults(CONSOLE, { queryKeyHashFn: (key) => hashKey(editionScopedKey(key)) });
}

/** Stops and forgets every console query asked about another edition than `edition` (null: the current one). */
export function dropOtherEditions(queryClient: QueryClient, edition: string | null): void {
  const other = {
    queryKey: CONSOLE,
    predicate: (q: Query) => q.queryHash !== hashKey(editionScopedKey(q.queryKey, edition)),
  };
  void queryClient.cancelQueries(other);
  queryClient.removeQueries(other);
}
