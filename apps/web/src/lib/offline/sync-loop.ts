// The retry loop every offline queue of this device shares: send now; on a
// failure back off exponentially with full jitter (20 phones coming back into coverage
// together must not retry in step); start again at once on the browser's `online` event;
// stop on a refused session until the next sign-in. A Web Lock keeps two tabs from sending
// the same queue at the same time. What is sent and how it is stored is the queue's own
// business (scan-sync.ts, sos-queue.ts).
import { ApiError } from '../api-client';

export type SyncState =
  | { kind: 'idle' }
  | { kind: 'syncing' }
  | { kind: 'waiting'; retryAt: number; error: string }
  /** The server refused the session: the queue waits for the next sign-in. */
  | { kind: 'signed-out' };

export interface SyncLoopOptions {
  lockName: string;
  /** Sends everything pending; throws to retry later. */
  send: () => Promise<void>;
  /** Told of every change of state. */
  onState: (state: SyncState) => void;
  /** After each run, in this tab (counts, last sync time). */
  afterRun?: () => Promise<void>;
  /** After a run: is there more to send at once (queued while the last run was on its way)? */
  more?: () => boolean;
  baseDelayMs?: number;
  maxDelayMs?: number;
}

export interface SyncLoop {
  syncNow(): Promise<void>;
  /** Starts syncing on `online` and on the retry timer; idempotent. */
  start(): void;
  /** After a new sign-in, or anything else that makes a retry worth it now. */
  resume(): void;
  state(): SyncState;
}

export function createSyncLoop(opts: SyncLoopOptions): SyncLoop {
  const base = opts.baseDelayMs ?? 2_000;
  const max = opts.maxDelayMs ?? 60_000;
  let state: SyncState = { kind: 'idle' };
  let attempt = 0;
  let retryTimer: ReturnType<typeof setTimeout> | undefined;
  let running: Promise<void> | null = null;
  // Asked again while a run was under way: that run may have begun before the reason to ask
  // (it saw the phone offline just before `online` fired), so one more run follows it.
  let askedAgain = false;
  let started = false;

  const set = (next: SyncState) => {
    state = next;
    opts.onState(next);
  };

  function scheduleRetry(error: string) {
    const ceiling = Math.min(max, base * 2 ** attempt);
    const delay = Math.max(500, Math.random() * ceiling);
    attempt += 1;
    clearTimeout(retryTimer);
    retryTimer = setTimeout(() => void syncNow(), delay);
    set({ kind: 'waiting', retryAt: Date.now() + delay, error });
  }

  async function runOnce(): Promise<void> {
    clearTimeout(retryTimer);
    if (typeof navigator !== 'undefined' && navigator.onLine === false) {
      set({ kind: 'waiting', retryAt: 0, error: 'Offline' });
      return;
    }
    set({ kind: 'syncing' });
    try {
      await opts.send();
      attempt = 0;
      set({ kind: 'idle' });
    } catch (error) {
      if (error instanceof ApiError && (error.status === 401 || error.status === 403)) {
        // Never retried on a timer: the queue waits, intact, for a new sign-in.
        set({ kind: 'signed-out' });
        return;
      }
      scheduleRetry(error instanceof Error ? error.message : 'Sync failed');
    }
  }

  /** Concurrent calls in this tab share one run; another tab holding the lock makes this a no-op. */
  function syncNow(): Promise<void> {
    if (running) {
      askedAgain = true;
      return running;
    }
    const run = async () => {
      if (typeof navigator !== 'undefined' && navigator.locks) {
        await navigator.locks.request(opts.lockName, { ifAvailable: true }, async (lock) => {
          if (!lock) return;
          await runOnce();
        });
      } else {
        await runOnce();
      }
      await opts.afterRun?.();
    };
    running = run().finally(() => {
      running = null;
      const again = askedAgain;
      askedAgain = false;
      if (again || (state.kind === 'idle' && opts.more?.())) void syncNow();
    });
    return running;
  }

  return {
    syncNow,
    start() {
      if (started) return;
      started = true;
      window.addEventListener('online', () => {
        attempt = 0;
        void syncNow();
      });
      window.addEventListener('offline', () => set({ kind: 'waiting', retryAt: 0, error: 'Offline' }));
      void syncNow();
    },
    resume() {
      attempt = 0;
      void syncNow();
    },
    state: () => state,
  };
}
