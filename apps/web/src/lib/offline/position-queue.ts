// The rider pass's own positions (offline first), the same way as scans and SOS calls:
// each fix is written to IndexedDB with the phone's own time before anything is sent, then
// sent in batches by the shared sync loop (backoff with jitter, at once on `online`). The
// wire is Traccar Client's: a JSON array of OsmAnd objects to POST /api/tracking/osmand, the
// entry's tracking id in each (the credential; no session needed, so a pass whose session
// lapsed offline still delivers). The server keys a position by entry and time, so a batch
// whose answer was lost is sent again and changes nothing. A sent position is deleted from
// the phone at once: the store only holds what waits for a signal.
import { REQUEST_TIMEOUT_MS } from '@rally/shared/catalog/web-client';
import { distanceM } from '@rally/shared/geo';
import { offlineDb, type QueuedPosition } from './offline-db';
import { createSyncLoop, type SyncState } from './sync-loop';

export type { QueuedPosition } from './offline-db';

/** Positions per request: a morning in a valley (60 s apart) is a few hundred. */
export const POSITION_BATCH_MAX = 100;
/** One position a minute while standing, or one per 100 m moved: Traccar Client's own settings. */
export const POSITION_EVERY_MS = 60_000;
export const POSITION_EVERY_M = 100;
const MS_TO_KNOTS = 3600 / 1852;
const OSMAND_PATH = '/api/tracking/osmand';

type Listener = () => void;
const listeners = new Set<Listener>();
let state: SyncState = { kind: 'idle' };
/** Positions this tab has delivered, so a screen can re-read the server's "last position". */
let delivered = 0;
/** Positions the server refused for good (an unknown id: tracking turned off). */
let refused = 0;

const notify = () => {
  for (const listener of listeners) listener();
};

/** Told whenever a position is queued, sent or refused, or the loop's state changes. */
export function subscribePositions(listener: Listener): () => void {
  listeners.add(listener);
  return () => listeners.delete(listener);
}

export const positionSyncState = () => state;
export const positionsDelivered = () => delivered;
export const positionsRefused = () => refused;

/** How many positions of this tracking id wait on the phone. */
export async function pendingPositions(trackingId: string): Promise<number> {
  return (await offlineDb()).countFromIndex('positions', 'byTrackingId', trackingId);
}

/**
 * Whether a new fix is worth keeping after `last`: a minute later, or 100 m away. The phone
 * reports far more often than that while moving; one a minute is what the board and the
 * alerts need, and what a day of battery and a buffer of hours can afford.
 */
export function worthRecording(
  last: Pick<QueuedPosition, 'at' | 'lat' | 'lng'> | null,
  next: Pick<QueuedPosition, 'at' | 'lat' | 'lng'>,
): boolean {
  if (!last) return true;
  const elapsed = Date.parse(next.at) - Date.parse(last.at);
  // A fix older than the last kept one (a cached reading handed back) adds nothing.
  if (elapsed <= 0) return false;
  return elapsed >= POSITION_EVERY_MS || distanceM(last, next) >= POSITION_EVERY_M;
}

/** One position as Traccar Client's JSON array upload sends it (speed in knots, battery 0–100). */
export function osmandObject(p: QueuedPosition): Record<string, string | number | boolean> {
  const out: Record<string, string | number | boolean> = {
    id: p.trackingId,
    lat: p.lat,
    lon: p.lng,
    timestamp: p.at,
  };
  if (p.speed !== null) out.speed = Math.round(p.speed * MS_TO_KNOTS * 100) / 100;
  if (p.bearing !== null) out.bearing = Math.round(p.bearing);
  if (p.altitude !== null) out.altitude = Math.round(p.altitude);
  if (p.accuracy !== null) out.accuracy = Math.round(p.accuracy);
  if (p.battery !== null) out.batt = Math.round(p.battery);
  if (p.charging !== null) out.charge = p.charging;
  return out;
}

/**
 * POSTs a batch. Plain fetch rather than the typed API client: this is the public endpoint of
 * a foreign protocol, sent without the session (the tracking id is the credential).
 */
async function post(batch: QueuedPosition[]): Promise<number> {
  const response = await fetch(OSMAND_PATH, {
    method: 'POST',
    headers: { 'Content-Type': 'application/json' },
    body: JSON.stringify(batch.map(osmandObject)),
    signal: AbortSignal.timeout(REQUEST_TIMEOUT_MS),
  });
  return response.status;
}

async function forget(ids: string[]): Promise<void> {
  const tx = (await offlineDb()).transaction('positions', 'readwrite');
  for (const id of ids) await tx.store.delete(id);
  await tx.done;
}

/** Sends one tracking id's batch; a batch refused as malformed is tried one by one, so one bad fix never holds back the rest. */
async function sendBatch(batch: QueuedPosition[]): Promise<void> {
  const status = await post(batch);
  if (status >= 200 && status < 300) {
    await forget(batch.map((p) => p.id));
    delivered += batch.length;
    return;
  }
  // The id is unknown: tracking was turned off (the id stops working at once). These can
  // never be stored, and must not be: the rider said stop.
  if (status === 404) {
    await forget(batch.map((p) => p.id));
    refused += batch.length;
    return;
  }
  if (status === 400 && batch.length > 1) {
    for (const one of batch) await sendBatch([one]);
    return;
  }
  // A single fix the server calls malformed (a phone clock a day ahead): no retry changes that.
  if (status === 400) {
    await forget(batch.map((p) => p.id));
    refused += 1;
    return;
  }
  throw new Error(`The server answered ${status}`);
}

async function sendPending(): Promise<void> {
  const db = await offlineDb();
  for (;;) {
    // Oldest first, as Traccar Client does; grouped per tracking id (a shared phone may hold two riders').
    const all = (await db.getAll('positions')).sort((a, b) => a.at.localeCompare(b.at));
    const first = all[0];
    if (!first) return;
    const batch = all.filter((p) => p.trackingId === first.trackingId).slice(0, POSITION_BATCH_MAX);
    await sendBatch(batch);
    notify();
  }
}

const loop = createSyncLoop({
  lockName: 'rally-position-sync',
  send: sendPending,
  onState: (next) => {
    state = next;
    notify();
  },
});

/** Stores a fix on the phone, then tries to send it at once. Resolves once it is on disk. */
export async function recordPosition(p: Omit<QueuedPosition, 'id'>): Promise<void> {
  await (await offlineDb()).put('positions', { ...p, id: `${p.trackingId}|${p.at}` });
  notify();
  loop.start();
  void loop.syncNow();
}

/** Sends what an earlier visit left on the phone (closed while offline). */
export function startPositionSync(): void {
  loop.start();
}
