// Answers a server-rendered page was drawn with (entry-server.tsx), inlined in its HTML as a
// JSON data block, so the browser's query client starts from them (lib/query-client.ts):
// hydration then finds the very data the markup was made from, and nothing is asked again.
import type { QueryClient } from '@tanstack/react-query';

export const QUERY_SEED_ID = 'query-seed';

/** One query's answer as the page was rendered with it. */
export interface SeededQuery {
  queryKey: readonly unknown[];
  data: unknown;
}

/**
 * The data block's text. JSON may hold `</script>` or `<!--` inside a string (a rider names
 * themselves so): with every `<` written as \u003c the HTML parser cannot end the block
 * early, and JSON.parse reads the same string back.
 */
export function serializeQuerySeed(queries: readonly SeededQuery[]): string {
  return JSON.stringify(queries).replace(/</g, '\\u003c');
}

/** Puts the page's inlined answers into `client`; a page without any (or a broken block) adds nothing. */
export function seedQueryClient(client: QueryClient): void {
  if (typeof document === 'undefined') return;
  const text = document.getElementById(QUERY_SEED_ID)?.textContent;
  if (!text) return;
  let queries: unknown;
  try {
    queries = JSON.parse(text);
  } catch {
    // The page still works without it: its screen asks the API as on any other page.
    return;
  }
  if (!Array.isArray(queries)) return;
  for (const query of queries as SeededQuery[]) {
    if (Array.isArray(query?.queryKey)) client.setQueryData(query.queryKey, query.data);
  }
}
