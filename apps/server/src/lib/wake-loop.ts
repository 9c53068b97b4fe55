// What a queue worker does between its rounds, shared by the outbox's sender and the file
// queue's worker. A worker sleeps until something can be due: a row written (LISTEN: the
// notification leaves when the writing transaction commits, on any instance), the moment its
// round said the next row falls due or a dead instance's lease ends (a timer), or a failed
// round's retry. Rows a round has claimed keep their leases while they are in flight, so that
// another instance does not take them over from a live one. A subclass says only what a
// round does and how its leases are renewed.
import type { FastifyBaseLogger } from 'fastify';
import type { Database } from '../db/client';

export interface WakeLoopSettings {
  /** The NOTIFY channel the writers of this queue's rows signal on. */
  channel: string;
  log: FastifyBaseLogger;
  /** Names the queue in the log ('message' gives 'message worker failed', 'message leases'). */
  what: string;
  /** How long a claim holds a row; the leases are renewed every third of it. */
  leaseSeconds: number;
}

/** Longest sleep: a timer stays armed even when the next due moment is far off or none. */
const MAX_SLEEP_MS = 60 * 60_000;
/** After a failed round (the database away), the next try: doubling up to the cap. */
const RETRY_MS = 1_000;
const MAX_RETRY_MS = 30_000;
/** Past the due moment, so that the round the timer starts finds the row due, not a hair early. */
const LATE_MS = 5;

export abstract class WakeLoop {
  /** Set by stop(): no round starts after it, and a running round ends at its next claim. */
  protected stopped = false;
  private timer: NodeJS.Timeout | null = null;
  private running: Promise<void> | null = null;
  /** A wake() during a round: run another, since the round may have claimed before the row was written. */
  private again = false;
  private failures = 0;
  private stopListen: (() => Promise<void>) | null = null;
  private idleWaiters: Array<() => void> = [];
  /** Rows claimed and not yet recorded: their leases are renewed while they are in flight. */
  private readonly inFlight = new Set<string>();
  private renewer: NodeJS.Timeout | null = null;

  constructor(private readonly settings: WakeLoopSettings) {}

  /**
   * Claims and runs what is due until nothing is, then says in how many milliseconds the
   * next row falls due (null: none, sleep until notified). A throw is retried with backoff.
   */
  protected abstract round(): Promise<number | null>;

  /** Extends the leases of these claimed rows by `leaseSeconds`. */
  protected abstract renewLeases(ids: string[], leaseSeconds: number): Promise<unknown>;

  /** Called once the rounds end with nothing more to do, and on stop (the subclass's own waiters). */
  protected quiet(): void {}

  start(database: Database): void {
    this.stopListen = database.listen(this.settings.channel, {
      onNotify: () => this.wake(),
      // Back after a dropped connection: a notification may have been missed.
      onLive: (live) => {
        if (live) this.wake();
      },
    });
    this.wake();
  }

  /** Looks for due work now (a new row, a moved test clock). */
  wake(): void {
    if (this.stopped) return;
    if (this.running) {
      this.again = true;
      return;
    }
    if (this.timer) {
      clearTimeout(this.timer);
      this.timer = null;
    }
    this.running = this.round()
      .then(
        (wait) => {
          this.failures = 0;
          if (wait !== null) this.sleep(wait);
        },
        (err) => {
          // Nothing else would wake the worker if its listener stayed up: try again by itself,
          // so rows written while the database was away are taken once it is back.
          const wait = Math.min(MAX_RETRY_MS, RETRY_MS * 2 ** this.failures);
          this.failures += 1;
          this.settings.log.error(
            { err, retryInMs: wait },
            `${this.settings.what} worker failed; trying again shortly`,
          );
          this.sleep(wait);
        },
      )
      .finally(() => {
        this.running = null;
        if (this.again) {
          this.again = false;
          this.wake();
        } else {
          this.resolveWaiters();
        }
      });
  }

  /**
   * Resolves when the worker has finished its current round and found nothing more due
   * (immediately when it is asleep). Tests and the benchmark wait on it, never on time.
   */
  idle(): Promise<void> {
    if (!this.running && !this.again) return Promise.resolve();
    return new Promise((resolve) => this.idleWaiters.push(resolve));
  }

  async stop(): Promise<void> {
    this.stopped = true;
    if (this.timer) clearTimeout(this.timer);
    await this.running;
    if (this.renewer) clearInterval(this.renewer);
    this.renewer = null;
    await this.stopListen?.();
    this.resolveWaiters();
  }

  /** Keeps the leases of these claimed rows until each is released. */
  protected hold(ids: readonly string[]): void {
    for (const id of ids) this.inFlight.add(id);
    if (this.renewer || this.inFlight.size === 0) return;
    const { leaseSeconds, log, what } = this.settings;
    this.renewer = setInterval(
      () => {
        this.renewLeases([...this.inFlight], leaseSeconds).catch((err) =>
          // The database away: the lease may end and another instance take the row again,
          // which each queue allows (at least once; only the holder records a result).
          log.warn({ err }, `could not renew ${what} leases`),
        );
      },
      (leaseSeconds * 1000) / 3,
    );
    this.renewer.unref();
  }

  /** The row is recorded: its lease needs no more renewing. */
  protected release(id: string): void {
    this.inFlight.delete(id);
    if (this.inFlight.size > 0 || !this.renewer) return;
    clearInterval(this.renewer);
    this.renewer = null;
  }

  private sleep(ms: number): void {
    if (this.stopped || this.timer) return;
    this.timer = setTimeout(() => {
      this.timer = null;
      this.wake();
    }, Math.min(ms, MAX_SLEEP_MS) + LATE_MS);
    // A sleeping worker does not keep the process alive.
    this.timer.unref();
  }

  private resolveWaiters(): void {
    for (const resolve of this.idleWaiters.splice(0)) resolve();
    this.quiet();
  }
}
