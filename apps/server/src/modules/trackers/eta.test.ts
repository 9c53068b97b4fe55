// The arrival estimate's arithmetic: the recent moving speed along the route and the ETA.
import { describe, expect, it } from 'vitest';
import {
  etaAt,
  MAX_MOVING_SPEED_MS,
  MIN_MOVING_SPEED_MS,
  MOVING_SPEED_WINDOW_MS,
  nextMovingSpeed,
  nextStationAhead,
  stationsOnLine,
} from './eta';

const MIN = 60_000;

describe('moving speed', () => {
  it('starts at the first riding step’s progress along the route', () => {
    // 1.2 km along in a minute: 20 m/s (72 km/h).
    expect(nextMovingSpeed(null, { dtMs: MIN, movedM: 1200, progressM: 1200 })).toBe(20);
  });

  it('weighs a step by its share of the last 15 minutes', () => {
    const after = nextMovingSpeed(20, { dtMs: MIN, movedM: 600, progressM: 600 }) as number;
    const weight = 1 - Math.exp(-MIN / MOVING_SPEED_WINDOW_MS);
    expect(after).toBeCloseTo(20 + (10 - 20) * weight, 6);
    // Fifteen minutes at 10 m/s take it most of the way (63%) there, thirty nearly all.
    let v = 20;
    for (let i = 0; i < 30; i++) v = nextMovingSpeed(v, { dtMs: MIN, movedM: 600, progressM: 600 }) as number;
    expect(v).toBeGreaterThan(10);
    expect(v).toBeLessThan(11.5);
  });

  it('leaves it as it was through a stop, a gap that may hide one, or riding off the route', () => {
    expect(nextMovingSpeed(20, { dtMs: MIN, movedM: 30, progressM: 30 })).toBe(20);
    expect(nextMovingSpeed(20, { dtMs: 40 * MIN, movedM: 40_000, progressM: 40_000 })).toBe(20);
    expect(nextMovingSpeed(20, { dtMs: MIN, movedM: 900, progressM: -900 })).toBe(20);
    expect(nextMovingSpeed(null, { dtMs: 0, movedM: 900, progressM: 900 })).toBeNull();
  });

  it('stays within a motorcycle’s speeds (10–120 km/h)', () => {
    expect(nextMovingSpeed(null, { dtMs: MIN, movedM: 20_000, progressM: 20_000 })).toBe(MAX_MOVING_SPEED_MS);
    expect(nextMovingSpeed(null, { dtMs: MIN, movedM: 100, progressM: 100 })).toBe(MIN_MOVING_SPEED_MS);
  });
});

describe('ETA', () => {
  it('is the distance left over the speed, from the time given', () => {
    const from = new Date('2026-12-06T01:00:00Z');
    expect(etaAt(from, 36_000, 20)?.toISOString()).toBe('2026-12-06T01:30:00.000Z');
    expect(etaAt(from, 0, 20)?.toISOString()).toBe(from.toISOString());
    expect(etaAt(from, 1000, null)).toBeNull();
    expect(etaAt(from, -5, 20)).toBeNull();
  });

  it('heads for the station the scans name when it is ahead, else the first one ahead on the line', () => {
    const line = {
      points: [
        { lat: 8, lng: 125 },
        { lat: 8, lng: 125.5 },
      ],
      cumulative: [0, 55_060],
    };
    const stations = stationsOnLine(
      [
        { id: 'a', name: 'A', lat: 8, lng: 125.1 },
        { id: 'b', name: 'B', lat: 8.001, lng: 125.3 },
        { id: 'c', name: 'C', lat: 8, lng: 125.4 },
        { id: 'x', name: 'No position', lat: null, lng: null },
      ],
      line,
    );
    expect(stations.map((s) => s.id)).toEqual(['a', 'b', 'c']);
    expect(stations[1]?.offM).toBeCloseTo(111, 0);
    expect(nextStationAhead(stations, 20_000, null)?.id).toBe('b');
    expect(nextStationAhead(stations, 20_000, 'c')).toMatchObject({ id: 'c' });
    // The scans' next station lies behind (they rode past it unscanned): the next one ahead.
    expect(nextStationAhead(stations, 20_000, 'a')?.id).toBe('b');
    expect(nextStationAhead(stations, 50_000, null)).toBeNull();
    expect(nextStationAhead(stations, 20_000, null)?.distanceM).toBeCloseTo((stations[1]?.alongM ?? 0) - 20_000, 6);
  });
});
