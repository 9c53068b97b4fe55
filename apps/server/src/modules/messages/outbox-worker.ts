// The sender in each server instance. It wakes when a row is written (LISTEN on the outbox
// channel: the notification leaves when the writing transaction commits, on any instance),
// when the next row falls due or a dead instance's lease ends (a timer set to exactly that
// moment), and when the test clock moves. It claims a batch, sends it, records each
// answer, and goes on until nothing is due. Scheduled jobs (the SOS escalation) run in the
// same loop and say when they are due next.
import type { MessageChannel, MessageTemplate } from '@rally/shared/catalog/messages';
import type { FastifyBaseLogger } from 'fastify';
import type { Db } from '../../db/client';
import type { OutboxRow } from '../../db/schema/messages';
import type { Clock } from '../../lib/clock';
import { WakeLoop } from '../../lib/wake-loop';
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

export class OutboxWorker extends WakeLoop {
  constructor(private readonly opts: OutboxWorkerOptions) {
    const leaseSeconds = opts.leaseSeconds ?? LEASE_SECONDS;
    super({ channel: OUTBOX_CHANNEL, what: 'message', log: opts.log, leaseSeconds });
  }

  protected override async round(): Promise<number | null> {
    const { db, clock, instance } = this.opts;
    const batch = this.opts.batch ?? 50;
    let nextJob: Date | null = null;
    for (;;) {
      if (this.stopped) return null;
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
    if (this.stopped) return null;
    const now = clock.now();
    const nextRow = await nextOutboxWake(db, now);
    const next = [nextRow, nextJob].filter((d): d is Date => d !== null).sort((a, b) => +a - +b)[0];
    return next ? Math.max(next.getTime() - now.getTime(), 0) : null;
  }

  protected override renewLeases(ids: string[], leaseSeconds: number): Promise<unknown> {
    // Should the lease end anyway, another instance may send the row again: the
    // at-least-once case outbox-crash.test.ts describes.
    return renewLeases(this.opts.db, ids, this.opts.instance, leaseSeconds);
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
