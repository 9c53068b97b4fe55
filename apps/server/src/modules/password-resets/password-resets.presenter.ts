import type { ResetHistoryEntry } from '@rally/shared/contracts/password-resets';
import { fullName, iso, isoOrNull } from '../../lib/sql-text';
import type { listResetHistory } from './password-resets.service';

type HistoryRow = Awaited<ReturnType<typeof listResetHistory>>['resets'][number];

export function presentReset(row: HistoryRow): ResetHistoryEntry {
  const createdBy = fullName(row.creatorFirstName, row.creatorLastName);
  return {
    id: row.id,
    userId: row.userId,
    userEmail: row.email,
    userName: fullName(row.firstName, row.lastName),
    createdAt: iso(row.createdAt),
    expiresAt: iso(row.expiresAt),
    used: row.usedAt !== null,
    usedAt: isoOrNull(row.usedAt),
    status: row.status,
    // Links made from the operator command line have no staff creator.
    createdBy: createdBy === '' ? null : createdBy,
  };
}
