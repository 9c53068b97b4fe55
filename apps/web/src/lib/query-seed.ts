// Answers a server-rendered page was drawn with (entry-server.tsx), inlined in its HTML as a
// JSON data block, so the browser's query client starts from them (lib/query-client.ts):
// hydration then finds the very data the markup was made from, and nothing is asked again.
import type { SeededQuery } from '@rally/shared/catalog/web-client';
import type { QueryClient } from '@tanstack/react-query';

export const QUERY_SEED_ID = 'query-seed';

/**
 * The data block's text. JSON may hold `</script>` or `<!--` inside a string (a rider names
 * themselves so): with every `<` written as \u003c the HTML parser cannot end the block
 * early, and JSON.parse reads the same string back.
 */
export function serializeQuerySeed(queries: readonly SeededQuery[]): string {
  return JSON.stringify(queries).replace(/</g, '\\u003c');
}

/** The page's inlined answers; none on a page without any (or with a broken block). */
function seededQueries(): SeededQuery[] {
  if (typeof document === 'undefined') return [];
  const text = document.getElementById(QUERY_SEED_ID)?.textContent;
  if (!text) return [];
  try {
    const queries: unknown = JSON.parse(text);
    return Array.isArray(queries) ? (queries as SeededQuery[]).filter((q) => Array.isArray(q?.queryKey)) : [];
  } catch {
    // The page still works without it: its screen asks the API as on any other page.
    return [];
  }
}

/** Puts the page's inlined answers into `client`. */
export function seedQueryClient(client: QueryClient): void {
  for (const query of seededQueries()) client.setQueryData(query.queryKey, query.data);
}

/** The answer under `queryKey` among `queries` (keys compared as JSON, as TanStack Query compares them). */
export function answerIn(queries: readonly SeededQuery[], queryKey: readonly unknown[]): unknown {
  const key = JSON.stringify(queryKey);
  return queries.find((q) => JSON.stringify(q.queryKey) === key)?.data;
}

/** The page's inlined answer under `queryKey`, if it has one. */
export function seededAnswer(queryKey: readonly unknown[]): unknown {
  return answerIn(seededQueries(), queryKey);
}
