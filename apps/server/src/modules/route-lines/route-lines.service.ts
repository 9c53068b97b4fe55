// Each trial's route line per edition, from the organiser's GPX file (DESIGN.md §11).
import type { RallyRouteId } from '@rally/shared/catalog/event-day';
import { RALLY_ROUTES } from '@rally/shared/catalog/landing';
import { cumulativeM, type LatLng, lineLengthM, simplifyLine } from '@rally/shared/geo';
import { and, asc, eq } from 'drizzle-orm';
import type { Db, DbOrTx } from '../../db/client';
import { type RouteTrackRow, routeTracks } from '../../db/schema/tracking';
import type { Actor } from '../../lib/actor';
import { NotFoundError } from '../../lib/errors';
import { recordActivity } from '../activities/activities.service';
import { currentEdition } from '../editions/editions.service';
import { parseGpx } from './gpx';

/**
 * The line alerts measure against keeps every bend wider than this (a phone's fix is good to
 * 5–10 m, the off-route distance is hundreds): a 400 km day becomes a few thousand points.
 */
export const MEASURE_TOLERANCE_M = 5;
/** The line maps draw: at the landing map's zoom a pixel is hundreds of metres. */
export const DRAWN_TOLERANCE_M = 40;

export interface RouteLineForMeasure {
  points: LatLng[];
  /** Metres from the start to each point. */
  cumulative: number[];
  lengthM: number;
}

// Every ingest batch measures against its trial's line: the points and their cumulative
// distances are kept per process, checked against the row's upload time and length (a
// replaced line has a new upload time; another database holding the same edition id in the
// same process, as tests do, has another length or time).
const measured = new Map<string, { stamp: string; line: RouteLineForMeasure }>();
const MEASURED_MAX = 64;

/** The line a trial's riders are measured against in an edition; null until one is uploaded. */
export async function routeLineOf(
  db: DbOrTx,
  editionId: string,
  trial: RallyRouteId,
): Promise<RouteLineForMeasure | null> {
  const where = and(eq(routeTracks.editionId, editionId), eq(routeTracks.trial, trial));
  const [head] = await db
    .select({ uploadedAt: routeTracks.uploadedAt, lengthM: routeTracks.lengthM })
    .from(routeTracks)
    .where(where)
    .limit(1);
  const key = `${editionId}:${trial}`;
  if (!head) {
    measured.delete(key);
    return null;
  }
  const stamp = `${head.uploadedAt.getTime()}:${head.lengthM}`;
  const known = measured.get(key);
  if (known?.stamp === stamp) return known.line;
  const [row] = await db.select({ points: routeTracks.points }).from(routeTracks).where(where).limit(1);
  if (!row) return null;
  const points = row.points.map(([lat, lng]) => ({ lat, lng }));
  const line = { points, cumulative: cumulativeM(points), lengthM: head.lengthM };
  if (measured.size >= MEASURED_MAX) measured.clear();
  measured.set(key, { stamp, line });
  return line;
}

/** 6 decimals: 0.1 m, and a third of the JSON of a double's 15. */
const pair = (p: LatLng): [number, number] => [Math.round(p.lat * 1e6) / 1e6, Math.round(p.lng * 1e6) / 1e6];

export interface RouteTrackUpload {
  buffer: Buffer;
  filename: string | null;
}

/**
 * Reads the GPX (400 GPX_INVALID before anything is written) and makes it the trial's line in
 * the current edition, replacing any earlier one. The length is the full track's; the stored
 * lines are simplified, one for measuring and one for drawing.
 */
export async function saveRouteTrack(
  db: Db,
  trial: RallyRouteId,
  file: RouteTrackUpload,
  actor: Actor,
  now: Date,
): Promise<RouteTrackRow> {
  const gpx = parseGpx(file.buffer);
  const lengthM = Math.round(lineLengthM(gpx.points) * 10) / 10;
  const measure = simplifyLine(gpx.points, MEASURE_TOLERANCE_M);
  // From the measured line: within 45 m of the road, at a fraction of the work.
  const drawn = simplifyLine(measure, DRAWN_TOLERANCE_M);
  const fileName = file.filename?.trim().slice(0, 200) || null;
  const values = {
    name: gpx.name ?? RALLY_ROUTES[trial].name,
    points: measure.map(pair),
    drawn: drawn.map(pair),
    lengthM,
    fileName,
    uploadedBy: actor.id,
    uploadedAt: now,
  };
  return db.transaction(async (tx) => {
    const edition = await currentEdition(tx);
    const [row] = await tx
      .insert(routeTracks)
      .values({ editionId: edition.id, trial, ...values })
      .onConflictDoUpdate({ target: [routeTracks.editionId, routeTracks.trial], set: values })
      .returning();
    await recordActivity(tx, {
      type: 'route_track_updated',
      actorId: actor.id,
      actorName: actor.name,
      description: `${actor.name} uploaded the ${RALLY_ROUTES[trial].name} route line (${(lengthM / 1000).toFixed(1)} km)`,
      details: `${fileName ?? 'GPX file'}: ${gpx.points.length} points, ${measure.length} kept for alerts, ${drawn.length} drawn`,
      metadata: { trial, editionId: edition.id, lengthM, points: gpx.points.length },
    });
    return row as RouteTrackRow;
  });
}

/** Removes the trial's line in the current edition (404 when there is none). */
export async function deleteRouteTrack(db: Db, trial: RallyRouteId, actor: Actor): Promise<void> {
  await db.transaction(async (tx) => {
    const edition = await currentEdition(tx);
    const removed = await tx
      .delete(routeTracks)
      .where(and(eq(routeTracks.editionId, edition.id), eq(routeTracks.trial, trial)))
      .returning({ trial: routeTracks.trial });
    if (removed.length === 0)
      throw new NotFoundError(`${RALLY_ROUTES[trial].name} has no route line to remove`, 'ROUTE_TRACK_NOT_FOUND');
    await recordActivity(tx, {
      type: 'route_track_updated',
      actorId: actor.id,
      actorName: actor.name,
      description: `${actor.name} removed the ${RALLY_ROUTES[trial].name} route line`,
      metadata: { trial, editionId: edition.id },
    });
  });
}

export type RouteLineRow = Pick<RouteTrackRow, 'trial' | 'name' | 'drawn' | 'lengthM' | 'fileName' | 'uploadedAt'>;

/** The current edition's lines, for every trial that has one (in the catalog's order). */
export async function currentRouteLines(db: DbOrTx): Promise<RouteLineRow[]> {
  const edition = await currentEdition(db);
  const rows = await db
    .select({
      trial: routeTracks.trial,
      name: routeTracks.name,
      drawn: routeTracks.drawn,
      lengthM: routeTracks.lengthM,
      fileName: routeTracks.fileName,
      uploadedAt: routeTracks.uploadedAt,
    })
    .from(routeTracks)
    .where(eq(routeTracks.editionId, edition.id))
    .orderBy(asc(routeTracks.trial));
  const order = Object.keys(RALLY_ROUTES);
  return rows.sort((a, b) => order.indexOf(a.trial) - order.indexOf(b.trial));
}
