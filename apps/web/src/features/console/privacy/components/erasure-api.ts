// Erasure requests for staff with delete_user (DESIGN.md §12): the list by status, and the
// decisions.
import type { AdminErasureRequest } from '@rally/shared/contracts/erasure';
import { keepPreviousData, queryOptions } from '@tanstack/react-query';
import { call, client } from '../../../../lib/api-client';

export const erasureKeys = {
  all: ['admin-erasure-requests'] as const,
  list: (status: 'pending' | 'decided', page: number) => [...erasureKeys.all, status, page] as const,
};

export const ERASURE_PAGE_SIZE = 20;

export const erasureRequestsQuery = (status: 'pending' | 'decided', page: number) =>
  queryOptions({
    queryKey: erasureKeys.list(status, page),
    queryFn: async () =>
      (
        await call(
          client.GET('/api/admin/erasure-requests', {
            params: { query: { status, page, limit: ERASURE_PAGE_SIZE } },
          }),
        )
      ).data,
    placeholderData: keepPreviousData,
  });

export type ErasureDecision = 'approve' | 'refuse';

export async function decideErasure(
  id: string,
  decision: ErasureDecision,
  reason: string,
): Promise<AdminErasureRequest> {
  const body = { reason };
  const answer =
    decision === 'approve'
      ? await call(client.POST('/api/admin/erasure-requests/{id}/approve', { params: { path: { id } }, body }))
      : await call(client.POST('/api/admin/erasure-requests/{id}/refuse', { params: { path: { id } }, body }));
  return answer.data;
}
