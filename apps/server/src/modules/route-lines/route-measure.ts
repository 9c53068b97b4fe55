// Where a position falls on a route line of a thousand kilometres, fast: near the rider's
// last place first (DESIGN.md §11). The alerts measure every fresh position against it.
import { type LatLng, type Projection, projectOnLine } from '@rally/shared/geo';
import type { RouteLineForMeasure } from './route-lines.service';

/**
 * How far a rider can have gone along the line since the last position: the projection
 * prefers the leg within this of where they were (a switchback passes a spot twice).
 */
export function nearWindowM(dtMs: number | null): number {
  const seconds = dtMs === null ? 3600 : Math.max(0, dtMs / 1000);
  return 2_000 + seconds * 60;
}

/**
 * Where `p` falls on the line, preferring the part near `prevAlong`. A rally route is 1,000 km
 * of points: near the last position only the part within the window is measured, and the
 * whole line only when that part is not close (the rider jumped, or left the route).
 */
export function measure(
  p: LatLng,
  line: RouteLineForMeasure,
  prevAlong: number | null,
  windowM: number,
  closeEnoughM: number,
): Projection {
  if (prevAlong !== null && line.points.length > 1) {
    const from = Math.max(0, lowerBound(line.cumulative, prevAlong - windowM) - 1);
    const to = Math.min(line.points.length, lowerBound(line.cumulative, prevAlong + windowM) + 1);
    if (to - from >= 2) {
      const part = projectOnLine(p, line.points.slice(from, to), line.cumulative.slice(from, to));
      if (part.offM <= closeEnoughM) return part;
    }
    return projectOnLine(p, line.points, line.cumulative, { alongM: prevAlong, windowM });
  }
  return projectOnLine(p, line.points, line.cumulative);
}

function lowerBound(sorted: readonly number[], value: number): number {
  let lo = 0;
  let hi = sorted.length;
  while (lo < hi) {
    const mid = (lo + hi) >> 1;
    if ((sorted[mid] as number) < value) lo = mid + 1;
    else hi = mid;
  }
  return lo;
}
