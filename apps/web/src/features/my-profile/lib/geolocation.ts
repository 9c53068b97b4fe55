import type { Position } from '@rally/shared/contracts/incidents';

/**
 * The phone's position for an SOS: a fresh high-accuracy fix if one comes within `timeoutMs`,
 * else a cached one up to two minutes old, else nothing (the call goes without it; the last
 * station scanned still tells staff where to start).
 */
export function currentPosition(timeoutMs = 8_000): Promise<Position | undefined> {
  if (typeof navigator === 'undefined' || !navigator.geolocation) return Promise.resolve(undefined);
  return new Promise((resolve) => {
    navigator.geolocation.getCurrentPosition(
      (p) =>
        resolve({
          lat: p.coords.latitude,
          lng: p.coords.longitude,
          accuracy: p.coords.accuracy,
          at: new Date(p.timestamp).toISOString(),
        }),
      () => resolve(undefined),
      { enableHighAccuracy: true, timeout: timeoutMs, maximumAge: 120_000 },
    );
  });
}
