// The rider's own data exports (DESIGN.md §12): ask for one, follow it while it is prepared,
// download the ZIP (fetched with the session's token: a plain link cannot carry it).
import type { DataExport } from '@rally/shared/contracts/data-export';
import { queryOptions } from '@tanstack/react-query';
import { call, client } from '../../../lib/api-client';
import { downloadFile } from '../../../lib/download';

export const dataExportsKey = ['my', 'data-export'] as const;

/** While an export is being prepared its state is asked for this often, and only then. */
export const PREPARING_POLL_MS = 3000;

export const myDataExportsQuery = () =>
  queryOptions({
    queryKey: dataExportsKey,
    queryFn: async (): Promise<DataExport[]> => (await call(client.GET('/api/my/data-export'))).data,
  });

export const dataExportQuery = (id: string) =>
  queryOptions({
    queryKey: [...dataExportsKey, id] as const,
    queryFn: async (): Promise<DataExport> =>
      (await call(client.GET('/api/my/data-export/{id}', { params: { path: { id } } }))).data,
    refetchInterval: (query) => (query.state.data?.status === 'pending' ? PREPARING_POLL_MS : false),
  });

export async function askDataExport(): Promise<{ export: DataExport; message?: string }> {
  const res = await call(client.POST('/api/my/data-export'));
  return { export: res.data, message: res.message };
}

export function downloadDataExport(id: string) {
  return downloadFile(`/my/data-export/${encodeURIComponent(id)}/download`, 'rally-data.zip');
}

/** 1 536 bytes → "2 KB"; over a megabyte, "1.4 MB". */
export function zipSize(bytes: number | null): string {
  if (bytes === null) return '';
  if (bytes >= 1024 * 1024) return `${(bytes / (1024 * 1024)).toFixed(1)} MB`;
  return `${Math.max(1, Math.round(bytes / 1024))} KB`;
}
