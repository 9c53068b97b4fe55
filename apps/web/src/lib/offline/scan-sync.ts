// The scan queue: every scan is written to IndexedDB before anything else,
// then sent in batches of at most SCAN_BATCH_MAX to POST /api/admin/scans. The server keys
// scans by the device-made id, so a batch that reached it but whose answer was lost is
// simply sent again and answers `duplicate`. Retries, the `online` trigger and the lock
// between tabs are the shared sync loop's (sync-loop.ts).
import { SCAN_BATCH_MAX } from '@rally/shared/catalog/event-day';
import { call, client } from '../api-client';
import { offlineDb, type QueuedScan, readMeta } from './offline-db';
import { createSyncLoop, type SyncState } from './sync-loop';

export type { SyncState } from './sync-loop';

export interface SyncStatus {
  /** null until the queue on this device has been counted: never show a made-up 0. */
  pending: number | null;
  lastSyncAt: string | null;
  state: SyncState;
}

type Listener = (status: SyncStatus) => void;
const listeners = new Set<Listener>();
let status: SyncStatus = { pending: null, lastSyncAt: null, state: { kind: 'idle' } };

function publish(next: Partial<SyncStatus>) {
  status = { ...status, ...next };
  for (const listener of listeners) listener(status);
}

export function subscribeSync(listener: Listener): () => void {
  listeners.add(listener);
  listener(status);
  return () => listeners.delete(listener);
}

export function syncStatus(): SyncStatus {
  return status;
}

export async function pendingCount(): Promise<number> {
  return (await offlineDb()).countFromIndex('scans', 'byState', 'pending');
}

let countsAsked = 0;

/**
 * Counts the queue and publishes the count with `also`. IndexedDB answers counts in the order
 * they were asked, but a caller may publish later (a refresh also reads the meta store): a
 * count that a newer one overtook is dropped, so the badge never steps back to an old figure.
 */
async function publishCount(also: Partial<SyncStatus> = {}): Promise<void> {
  const asked = ++countsAsked;
  const pending = await pendingCount();
  publish(asked === countsAsked ? { ...also, pending } : also);
}

/** Reads the pending count and last sync time from the database (another tab may have synced). */
export async function refreshSyncStatus(): Promise<void> {
  const lastSyncAt = (await readMeta('lastSyncAt')) ?? null;
  await publishCount({ lastSyncAt });
}

/** Stores a scan in the queue; the caller then asks for a sync. Resolves once it is on disk. */
export async function enqueueScan(scan: QueuedScan): Promise<void> {
  await (await offlineDb()).put('scans', scan);
  await publishCount();
}

/** The latest scans of this device, newest first. */
export async function recentScans(limit = 30): Promise<QueuedScan[]> {
  const db = await offlineDb();
  const out: QueuedScan[] = [];
  let cursor = await db.transaction('scans').store.index('byScannedAt').openCursor(null, 'prev');
  while (cursor && out.length < limit) {
    out.push(cursor.value);
    cursor = await cursor.continue();
  }
  return out;
}

function wireBody(scan: QueuedScan) {
  return {
    id: scan.id,
    stationId: scan.stationId,
    ...(scan.riderCode !== undefined ? { riderCode: scan.riderCode } : { riderNumber: scan.riderNumber }),
    scannedAt: scan.scannedAt,
    deviceId: scan.deviceId,
    source: scan.source,
    ...(scan.recordedBy ? { recordedBy: scan.recordedBy } : {}),
  };
}

async function sendBatches(): Promise<void> {
  const db = await offlineDb();
  for (;;) {
    const batch = await db.getAllFromIndex('scans', 'byState', 'pending', SCAN_BATCH_MAX);
    if (batch.length === 0) return;
    const answer = await call(client.POST('/api/admin/scans', { body: { scans: batch.map(wireBody) } }));
    const results = new Map(answer.data.results.map((r) => [r.id, r]));
    const syncedAt = new Date().toISOString();
    const tx = db.transaction(['scans', 'meta'], 'readwrite');
    let answered = 0;
    for (const scan of batch) {
      const result = results.get(scan.id);
      // An id the server did not answer for stays pending and goes again.
      if (!result) continue;
      answered += 1;
      await tx.objectStore('scans').put({ ...scan, state: 'synced', result, syncedAt });
    }
    await tx.objectStore('meta').put(syncedAt, 'lastSyncAt');
    await tx.done;
    // Never loop on a batch the server keeps not answering: back off instead.
    if (answered < batch.length) throw new Error(`The server answered ${answered} of ${batch.length} scans`);
    await publishCount({ lastSyncAt: syncedAt });
  }
}

const loop = createSyncLoop({
  lockName: 'rally-scan-sync',
  send: sendBatches,
  onState: (state) => publish({ state }),
  afterRun: refreshSyncStatus,
  // A scan queued while the last batch was on its way: send it now rather than at the next scan.
  more: () => (status.pending ?? 0) > 0,
});

/**
 * Sends the queue now. Concurrent calls in this tab share one run; another tab holding the
 * lock makes this a no-op (that tab is sending the same rows).
 */
export function syncNow(): Promise<void> {
  return loop.syncNow();
}

/** Starts syncing on `online` and on the retry timer; idempotent. */
export function startScanSync(): void {
  void refreshSyncStatus().then(() => loop.start());
}

/** After a new sign-in: the queue that waited is sent. */
export function resumeAfterSignIn(): void {
  loop.resume();
}
