import type { RouteLine } from '@rally/shared/contracts/tracking';
import type { RouteLineRow } from './route-lines.service';

/** A trial's line as maps read it: the drawn points, never the finer line alerts measure against. */
export function presentRouteLine(row: RouteLineRow): RouteLine {
  return {
    trial: row.trial,
    name: row.name,
    lengthM: row.lengthM,
    points: row.drawn,
    uploadedAt: row.uploadedAt.toISOString(),
    fileName: row.fileName,
  };
}
