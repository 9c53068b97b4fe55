import type { AdminErasureRequest, ErasureStatus, MyErasureRequest } from '@rally/shared/contracts/erasure';
import { fullName, iso, isoOrNull } from '../../lib/sql-text';
import type { AdminErasureRow, MyErasureRow } from './erasure.service';

export function presentMyErasure(row: MyErasureRow): MyErasureRequest {
  return {
    id: row.id,
    status: row.status as ErasureStatus,
    note: row.note,
    requestedAt: iso(row.requestedAt),
    decidedAt: isoOrNull(row.decidedAt),
    reason: row.reason,
  };
}

/** A request as staff read it: the rider while the account exists; an erased one names nobody. */
export function presentAdminErasure(row: AdminErasureRow): AdminErasureRequest {
  return {
    id: row.id,
    status: row.status as ErasureStatus,
    rider:
      row.userId && row.email
        ? {
            id: row.userId,
            name: fullName(row.firstName, row.lastName),
            email: row.email,
            riderNumber: row.riderNumber,
          }
        : null,
    note: row.note,
    requestedAt: iso(row.requestedAt),
    decidedAt: isoOrNull(row.decidedAt),
    decidedByName: row.decidedByName,
    reason: row.reason,
  };
}
