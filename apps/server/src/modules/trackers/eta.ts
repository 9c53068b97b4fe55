// Arrival estimates (DESIGN.md §11): where a tracked rider is along their route, how fast they
// have recently been making progress along it while moving, and when that puts them at the
// next station. Pure functions: the alerts keep the speed on the tracker row, the board and
// the overdue list read it.
import { type LatLng, projectOnLine } from '@rally/shared/geo';

/** The speed is the progress along the route over about this long of riding. */
export const MOVING_SPEED_WINDOW_MS = 15 * 60_000;
/**
 * A sane motorcycle's progress along a mountain route: slower is a rider walking the bike or
 * a GPS jitter, faster is a glitch (or a ride in a truck). The estimate stays within these.
 */
export const MIN_MOVING_SPEED_MS = 10 / 3.6;
export const MAX_MOVING_SPEED_MS = 120 / 3.6;
/** Below this (straight line, m/s) between two positions the rider was not riding. */
export const RIDING_SPEED_MS = 1.5;
/** A gap longer than this between positions may hide a stop: it tells nothing of the speed. */
export const SPEED_GAP_MAX_MS = 10 * 60_000;

export const clampSpeed = (v: number) => Math.min(MAX_MOVING_SPEED_MS, Math.max(MIN_MOVING_SPEED_MS, v));

export interface Sample {
  at: Date;
  /** Straight-line metres from the previous position. */
  movedM: number;
  /** Metres along the route gained since the previous position (negative: went back). */
  progressM: number;
}

/**
 * The recent moving speed after one more step between two positions. Each step the rider
 * rode (not a stop, not a gap that may hide one) weighs in by its duration against the
 * window, so the figure is the progress along the route over the last ~15 minutes of riding:
 * a stop leaves it as it was (the rider will ride on at that pace), a climb behind a truck
 * brings it down within minutes.
 */
export function nextMovingSpeed(previous: number | null, step: { dtMs: number; movedM: number; progressM: number }) {
  const { dtMs, movedM, progressM } = step;
  if (dtMs <= 0 || dtMs > SPEED_GAP_MAX_MS) return previous;
  if (movedM / (dtMs / 1000) < RIDING_SPEED_MS) return previous;
  // Riding, but not along the route (off it, or back along it): no progress to measure.
  if (progressM <= 0) return previous;
  const speed = clampSpeed(progressM / (dtMs / 1000));
  if (previous === null) return speed;
  const weight = 1 - Math.exp(-dtMs / MOVING_SPEED_WINDOW_MS);
  return clampSpeed(previous + (speed - previous) * weight);
}

/** When a rider `distanceM` short of a station, riding at `speed` m/s from `from`, gets there. */
export function etaAt(from: Date, distanceM: number, speed: number | null): Date | null {
  if (speed === null || !Number.isFinite(speed) || speed <= 0 || distanceM < 0) return null;
  return new Date(from.getTime() + (distanceM / speed) * 1000);
}

export interface StationOnLine {
  id: string;
  name: string;
  /** Metres along the route line. */
  alongM: number;
  /** Metres from the line (a station set back from the road). */
  offM: number;
}

/** Where each station with a position falls on the line. */
export function stationsOnLine(
  stations: ReadonlyArray<{ id: string; name: string; lat: number | null; lng: number | null }>,
  line: { points: readonly LatLng[]; cumulative: readonly number[] },
): StationOnLine[] {
  return stations.flatMap((s) => {
    if (s.lat === null || s.lng === null) return [];
    const p = projectOnLine({ lat: s.lat, lng: s.lng }, line.points, line.cumulative);
    return [{ id: s.id, name: s.name, alongM: p.alongM, offM: p.offM }];
  });
}

/**
 * The station the rider heads for: the one the course says is next (its scans), when it lies
 * ahead on the line; otherwise the first station ahead of where the rider is.
 */
export function nextStationAhead(
  stations: readonly StationOnLine[],
  alongM: number,
  courseNextId: string | null,
): (StationOnLine & { distanceM: number }) | null {
  const named = courseNextId ? stations.find((s) => s.id === courseNextId) : undefined;
  const ahead = named && named.alongM >= alongM ? named : stations.filter((s) => s.alongM > alongM).sort(byAlong)[0];
  return ahead ? { ...ahead, distanceM: ahead.alongM - alongM } : null;
}

const byAlong = (a: StationOnLine, b: StationOnLine) => a.alongM - b.alongM;
