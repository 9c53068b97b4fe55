// A rider's SOS calls (offline first). Each call is written to IndexedDB with an
// id made on the phone before anything is sent, then POSTed to /api/my/sos by the shared sync
// loop (backoff with jitter, at once on `online`). The server keys the incident by that id, so
// a call whose answer was lost is sent again and answers 200 with the same incident: a rider
// on one bar of signal can press once and the call lands exactly once. A press made while the
// rider's incident is still open joins it (200, that incident's id): delivered all the same.
// Past the account's hourly cap the server answers 429 with the hotline: the call stays
// queued with that message on screen and goes when the server takes it again.
import { ApiError, client, call as send } from '../api-client';
import { readStoredUser } from '../storage';
import { offlineDb, type QueuedSos } from './offline-db';
import { createSyncLoop, type SyncState } from './sync-loop';

export type { QueuedSos } from './offline-db';

type Listener = () => void;
const listeners = new Set<Listener>();
let state: SyncState = { kind: 'idle' };
const notify = () => {
  for (const listener of listeners) listener();
};

/** Told whenever a call is queued, sent, or the loop's state changes. */
export function subscribeSos(listener: Listener): () => void {
  listeners.add(listener);
  return () => listeners.delete(listener);
}

export const sosSyncState = () => state;

/** This account's calls on this phone, newest first. */
export async function queuedSos(userId: string): Promise<QueuedSos[]> {
  const all = await (await offlineDb()).getAll('sos');
  return all.filter((s) => s.userId === userId).sort((a, b) => b.createdAt.localeCompare(a.createdAt));
}

/**
 * How many calls made on this phone by other accounts wait for their owner: a call goes only
 * under the account that made it, so one left by a rider who signed out waits for them.
 */
export async function callsWaitingForOthers(userId: string): Promise<number> {
  const pending = await (await offlineDb()).getAllFromIndex('sos', 'byState', 'pending');
  return pending.filter((s) => s.userId !== userId).length;
}

async function sendPending(): Promise<void> {
  // Sent only with the session of the account that made the call: rider A's call, left on a
  // shared phone, must never open an incident for rider B (with A's note and position, and
  // B's medical notes beside them on the console). It waits until A signs in again.
  const owner = readStoredUser()?.id;
  if (!owner) return;
  const db = await offlineDb();
  const pending = (await db.getAllFromIndex('sos', 'byState', 'pending')).filter((call) => call.userId === owner);
  for (const call of pending) {
    try {
      const body = {
        id: call.id,
        kind: call.kind,
        ...(call.note ? { note: call.note } : {}),
        ...(call.position ? { position: call.position } : {}),
      };
      const answer = await send(client.POST('/api/my/sos', { body }));
      // Joined to the rider's open incident or not, the server has it: the call is delivered.
      const { error: _, ...delivered } = call;
      await db.put('sos', {
        ...delivered,
        state: 'sent',
        incident: answer.data.incident,
        sentAt: new Date().toISOString(),
      });
    } catch (error) {
      // Too many calls from this account for now: never dropped. The server's words (the
      // hotline to call) go on screen, and the loop tries again later.
      if (error instanceof ApiError && error.status === 429) {
        await db.put('sos', { ...call, error: error.message });
        notify();
        throw error;
      }
      // A refusal that no retry can change (a bad body, an id clash): keep it, stop sending it,
      // and let the screen offer the call and SMS at once.
      if (
        error instanceof ApiError &&
        error.status >= 400 &&
        error.status < 500 &&
        ![401, 403, 408, 429].includes(error.status)
      ) {
        await db.put('sos', { ...call, state: 'refused', error: error.message });
        notify();
        continue;
      }
      throw error;
    }
    notify();
  }
}

const loop = createSyncLoop({
  lockName: 'rally-sos-sync',
  send: sendPending,
  // Quicker than scans: a rider in trouble waits on this one.
  baseDelayMs: 1_000,
  maxDelayMs: 15_000,
  onState: (next) => {
    state = next;
    notify();
  },
});

/** Stores the call on the phone, then tries to send it at once. Resolves once it is on disk. */
export async function enqueueSos(call: Omit<QueuedSos, 'state'>): Promise<void> {
  await (await offlineDb()).put('sos', { ...call, state: 'pending' });
  notify();
  loop.start();
  void loop.syncNow();
}

/** Sends what a previous visit left pending (the phone was closed while offline). */
export function startSosSync(): void {
  loop.start();
}

export function retrySosNow(): void {
  loop.resume();
}
