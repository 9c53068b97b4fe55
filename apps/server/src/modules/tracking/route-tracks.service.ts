// Each trial's route line per edition, from the organiser's GPX file (DESIGN.md §11).
import type { RallyRouteId } from '@rally/shared/catalog/event-day';
import { cumulativeM, type LatLng } from '@rally/shared/geo';
import { and, eq } from 'drizzle-orm';
import type { DbOrTx } from '../../db/client';
import { routeTracks } from '../../db/schema/tracking';

export interface RouteLineForMeasure {
  points: LatLng[];
  /** Metres from the start to each point. */
  cumulative: number[];
  lengthM: number;
}

/** The line a trial's riders are measured against in an edition; null until one is uploaded. */
export async function routeLineOf(
  db: DbOrTx,
  editionId: string,
  trial: RallyRouteId,
): Promise<RouteLineForMeasure | null> {
  const [row] = await db
    .select({ points: routeTracks.points, lengthM: routeTracks.lengthM })
    .from(routeTracks)
    .where(and(eq(routeTracks.editionId, editionId), eq(routeTracks.trial, trial)))
    .limit(1);
  if (!row) return null;
  const points = row.points.map(([lat, lng]) => ({ lat, lng }));
  return { points, cumulative: cumulativeM(points), lengthM: row.lengthM };
}
