// Measuring a position on the route: the windowed search agrees with the whole line's, and an
// out-and-back road puts the rider on the leg they were riding, not the other one.
import { cumulativeM, projectOnLine } from '@rally/shared/geo';
import { describe, expect, it } from 'vitest';
import { measure } from './route-measure';

const lineOf = (points: Array<{ lat: number; lng: number }>) => {
  const cumulative = cumulativeM(points);
  return { points, cumulative, lengthM: cumulative.at(-1) as number };
};

describe('measure', () => {
  it('finds, near the last place, what the whole line finds', () => {
    const line = lineOf(
      Array.from({ length: 2001 }, (_, i) => ({ lat: 8 + Math.sin(i / 40) * 0.005, lng: 125 + i * 0.001 })),
    );
    for (const i of [10, 700, 1500, 1990]) {
      const p = { lat: (line.points[i]?.lat as number) + 0.001, lng: (line.points[i]?.lng as number) + 0.0003 };
      const full = projectOnLine(p, line.points, line.cumulative);
      const near = measure(p, line, full.alongM - 3000, 5000, 500);
      expect(near.alongM).toBeCloseTo(full.alongM, 3);
      expect(near.offM).toBeCloseTo(full.offM, 3);
    }
  });

  it('keeps a rider on the leg they ride where the road comes back beside itself', () => {
    // 5.5 km east, a hairpin, and back west 60 m north of the way out.
    const out = Array.from({ length: 51 }, (_, i) => ({ lat: 8, lng: 125 + i * 0.001 }));
    const back = Array.from({ length: 51 }, (_, i) => ({ lat: 8.00055, lng: 125.05 - i * 0.001 }));
    const line = lineOf([...out, ...back]);
    // Between the legs, nearer the way out.
    const p = { lat: 8.0002, lng: 125.02 };
    expect(measure(p, line, null, 5000, 500).alongM).toBeLessThan(line.lengthM / 2);
    // Coming back (last seen 8 km along): on the way back.
    const onBack = measure(p, line, 8000, 2000, 500);
    expect(onBack.alongM).toBeGreaterThan(line.lengthM / 2);
    expect(onBack.offM).toBeLessThan(60);
  });
});
