import type { FlaggedScan, Passage } from '@rally/shared/contracts/scans';
import { fullName } from '../../lib/sql-text';
import { canSee } from '../../lib/visibility';
import type { riderPassages } from '../course/passages';
import type { FlaggedRow } from './scan-review.service';

/**
 * The marshal and the reviewer are staff accounts: one the viewer may not see (a developer
 * for an admin) is named like a deleted account, the visibility rule of every staff list.
 */
export function presentFlagged(row: FlaggedRow, viewerRole: string | null): FlaggedScan {
  const reviewer = canSee(viewerRole, row.reviewerRole) ? fullName(row.reviewerFirstName, row.reviewerLastName) : '';
  const recorderSeen = row.recorderId !== null && canSee(viewerRole, row.recorderRole);
  return {
    id: row.id,
    stationId: row.stationId,
    stationName: row.stationName,
    // Only flagged rows are listed, and they always carry a reason.
    reason: row.reason ?? 'unknown_rider',
    scannedAt: row.scannedAt.toISOString(),
    receivedAt: row.receivedAt.toISOString(),
    deviceId: row.deviceId,
    source: row.source,
    riderCode: row.riderCode,
    riderNumber: row.riderNumber,
    rider: row.riderId
      ? {
          id: row.riderId,
          riderNumber: row.riderRiderNumber,
          kitName: row.riderKitName,
          firstName: row.riderFirstName ?? '',
          lastName: row.riderLastName ?? '',
          category: row.riderCategory,
          photoUrl: row.riderPhoto,
        }
      : null,
    recordedBy:
      recorderSeen && row.recorderId
        ? { id: row.recorderId, name: fullName(row.recorderFirstName, row.recorderLastName) }
        : null,
    review:
      row.reviewDecision && row.reviewedAt
        ? { decision: row.reviewDecision, note: row.reviewNote ?? '', by: reviewer, at: row.reviewedAt.toISOString() }
        : null,
  };
}

export function presentPassage(row: Awaited<ReturnType<typeof riderPassages>>[number]): Passage {
  return {
    stationId: row.stationId,
    stationName: row.stationName,
    kind: row.kind,
    scannedAt: row.scannedAt.toISOString(),
  };
}
