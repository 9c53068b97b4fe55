// Calls of the Reports tab: the list of exports (GET /admin/exports) and their files.
import type { ExportFormat, ExportListResponse } from '@rally/shared/contracts/exports';
import { call, client } from '../../../../lib/api-client';
import { downloadFile } from '../../../../lib/download';

export const reportKeys = {
  list: ['console', 'reports', 'exports'] as const,
};

export async function fetchExports(): Promise<ExportListResponse['data']> {
  return (await call(client.GET('/api/admin/exports'))).data;
}

/** An export with sensitive columns needs `reason` (asked by ExportReasonDialog); the others send none. */
export function downloadExport(name: string, format: ExportFormat, reason?: string) {
  const query = reason ? `?${new URLSearchParams({ reason })}` : '';
  return downloadFile(`/admin/exports/${encodeURIComponent(name)}.${format}${query}`, `${name}.${format}`);
}
