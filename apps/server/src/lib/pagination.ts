// One way to page a staff list: the page's rows and the size of the whole filtered set
// come from one query, each row carrying `total: count(*) over ()`.
import { makePagination } from '@rally/shared/contracts/common';
import { sql } from 'drizzle-orm';

/** Select it as `total` beside a page's columns: the number of rows before limit/offset. */
export const totalRows = sql<number>`count(*) over ()`.mapWith(Number);

/**
 * Runs `fetch` for one page. A page past the end has no row to carry the total, so the
 * same query is asked for its first row instead (only then: one query in every other case).
 */
export async function paginate<R extends { total: number }>(
  fetch: (limit: number, offset: number) => Promise<R[]>,
  limit: number,
  offset: number,
): Promise<{ rows: R[]; total: number }> {
  const rows = await fetch(limit, offset);
  const first = rows[0] ?? (offset > 0 ? (await fetch(1, 0))[0] : undefined);
  return { rows, total: first?.total ?? 0 };
}

/** Offset of a 1-based page. */
export const pageOffset = (page: number, limit: number) => (page - 1) * limit;

/** A 1-based page of a list: its rows and the envelope's pagination block. */
export async function pageOf<R extends { total: number }>(
  fetch: (limit: number, offset: number) => Promise<R[]>,
  q: { page: number; limit: number },
) {
  const { rows, total } = await paginate(fetch, q.limit, pageOffset(q.page, q.limit));
  return { rows, total, pagination: makePagination(q.page, q.limit, total) };
}
