// The scan queue: every scan is written to IndexedDB before anything else,
// then sent in batches of at most SCAN_BATCH_MAX to POST /api/admin/scans. The server keys
// scans by the device-made id, so a batch that reached it but whose answer was lost is
// simply sent again and answers `duplicate`. Retries back off exponentially with full
// jitter (20 phones coming back into coverage together must not retry in step) and start
// at once on the browser's `online` event. A Web Lock keeps two tabs from sending the same
// queue at the same time.
import { SCAN_BATCH_MAX } from '@rally/shared/catalog';
import type { ScanResult } from '@rally/shared/contracts/scans';
import { ApiError, api } from '../api-client';
import { offlineDb, type QueuedScan, readMeta } from './offline-db';

export type SyncState =
  | { kind: 'idle' }
  | { kind: 'syncing' }
  | { kind: 'waiting'; retryAt: number; error: string }
  /** The server refused the session: the queue waits for the next sign-in. */
  | { kind: 'signed-out' };

export interface SyncStatus {
  pending: number;
  lastSyncAt: string | null;
  state: SyncState;
}

const LOCK_NAME = 'rally-scan-sync';
const BASE_DELAY_MS = 2_000;
const MAX_DELAY_MS = 60_000;

type Listener = (status: SyncStatus) => void;
const listeners = new Set<Listener>();
let status: SyncStatus = { pending: 0, lastSyncAt: null, state: { kind: 'idle' } };
let attempt = 0;
let retryTimer: ReturnType<typeof setTimeout> | undefined;
let running: Promise<void> | null = null;

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

/** Reads the pending count and last sync time from the database (another tab may have synced). */
export async function refreshSyncStatus(): Promise<void> {
  publish({ pending: await pendingCount(), lastSyncAt: (await readMeta('lastSyncAt')) ?? null });
}

/** Stores a scan in the queue; the caller then asks for a sync. Resolves once it is on disk. */
export async function enqueueScan(scan: QueuedScan): Promise<void> {
  await (await offlineDb()).put('scans', scan);
  publish({ pending: status.pending + 1 });
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
    const answer = await api.post<{ success: boolean; data: { results: ScanResult[] } }>('/admin/scans', {
      scans: batch.map(wireBody),
    });
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
    publish({ pending: await pendingCount(), lastSyncAt: syncedAt });
    attempt = 0;
  }
}

function scheduleRetry(error: string) {
  // Full jitter: anywhere between 0 and the exponential ceiling.
  const ceiling = Math.min(MAX_DELAY_MS, BASE_DELAY_MS * 2 ** attempt);
  const delay = Math.max(500, Math.random() * ceiling);
  attempt += 1;
  clearTimeout(retryTimer);
  retryTimer = setTimeout(() => void syncNow(), delay);
  publish({ state: { kind: 'waiting', retryAt: Date.now() + delay, error } });
}

async function runSync(): Promise<void> {
  clearTimeout(retryTimer);
  if (typeof navigator !== 'undefined' && navigator.onLine === false) {
    publish({ state: { kind: 'waiting', retryAt: 0, error: 'Offline' } });
    return;
  }
  publish({ state: { kind: 'syncing' } });
  try {
    await sendBatches();
    publish({ state: { kind: 'idle' } });
  } catch (error) {
    if (error instanceof ApiError && (error.status === 401 || error.status === 403)) {
      // Never retried on a timer: the queue waits, intact, for a new sign-in.
      publish({ state: { kind: 'signed-out' } });
      return;
    }
    scheduleRetry(error instanceof Error ? error.message : 'Sync failed');
  }
}

/**
 * Sends the queue now. Concurrent calls in this tab share one run; another tab holding the
 * lock makes this a no-op (that tab is sending the same rows).
 */
export function syncNow(): Promise<void> {
  if (running) return running;
  const run = async () => {
    if (typeof navigator !== 'undefined' && navigator.locks) {
      await navigator.locks.request(LOCK_NAME, { ifAvailable: true }, async (lock) => {
        if (!lock) return;
        await runSync();
      });
    } else {
      await runSync();
    }
    await refreshSyncStatus();
  };
  running = run().finally(() => {
    running = null;
    // A scan queued while the last batch was on its way: send it now rather than at the next scan.
    if (status.pending > 0 && status.state.kind === 'idle') void syncNow();
  });
  return running;
}

let started = false;
/** Starts syncing on `online` and on the retry timer; idempotent. */
export function startScanSync(): void {
  if (started) return;
  started = true;
  window.addEventListener('online', () => {
    attempt = 0;
    void syncNow();
  });
  window.addEventListener('offline', () => publish({ state: { kind: 'waiting', retryAt: 0, error: 'Offline' } }));
  void refreshSyncStatus().then(() => syncNow());
}

/** After a new sign-in: the queue that waited is sent. */
export function resumeAfterSignIn(): void {
  attempt = 0;
  void syncNow();
}
