// Distances on the ground, for tracking riders along a route line (DESIGN.md §11). Plain
// spherical geometry: at Mindanao's latitudes and rally distances (a few hundred metres off
// a line, a thousand kilometres along it) it is within a fraction of a percent of the
// ellipsoid, far below a phone's GPS error. Server and web use the same functions.

export interface LatLng {
  lat: number;
  lng: number;
}

const EARTH_RADIUS_M = 6_371_008.8;
const RAD = Math.PI / 180;

/** Great-circle distance in metres. */
export function distanceM(a: LatLng, b: LatLng): number {
  const dLat = (b.lat - a.lat) * RAD;
  const dLng = (b.lng - a.lng) * RAD;
  const h = Math.sin(dLat / 2) ** 2 + Math.cos(a.lat * RAD) * Math.cos(b.lat * RAD) * Math.sin(dLng / 2) ** 2;
  return 2 * EARTH_RADIUS_M * Math.asin(Math.min(1, Math.sqrt(h)));
}

/** Length of a polyline in metres. */
export function lineLengthM(line: readonly LatLng[]): number {
  let total = 0;
  for (let i = 1; i < line.length; i++) total += distanceM(line[i - 1] as LatLng, line[i] as LatLng);
  return total;
}

/** Metres east and north of `origin` (an equirectangular plane: exact enough within a segment). */
function toPlane(origin: LatLng, p: LatLng): [number, number] {
  const x = (p.lng - origin.lng) * RAD * EARTH_RADIUS_M * Math.cos(origin.lat * RAD);
  const y = (p.lat - origin.lat) * RAD * EARTH_RADIUS_M;
  return [x, y];
}

export interface Projection {
  /** Metres from the point to the nearest point of the line. */
  offM: number;
  /** Metres along the line from its start to that nearest point. */
  alongM: number;
  /** The nearest point of the line (a position "snapped to the route"). */
  snapped: LatLng;
}

/**
 * Where `p` falls on `line`: its distance from the line and how far along it. `cumulative`
 * (metres from the start to each vertex, `cumulativeM(line)`) may be passed to save work
 * when one line meets many points. `near`, metres along, prefers the nearest point within
 * `window` metres of it: a road that doubles back on itself (a switchback, an out-and-back)
 * passes one spot twice, and a rider is where they were heading, not on the other leg.
 */
export function projectOnLine(
  p: LatLng,
  line: readonly LatLng[],
  cumulative: readonly number[] = cumulativeM(line),
  near?: { alongM: number; windowM: number },
): Projection {
  if (line.length === 0) return { offM: Number.POSITIVE_INFINITY, alongM: 0, snapped: p };
  if (line.length === 1) return { offM: distanceM(p, line[0] as LatLng), alongM: 0, snapped: line[0] as LatLng };
  let best: Projection | null = null;
  let bestNear: Projection | null = null;
  for (let i = 1; i < line.length; i++) {
    const a = line[i - 1] as LatLng;
    const b = line[i] as LatLng;
    const [bx, by] = toPlane(a, b);
    const [px, py] = toPlane(a, p);
    const len2 = bx * bx + by * by;
    const t = len2 === 0 ? 0 : Math.max(0, Math.min(1, (px * bx + py * by) / len2));
    const snapped = { lat: a.lat + (b.lat - a.lat) * t, lng: a.lng + (b.lng - a.lng) * t };
    const offM = distanceM(p, snapped);
    const alongM = (cumulative[i - 1] as number) + t * ((cumulative[i] as number) - (cumulative[i - 1] as number));
    const candidate = { offM, alongM, snapped };
    if (!best || offM < best.offM) best = candidate;
    if (near && Math.abs(alongM - near.alongM) <= near.windowM && (!bestNear || offM < bestNear.offM))
      bestNear = candidate;
  }
  // The leg near where the rider was, unless the other one is far closer (they really jumped).
  if (bestNear && best && bestNear.offM <= best.offM + 250) return bestNear;
  return best as Projection;
}

/** Metres from the start of `line` to each of its vertices. */
export function cumulativeM(line: readonly LatLng[]): number[] {
  const out = [0];
  for (let i = 1; i < line.length; i++)
    out.push((out[i - 1] as number) + distanceM(line[i - 1] as LatLng, line[i] as LatLng));
  return out;
}

/** Spans of more points than this are cut first: Douglas–Peucker's worst case is quadratic. */
const SIMPLIFY_SPAN = 1_000;

/**
 * Douglas–Peucker: the fewest points that stay within `toleranceM` of the line (what a map
 * draws; a GPX of a 400 km day holds tens of thousands of points, a phone needs hundreds).
 * Distances are taken on a plane per span (metres east scaled by the cosine of the span's
 * middle latitude), with no trigonometry per point, and the line is first cut every 1,000
 * points (those kept): on a road winding evenly each split falls near one end of its span,
 * and 100,000 points measured with `projectOnLine` over whole spans took 17 s; now ~35 ms.
 * Within a span of a few kilometres the plane is exact to millimetres.
 */
export function simplifyLine(line: readonly LatLng[], toleranceM: number): LatLng[] {
  const n = line.length;
  if (n <= 2) return [...line];
  const keep = new Uint8Array(n);
  const xs = new Float64Array(n);
  const ys = new Float64Array(n);
  for (let i = 0; i < n; i++) {
    const p = line[i] as LatLng;
    xs[i] = p.lng * RAD * EARTH_RADIUS_M;
    ys[i] = p.lat * RAD * EARTH_RADIUS_M;
  }
  const tolerance2 = toleranceM * toleranceM;
  const stack: Array<[number, number]> = [];
  keep[n - 1] = 1;
  for (let first = 0; first < n - 1; first += SIMPLIFY_SPAN) {
    keep[first] = 1;
    stack.push([first, Math.min(first + SIMPLIFY_SPAN, n - 1)]);
  }
  while (stack.length > 0) {
    const [first, last] = stack.pop() as [number, number];
    if (last - first < 2) continue;
    const k = Math.cos((((line[first] as LatLng).lat + (line[last] as LatLng).lat) / 2) * RAD);
    const ax = (xs[first] as number) * k;
    const ay = ys[first] as number;
    const dx = (xs[last] as number) * k - ax;
    const dy = (ys[last] as number) - ay;
    const len2 = dx * dx + dy * dy;
    let worst = -1;
    let worstIndex = -1;
    for (let i = first + 1; i < last; i++) {
      const px = (xs[i] as number) * k - ax;
      const py = (ys[i] as number) - ay;
      const t = len2 === 0 ? 0 : Math.max(0, Math.min(1, (px * dx + py * dy) / len2));
      const ex = px - t * dx;
      const ey = py - t * dy;
      const d2 = ex * ex + ey * ey;
      if (d2 > worst) {
        worst = d2;
        worstIndex = i;
      }
    }
    if (worst > tolerance2 && worstIndex > 0) {
      keep[worstIndex] = 1;
      stack.push([first, worstIndex], [worstIndex, last]);
    }
  }
  return line.filter((_, i) => keep[i] === 1);
}
