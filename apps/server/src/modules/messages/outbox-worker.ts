// The sender in each server instance. It wakes when a row is written (LISTEN on the outbox
// channel: the notification leaves when the writing transaction commits, on any instance),
// when the next row falls due or a dead instance's lease ends (a timer set to exactly that
// moment), and when the test clock moves. It claims a batch, sends it, records each
// answer, and goes on until nothing is due. Scheduled jobs (the SOS escalation) run in the
// same loop and say when they are due next.
import type { MessageChannel, MessageTemplate } from '@rally/shared/catalog/messages';
import type { FastifyBaseLogger } from 'fastify';
import type { Database, Db } from '../../db/client';
import type { OutboxRow } from '../../db/schema/messages';
import type { Clock } from '../../lib/clock';
import type { Channel } from './channel';
import {
  claimDueMessages,
  LEASE_SECONDS,
  nextOutboxWake,
  OUTBOX_CHANNEL,
  recordOutcome,
  renewLeases,
  type SendOutcome,
} from './outbox';
import { renderMessage } from './templates';

/** Work other than sending that the loop runs when due; returns when it is due next. */
export interface ScheduledJob {
  name: string;
  run(now: Date): Promise<Date | null>;
}

export interface OutboxWorkerOptions {
  db: Db;
  channels: ReadonlyMap<MessageChannel, Channel>;
  clock: Clock;
  publicUrl: string;
  /** Names this instance's leases (host and process). */
  instance: string;
  log: FastifyBaseLogger;
  /** Rows claimed and sent at once. */
  batch?: number;
  /** LEASE_SECONDS unless set (tests shorten it). */
  leaseSeconds?: number;
  jobs?: readonly ScheduledJob[];
  /** Told of every outcome (the incidents' timeline records SOS deliveries). */
  onOutcome?: (row: OutboxRow, status: 'sent' | 'retry' | 'failed', outcome: SendOutcome) => Promise<void>;
}

const MAX_SLEEP_MS = 60 * 60_000;
/** After a failed round (the database away), the next try: doubling up to the cap. */
const RETRY_MS = 1_000;
const MAX_RETRY_MS = 30_000;

export class OutboxWorker {
  private timer: NodeJS.Timeout | null = null;
  private running: Promise<void> | null = null;
  private again = false;
  private stopped = false;
  private stopListen: (() => Promise<void>) | null = null;
  private idleWaiters: Array<() => void> = [];
  /** Rows claimed and not yet recorded: their leases are renewed while they are in flight. */
  private readonly inFlight = new Set<string>();
  private renewer: NodeJS.Timeout | null = null;
  private failures = 0;

  constructor(private readonly opts: OutboxWorkerOptions) {}

  start(database: Database): void {
    this.stopListen = database.listen(OUTBOX_CHANNEL, {
      onNotify: () => this.wake(),
      // Back after a dropped connection: a notification may have been missed.
      onLive: (live) => {
        if (live) this.wake();
      },
    });
    this.wake();
  }

  /** Looks for due work now (a new row, a moved clock). */
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
    this.running = this.loop()
      .then(
        () => {
          this.failures = 0;
        },
        (err) => {
          // Nothing else would wake the worker if its listener stayed up: try again by itself,
          // so messages written while the database was away go out once it is back.
          const wait = Math.min(MAX_RETRY_MS, RETRY_MS * 2 ** this.failures);
          this.failures += 1;
          this.opts.log.error({ err, retryInMs: wait }, 'message worker failed; trying again shortly');
          if (!this.stopped && !this.timer) {
            this.timer = setTimeout(() => {
              this.timer = null;
              this.wake();
            }, wait);
            this.timer.unref();
          }
        },
      )
      .finally(() => {
        this.running = null;
        if (this.again) {
          this.again = false;
          this.wake();
        } else {
          for (const resolve of this.idleWaiters.splice(0)) resolve();
        }
      });
  }

  /** Resolves once the worker has nothing due (tests, the benchmark). */
  idle(): Promise<void> {
    if (!this.running) return Promise.resolve();
    return new Promise((resolve) => this.idleWaiters.push(resolve));
  }

  async stop(): Promise<void> {
    this.stopped = true;
    if (this.timer) clearTimeout(this.timer);
    await this.running;
    if (this.renewer) clearInterval(this.renewer);
    this.renewer = null;
    await this.stopListen?.();
    for (const resolve of this.idleWaiters.splice(0)) resolve();
  }

  private async loop(): Promise<void> {
    const { db, clock, instance } = this.opts;
    const batch = this.opts.batch ?? 50;
    let nextJob: Date | null = null;
    for (;;) {
      if (this.stopped) return;
      nextJob = null;
      for (const job of this.opts.jobs ?? []) {
        const due = await job.run(clock.now());
        if (due && (!nextJob || due < nextJob)) nextJob = due;
      }
      const rows = await claimDueMessages(db, {
        now: clock.now(),
        limit: batch,
        instance,
        leaseSeconds: this.opts.leaseSeconds,
      });
      this.hold(rows.map((row) => row.id));
      await Promise.all(rows.map((row) => this.deliver(row).finally(() => this.release(row.id))));
      if (rows.length < batch) break;
    }
    if (this.stopped) return;
    const now = clock.now();
    const nextRow = await nextOutboxWake(db, now);
    const next = [nextRow, nextJob].filter((d): d is Date => d !== null).sort((a, b) => +a - +b)[0];
    if (!next) return;
    const wait = Math.min(Math.max(next.getTime() - now.getTime(), 0), MAX_SLEEP_MS);
    this.timer = setTimeout(() => {
      this.timer = null;
      this.wake();
    }, wait + 5);
    this.timer.unref();
  }

  /** Keeps the leases of rows being sent, every third of a lease, until each is recorded. */
  private hold(ids: readonly string[]): void {
    for (const id of ids) this.inFlight.add(id);
    if (this.renewer || this.inFlight.size === 0) return;
    const leaseSeconds = this.opts.leaseSeconds ?? LEASE_SECONDS;
    this.renewer = setInterval(
      () => {
        renewLeases(this.opts.db, [...this.inFlight], this.opts.instance, leaseSeconds).catch((err) =>
          // The database away: the lease may end and another instance send the row again,
          // the at-least-once case outbox-crash.test.ts describes.
          this.opts.log.warn({ err }, 'could not renew message leases'),
        );
      },
      (leaseSeconds * 1000) / 3,
    );
    this.renewer.unref();
  }

  private release(id: string): void {
    this.inFlight.delete(id);
    if (this.inFlight.size > 0 || !this.renewer) return;
    clearInterval(this.renewer);
    this.renewer = null;
  }

  private async deliver(row: OutboxRow): Promise<void> {
    const { channels, publicUrl, clock, db, instance } = this.opts;
    const channel = channels.get(row.channel);
    let outcome: SendOutcome;
    try {
      const message = renderMessage(row.template as MessageTemplate, row.data, publicUrl);
      outcome = channel
        ? await channel.send(message, row)
        : { ok: false, answer: `no ${row.channel} channel`, permanent: true };
    } catch (err) {
      outcome = { ok: false, answer: err instanceof Error ? err.message : String(err), permanent: false };
    }
    const status = await recordOutcome(db, row, instance, outcome, clock.now());
    if (outcome.ok) this.opts.log.debug({ id: row.id, channel: row.channel }, 'message sent');
    else this.opts.log.warn({ id: row.id, channel: row.channel, answer: outcome.answer, status }, 'message not sent');
    await this.opts.onOutcome?.(row, status, outcome);
  }
}
