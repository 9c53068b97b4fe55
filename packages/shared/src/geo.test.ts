import { describe, expect, it } from 'vitest';
import { RALLY_ROUTES } from './catalog/landing';
import { cumulativeM, distanceM, type LatLng, lineLengthM, projectOnLine, simplifyLine } from './geo';

const at = ([lat, lng]: [number, number]): LatLng => ({ lat, lng });
const DAVAO = at(RALLY_ROUTES.lakambini.waypoints[0]?.position as [number, number]);
const CAGAYAN_DE_ORO = { lat: 8.4542, lng: 124.6319 };
/** One degree of a great circle on the mean-radius sphere (2πR / 360). */
const DEGREE_M = (2 * Math.PI * 6_371_008.8) / 360;
/** `metres` east of `p`. */
const east = (p: LatLng, metres: number): LatLng => ({
  lat: p.lat,
  lng: p.lng + metres / (DEGREE_M * Math.cos((p.lat * Math.PI) / 180)),
});

describe('distanceM', () => {
  it('measures Davao to Cagayan de Oro within 0.5% of the WGS84 ellipsoid', () => {
    // The catalog's city points; Vincenty's inverse on WGS84 gives 187,180.7 m between them.
    const d = distanceM(DAVAO, CAGAYAN_DE_ORO);
    expect(Math.abs(d - 187_180.7) / 187_180.7).toBeLessThan(0.005);
    expect(distanceM(CAGAYAN_DE_ORO, DAVAO)).toBeCloseTo(d, 6);
  });

  it('is a degree of a great circle along a meridian, and zero for the same point', () => {
    expect(distanceM({ lat: 7, lng: 125 }, { lat: 8, lng: 125 })).toBeCloseTo(DEGREE_M, 3);
    expect(distanceM({ lat: 0, lng: 124 }, { lat: 0, lng: 125 })).toBeCloseTo(DEGREE_M, 3);
    expect(distanceM(DAVAO, DAVAO)).toBe(0);
  });

  it('adds up a polyline’s legs', () => {
    const line = [DAVAO, CAGAYAN_DE_ORO, DAVAO];
    expect(lineLengthM(line)).toBeCloseTo(2 * distanceM(DAVAO, CAGAYAN_DE_ORO), 6);
    expect(cumulativeM(line)).toEqual([0, distanceM(DAVAO, CAGAYAN_DE_ORO), lineLengthM(line)]);
    expect(lineLengthM([DAVAO])).toBe(0);
  });
});

describe('projectOnLine', () => {
  // A straight road due north, 7°N to 8°N along 125°E, with a bend at 7.5°N.
  const line = [
    { lat: 7, lng: 125 },
    { lat: 7.5, lng: 125 },
    { lat: 8, lng: 125 },
  ];

  it('gives a point beside the road its distance off and along', () => {
    const p = east({ lat: 7.25, lng: 125 }, 1_000);
    const { offM, alongM, snapped } = projectOnLine(p, line);
    expect(offM).toBeGreaterThan(999);
    expect(offM).toBeLessThan(1_001);
    expect(alongM).toBeCloseTo(0.25 * DEGREE_M, -1);
    expect(snapped.lng).toBe(125);
    expect(snapped.lat).toBeCloseTo(7.25, 6);
  });

  it('measures along from the start across vertices, and clamps beyond the ends', () => {
    const p = east({ lat: 7.75, lng: 125 }, -300);
    expect(projectOnLine(p, line).alongM).toBeCloseTo(0.75 * DEGREE_M, -1);
    expect(projectOnLine(p, line).offM).toBeCloseTo(300, 0);
    const beyond = projectOnLine({ lat: 8.01, lng: 125 }, line);
    expect(beyond.alongM).toBeCloseTo(lineLengthM(line), 3);
    expect(beyond.offM).toBeCloseTo(0.01 * DEGREE_M, 0);
    const before = projectOnLine({ lat: 6.99, lng: 125 }, line);
    expect(before.alongM).toBe(0);
  });

  it('keeps a rider on the leg they were on where an out-and-back road passes twice', () => {
    // Out 10 km north and back 200 m to the east.
    const out = { lat: 7, lng: 125 };
    const top = { lat: 7 + 10_000 / DEGREE_M, lng: 125 };
    const outAndBack = [out, top, east(top, 200), east(out, 200)];
    const p = east({ lat: 7 + 5_000 / DEGREE_M, lng: 125 }, 110); // nearer the way back
    expect(projectOnLine(p, outAndBack).alongM).toBeGreaterThan(10_000);
    const onTheWayOut = projectOnLine(p, outAndBack, cumulativeM(outAndBack), { alongM: 4_800, windowM: 1_000 });
    expect(onTheWayOut.alongM).toBeCloseTo(5_000, -1);
    expect(onTheWayOut.offM).toBeCloseTo(110, 0);
  });

  it('handles lines of no or one point', () => {
    expect(projectOnLine(DAVAO, []).offM).toBe(Number.POSITIVE_INFINITY);
    expect(projectOnLine(CAGAYAN_DE_ORO, [DAVAO])).toMatchObject({ alongM: 0, snapped: DAVAO });
  });
});

describe('simplifyLine', () => {
  // A road winding 40 m either side of a straight line north, a point every 10 m for 20 km.
  const road: LatLng[] = Array.from({ length: 2_001 }, (_, i) =>
    east({ lat: 7 + (i * 10) / DEGREE_M, lng: 125 }, 40 * Math.sin((i * 10 * 2 * Math.PI) / 600)),
  );

  for (const tolerance of [5, 40]) {
    it(`keeps both ends and every original point within ${tolerance} m, with far fewer points`, () => {
      const simple = simplifyLine(road, tolerance);
      expect(simple[0]).toBe(road[0]);
      expect(simple.at(-1)).toBe(road.at(-1));
      expect(simple.length).toBeLessThan(road.length / 3);
      const worst = Math.max(...road.map((p) => projectOnLine(p, simple).offM));
      expect(worst).toBeLessThanOrEqual(tolerance);
      // And it keeps the road's shape: most of its length survives.
      expect(lineLengthM(simple)).toBeGreaterThan(0.9 * lineLengthM(road));
    });
  }

  it('simplifies a long winding road (100,000 points, 500 km) in well under the 17 s it once took', () => {
    const long = Array.from({ length: 100_000 }, (_, i) =>
      east({ lat: 6 + (i * 5) / DEGREE_M, lng: 125 }, 40 * Math.sin((i * 5 * 2 * Math.PI) / 300)),
    );
    const started = performance.now();
    const simple = simplifyLine(long, 5);
    expect(performance.now() - started).toBeLessThan(3_000);
    const sample = long.filter((_, i) => i % 997 === 0);
    expect(Math.max(...sample.map((p) => projectOnLine(p, simple).offM))).toBeLessThanOrEqual(5);
  });

  it('drops points on a straight line and leaves short lines alone', () => {
    const straight = Array.from({ length: 50 }, (_, i) => ({ lat: 7 + i * 0.001, lng: 125 }));
    expect(simplifyLine(straight, 1)).toEqual([straight[0], straight[49]]);
    expect(simplifyLine([DAVAO, CAGAYAN_DE_ORO], 1_000_000)).toEqual([DAVAO, CAGAYAN_DE_ORO]);
    expect(simplifyLine([], 5)).toEqual([]);
  });
});
