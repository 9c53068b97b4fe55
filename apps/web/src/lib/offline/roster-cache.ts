// The scanner's roster on the device: fetched whole once, then only what changed since the
// last cursor (GET /api/admin/scan-roster?since=), so a verdict never waits on the network.
// Photos are kept as blobs next to it, fetched in the background after each refresh.
import type { RosterRider } from '@rally/shared/contracts/scans';
import { call, client, getAuthToken } from '../api-client';
import { offlineDb, readMeta } from './offline-db';

export async function loadRoster(): Promise<RosterRider[]> {
  return (await offlineDb()).getAll('roster');
}

/** Brings the cached roster up to date; returns how many riders changed. Throws when offline. */
export async function refreshRoster(): Promise<{ changed: number; removed: number }> {
  const cursor = await readMeta('rosterCursor');
  const answer = await call(
    client.GET('/api/admin/scan-roster', { params: { query: cursor ? { since: cursor } : {} } }),
  );
  const { riders, removed } = answer.data;
  const db = await offlineDb();
  const tx = db.transaction(['roster', 'photos', 'meta'], 'readwrite');
  // A full answer replaces the roster: a rider who left while no cursor was kept must go.
  if (!cursor) await tx.objectStore('roster').clear();
  for (const rider of riders) await tx.objectStore('roster').put(rider);
  for (const id of removed) {
    await tx.objectStore('roster').delete(id);
    await tx.objectStore('photos').delete(id);
  }
  await tx.objectStore('meta').put(answer.data.cursor, 'rosterCursor');
  await tx.objectStore('meta').put(new Date().toISOString(), 'rosterSyncedAt');
  await tx.done;
  return { changed: riders.length, removed: removed.length };
}

/** Forgets the cursor so the next refresh fetches the whole roster again. */
export async function resetRosterCursor(): Promise<void> {
  const db = await offlineDb();
  await db.delete('meta', 'rosterCursor');
}

export async function rosterSyncedAt(): Promise<string | undefined> {
  return readMeta('rosterSyncedAt');
}

/** The cached photos as object URLs, by rider id. */
export async function loadPhotoUrls(): Promise<Map<string, string>> {
  const urls = new Map<string, string>();
  for (const photo of await (await offlineDb()).getAll('photos')) {
    urls.set(photo.riderId, URL.createObjectURL(photo.blob));
  }
  return urls;
}

/**
 * Downloads the photos the device does not hold yet (or whose URL changed), a few at a time
 * so the scanner's own requests are not starved; calls `onPhoto` as each one lands.
 */
export async function cachePhotos(
  riders: RosterRider[],
  onPhoto?: (riderId: string, blob: Blob) => void,
  concurrency = 4,
): Promise<number> {
  const db = await offlineDb();
  const held = new Map((await db.getAll('photos')).map((p) => [p.riderId, p.url]));
  const todo = riders.filter((r) => r.photoUrl && held.get(r.id) !== r.photoUrl);
  let fetched = 0;
  const worker = async () => {
    for (let rider = todo.shift(); rider; rider = todo.shift()) {
      const url = rider.photoUrl;
      if (!url) continue;
      try {
        // With the marshal's session: a rider who withdrew their public photo (DESIGN.md §12)
        // is still shown to the staff who scan them.
        const token = getAuthToken();
        const response = await fetch(url, token ? { headers: { Authorization: `Bearer ${token}` } } : undefined);
        if (!response.ok) continue;
        const blob = await response.blob();
        await db.put('photos', { riderId: rider.id, url, blob });
        fetched += 1;
        onPhoto?.(rider.id, blob);
      } catch {
        // Offline or gone: tried again after the next refresh.
        return;
      }
    }
  };
  await Promise.all(Array.from({ length: concurrency }, worker));
  return fetched;
}
