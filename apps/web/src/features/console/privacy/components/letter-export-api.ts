// A rider's data for a request that came by letter or email (DESIGN.md §12, delete_user):
// prepare it, follow it while it is prepared, download the ZIP (each download is written in
// the rider's access log).
import type { AdminDataExport } from '@rally/shared/contracts/data-export';
import { queryOptions } from '@tanstack/react-query';
import { call, client } from '../../../../lib/api-client';
import { downloadFile } from '../../../../lib/download';

export const letterExportKeys = {
  one: (id: string) => ['console', 'letter-export', id] as const,
};

/** While the export is being prepared its state is asked this often, and only then. */
const PREPARING_POLL_MS = 3000;

export async function prepareLetterExport(userId: string): Promise<AdminDataExport> {
  return (await call(client.POST('/api/admin/users/{id}/data-export', { params: { path: { id: userId } } }))).data;
}

export const letterExportQuery = (id: string) =>
  queryOptions({
    queryKey: letterExportKeys.one(id),
    queryFn: async (): Promise<AdminDataExport> =>
      (await call(client.GET('/api/admin/data-exports/{id}', { params: { path: { id } } }))).data,
    refetchInterval: (query) => (query.state.data?.status === 'pending' ? PREPARING_POLL_MS : false),
  });

export function downloadLetterExport(id: string) {
  return downloadFile(`/admin/data-exports/${encodeURIComponent(id)}/download`, 'rally-data.zip');
}
