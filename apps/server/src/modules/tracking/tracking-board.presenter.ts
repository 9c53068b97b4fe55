import type { TrackedRider, TrackPoint } from '@rally/shared/contracts/tracking';
import type { PositionRow } from '../../db/schema/tracking';
import type { TrackingView } from '../trackers/tracking-view';

const iso = (d: Date | null) => d?.toISOString() ?? null;
const metres = (m: number | null) => (m === null ? null : Math.round(m));

export function presentTrackPoint(
  p: Pick<PositionRow, 'lat' | 'lng' | 'at' | 'speed' | 'accuracy' | 'battery' | 'charging'>,
): TrackPoint {
  return {
    lat: p.lat,
    lng: p.lng,
    at: p.at.toISOString(),
    speed: p.speed,
    accuracy: p.accuracy,
    battery: p.battery,
    charging: p.charging,
  };
}

export function presentTrackedRider(v: TrackingView): TrackedRider {
  const t = v.tracker;
  return {
    userId: v.rider.id,
    riderNumber: v.rider.riderNumber,
    kitName: v.rider.kitName,
    firstName: v.rider.firstName,
    lastName: v.rider.lastName,
    route: v.route,
    state: v.state,
    last:
      t.lastAt && t.lastLat !== null && t.lastLng !== null
        ? presentTrackPoint({
            lat: t.lastLat,
            lng: t.lastLng,
            at: t.lastAt,
            speed: t.lastSpeed,
            accuracy: t.lastAccuracy,
            battery: t.lastBattery,
            charging: t.lastCharging,
          })
        : null,
    alongM: metres(v.alongM),
    offRouteM: metres(v.offRouteM),
    movingSpeed: t.movingSpeed === null ? null : Math.round(t.movingSpeed * 10) / 10,
    nextStation: v.nextStation
      ? {
          id: v.nextStation.id,
          name: v.nextStation.name,
          distanceM: v.nextStation.distanceM,
          eta: iso(v.nextStation.eta),
        }
      : null,
    lowBattery: v.lowBattery,
    stoppedSince: iso(v.stoppedSince),
    alert: v.alert ? { incidentId: v.alert.incidentId, kind: v.alert.kind, since: v.alert.since.toISOString() } : null,
  };
}
