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
import { claimDueMessages, nextOutboxWake, OUTBOX_CHANNEL, recordOutcome, type SendOutcome } from './outbox';
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
  jobs?: readonly ScheduledJob[];
  /** Told of every outcome (the incidents' timeline records SOS deliveries). */
  onOutcome?: (row: OutboxRow, status: 'sent' | 'retry' | 'failed', outcome: SendOutcome) => Promise<void>;
}

const MAX_SLEEP_MS = 60 * 60_000;

export class OutboxWorker {
  private timer: NodeJS.Timeout | null = null;
  private running: Promise<void> | null = null;
  private again = false;
  private stopped = false;
  private stopListen: (() => Promise<void>) | null = null;
  private idleWaiters: Array<() => void> = [];

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
      .catch((err) => this.opts.log.error({ err }, 'message worker failed; trying again shortly'))
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
      const rows = await claimDueMessages(db, { now: clock.now(), limit: batch, instance });
      await Promise.all(rows.map((row) => this.deliver(row)));
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
