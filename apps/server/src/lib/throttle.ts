/**
 * Counts events per key inside a sliding window, in memory. Used for failed-login
 * throttling, where the key is an account or an address; one process is the unit of
 * enforcement (the embedded database allows one process anyway).
 */
export class SlidingWindowCounter {
  private readonly events = new Map<string, number[]>();

  constructor(
    private readonly limit: number,
    private readonly windowMs: number,
    private readonly now: () => number = Date.now,
  ) {}

  private live(key: string): number[] {
    const cutoff = this.now() - this.windowMs;
    const list = (this.events.get(key) ?? []).filter((t) => t > cutoff);
    if (list.length === 0) this.events.delete(key);
    else this.events.set(key, list);
    return list;
  }

  /** Milliseconds until the key may try again, or 0 when it is under the limit. */
  retryAfterMs(key: string): number {
    const list = this.live(key);
    if (list.length < this.limit) return 0;
    return Math.max(1, list[list.length - this.limit] + this.windowMs - this.now());
  }

  hit(key: string): void {
    const list = this.live(key);
    list.push(this.now());
    this.events.set(key, list);
    // Bound memory under a spray of distinct keys: drop the oldest entries.
    if (this.events.size > 100_000) {
      const first = this.events.keys().next().value;
      if (first !== undefined) this.events.delete(first);
    }
  }

  reset(key: string): void {
    this.events.delete(key);
  }
}
