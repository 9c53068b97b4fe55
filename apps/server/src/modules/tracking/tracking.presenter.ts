// The rider's own tracking, as GET/PUT /api/my/tracking answer it. The tracking id and the
// setup link are the endpoint's credential: only the rider reads them, and only while on.
import { trackingSetupUrl } from '@rally/shared/catalog/tracking';
import type { MyTracking, TrackPoint } from '@rally/shared/contracts/tracking';
import type { TrackerRow } from '../../db/schema/tracking';

export function presentLastPosition(row: TrackerRow): TrackPoint | null {
  if (row.lastAt === null || row.lastLat === null || row.lastLng === null) return null;
  return {
    lat: row.lastLat,
    lng: row.lastLng,
    at: row.lastAt.toISOString(),
    speed: row.lastSpeed,
    accuracy: row.lastAccuracy,
    battery: row.lastBattery,
    charging: row.lastCharging,
  };
}

export function presentMyTracking(row: TrackerRow | null, publicUrl: string): MyTracking {
  const on = row?.enabled === true;
  return {
    enabled: on,
    trackingId: on ? row.trackingId : null,
    setupUrl: on ? trackingSetupUrl(publicUrl, row.trackingId) : null,
    consentVersion: row?.consentVersion ?? null,
    consentedAt: row?.consentedAt?.toISOString() ?? null,
    lastPosition: row ? presentLastPosition(row) : null,
  };
}
