import { availableParallelism } from 'node:os';

/**
 * A limit on how many of one kind of native work (an argon2id hash, an image re-encode)
 * run at once: by default one per core. Such work is CPU-bound on libuv's threads, so more
 * at once than there are cores only holds more memory at the same time, not more speed.
 * Work over the limit waits in order.
 */
export function concurrencyLimit(slots = Math.max(1, availableParallelism())) {
  let running = 0;
  const waiting: Array<() => void> = [];
  return async function limited<T>(work: () => Promise<T>): Promise<T> {
    if (running >= slots) await new Promise<void>((resolve) => waiting.push(resolve));
    else running++;
    try {
      return await work();
    } finally {
      // The slot passes straight to the next in line, if any.
      const next = waiting.shift();
      if (next) next();
      else running--;
    }
  };
}
