import type { AdminDataExport, DataExport, DataExportStatus } from '@rally/shared/contracts/data-export';
import { iso, isoOrNull } from '../../lib/sql-text';
import type { ExportRow } from './data-export.service';

export function presentExport(row: ExportRow): DataExport {
  return {
    id: row.id,
    status: row.status as DataExportStatus,
    createdAt: iso(row.createdAt),
    readyAt: isoOrNull(row.readyAt),
    expiresAt: iso(row.expiresAt),
    bytes: row.status === 'ready' ? row.bytes : null,
    byStaff: row.requestedBy !== null,
  };
}

export function presentLetterExport(
  row: ExportRow & { firstName: string | null; lastName: string | null; email: string | null },
): AdminDataExport {
  return {
    ...presentExport(row),
    // A letter export always names staff, even once that account has gone (the key sets null).
    byStaff: true,
    userId: row.userId,
    riderName: `${row.firstName ?? ''} ${row.lastName ?? ''}`.trim(),
    riderEmail: row.email,
  };
}
