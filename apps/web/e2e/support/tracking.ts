// Tracking in e2e specs: a rider turns tracking on through the API, and positions reach the
// server the way Traccar Client 10.x sends them with "upload JSON" on: one POST of a JSON
// array of OsmAnd objects (speed in knots, battery 0–100, ISO timestamps).
import type { APIRequestContext } from '@playwright/test';
import { TRACKING_CONSENT_VERSION } from '@rally/shared/catalog/tracking';
import type { MyTracking } from '@rally/shared/contracts/tracking';
import { cli } from './cli';
import { auth, type Session } from './event-day';
import { expect } from './fixtures';

export async function myTracking(request: APIRequestContext, rider: Session): Promise<MyTracking> {
  const res = await request.get('/api/my/tracking', { headers: auth(rider) });
  const body = await res.json();
  expect(res.ok(), JSON.stringify(body)).toBeTruthy();
  return body.data;
}

/** The rider opts in with the consent's current version; answers their tracking id. */
export async function turnTrackingOn(request: APIRequestContext, rider: Session): Promise<string> {
  const res = await request.put('/api/my/tracking', {
    headers: auth(rider),
    data: { enabled: true, consentVersion: TRACKING_CONSENT_VERSION },
  });
  const body = await res.json();
  expect(res.ok(), JSON.stringify(body)).toBeTruthy();
  expect(body.data.trackingId).toBeTruthy();
  return body.data.trackingId;
}

export interface Fix {
  lat: number;
  lon: number;
  at: Date;
  /** knots */
  speed?: number;
  batt?: number;
}

/** One Traccar Client upload: the positions as a JSON array, oldest first. */
export async function sendPositions(request: APIRequestContext, trackingId: string, fixes: Fix[]) {
  const res = await request.post('/api/tracking/osmand', {
    data: fixes.map((f) => ({
      id: trackingId,
      lat: f.lat,
      lon: f.lon,
      timestamp: f.at.toISOString(),
      speed: f.speed ?? 0,
      bearing: 90,
      altitude: 620,
      accuracy: 8,
      batt: f.batt ?? 80,
      charge: false,
    })),
  });
  expect(res.status(), await res.text()).toBe(200);
}

/** A spot of its own for each test (about 1 km apart at random): never near another test's rider. */
export function somewhereInBukidnon(): { lat: number; lon: number } {
  return { lat: 7.9 + Math.random() * 0.2, lon: 125.0 + Math.random() * 0.2 };
}

/** `metres` east of `p` (at these latitudes, 1° of longitude is ~110 km). */
export function east(p: { lat: number; lon: number }, metres: number): { lat: number; lon: number } {
  return { lat: p.lat, lon: p.lon + metres / (111_320 * Math.cos((p.lat * Math.PI) / 180)) };
}

/**
 * How far the e2e server's clock runs ahead of this one, in milliseconds. Specs sharing the
 * worker's server move its clock forward (the test-clock hook of board-live.spec.ts), and the
 * server judges positions by its own clock: a fix "a minute ago" must be a minute before it.
 */
export function serverClockOffsetMs(): number {
  const output = cli(['test-clock', '--advance-minutes', '0']);
  const at = Date.parse(output.replace(/^Server clock now /, '').trim());
  if (!Number.isFinite(at)) throw new Error(`unreadable server clock: ${output}`);
  return at - Date.now();
}
