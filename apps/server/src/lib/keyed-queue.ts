/**
 * Runs tasks that share a key one after another, in arrival order, and tasks of
 * different keys independently. Used to line up registrations of the same rider number
 * inside one process, so the second claim of a number re-checks it after the first has
 * committed instead of paying for images and a password hash only to lose at the unique
 * index (which stays the real guard across processes).
 *
 * A key's entry lives only while a task of that key is running or waiting: it is removed
 * when the last task settles, whatever way it settles (success, error, abort).
 */
export class KeyedQueue<K> {
  /** Per key: settles once every task queued so far under that key has finished. */
  private readonly tails = new Map<K, Promise<void>>();

  /**
   * Runs `task` once every earlier task of `key` has settled. If `signal` aborts while the
   * task is still waiting, it is skipped and run() rejects with the signal's reason; the
   * tasks behind it still wait for the ones in front.
   */
  async run<T>(key: K, task: () => Promise<T>, signal?: AbortSignal): Promise<T> {
    signal?.throwIfAborted();
    const previous = this.tails.get(key);
    let release!: () => void;
    const done = new Promise<void>((resolve) => {
      release = resolve;
    });
    // The next task waits for this one and, through it, for every earlier one, even when
    // this one leaves the line early (aborted) and releases before those have finished.
    const tail = previous ? previous.then(() => done) : done;
    this.tails.set(key, tail);
    void tail.then(() => {
      if (this.tails.get(key) === tail) this.tails.delete(key);
    });
    try {
      if (previous) await waitOrAbort(previous, signal);
      return await task();
    } finally {
      release();
    }
  }

  /** Keys with a task running or waiting (for tests and diagnostics). */
  get size(): number {
    return this.tails.size;
  }
}

function waitOrAbort(promise: Promise<void>, signal: AbortSignal | undefined): Promise<void> {
  if (!signal) return promise;
  return new Promise<void>((resolve, reject) => {
    const onAbort = () => reject(signal.reason);
    if (signal.aborted) return onAbort();
    signal.addEventListener('abort', onAbort, { once: true });
    promise.then(() => {
      signal.removeEventListener('abort', onAbort);
      resolve();
    });
  });
}
