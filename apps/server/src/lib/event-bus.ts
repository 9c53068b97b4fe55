// The event-day push: writers publish inside their transaction with
// pg_notify on one channel, so an event leaves only when its write commits and reaches
// every server instance on the database; each instance listens once and fans the events
// out to its open streams (the board's Server-Sent Events). PGlite has LISTEN/NOTIFY too.
import { EVENT_CHANNEL, EVENT_TYPES, type EventTypeName } from '@rally/shared/catalog/event-day';
import { sql } from 'drizzle-orm';
import type { FastifyInstance } from 'fastify';
import fp from 'fastify-plugin';
import type { Database, DbOrTx } from '../db/client';

export interface RallyEvent {
  type: EventTypeName;
  /** Names the rider (riderId, riderNumber, kitName) and what happened; small, never private. */
  data: Record<string, unknown>;
}

/** PostgreSQL refuses a NOTIFY payload of 8000 bytes or more; stay well under it. */
export const MAX_EVENT_BYTES = 7900;

function encode(type: EventTypeName, data: Record<string, unknown>): string {
  const payload = JSON.stringify({ type, data });
  if (Buffer.byteLength(payload) > MAX_EVENT_BYTES)
    throw new Error(`${type} event of ${payload.length} bytes is too large`);
  return payload;
}

/** Publishes one event; called inside the writing transaction, it fires when that commits. */
export async function publishEvent(tx: DbOrTx, type: EventTypeName, data: Record<string, unknown>): Promise<void> {
  await tx.execute(sql`select pg_notify(${EVENT_CHANNEL}, ${encode(type, data)})`);
}

/** Many events in one round trip (a batch of 500 scans). */
export async function publishEvents(tx: DbOrTx, events: readonly RallyEvent[]): Promise<void> {
  if (events.length === 0) return;
  const payloads = events.map((e) => encode(e.type, e.data));
  // One parameter (a JSON array) whatever the count: both drivers pass it alike.
  await tx.execute(
    sql`select pg_notify(${EVENT_CHANNEL}, p) from jsonb_array_elements_text(${JSON.stringify(payloads)}::jsonb) as p`,
  );
}

export function parseEvent(payload: string): RallyEvent | null {
  try {
    const value = JSON.parse(payload) as { type?: unknown; data?: unknown };
    if (!(EVENT_TYPES as readonly unknown[]).includes(value.type)) return null;
    if (typeof value.data !== 'object' || value.data === null) return null;
    return value as RallyEvent;
  } catch {
    return null;
  }
}

/** An event as subscribers get it: with its Server-Sent Events frame, serialised once for every stream. */
export type DeliveredEvent = (RallyEvent & { frame: string }) | { type: 'live'; live: boolean; frame: string };
type Subscriber = (event: DeliveredEvent) => void;

export function sseFrame(event: string, data: unknown): string {
  return `event: ${event}\ndata: ${JSON.stringify(data)}\n\n`;
}

/** One LISTEN per process, fanned out to every subscriber (an open stream each). */
export class EventBus {
  private readonly subscribers = new Set<Subscriber>();
  private live = false;

  get isLive(): boolean {
    return this.live;
  }

  get size(): number {
    return this.subscribers.size;
  }

  /** Returns how to unsubscribe. */
  subscribe(fn: Subscriber): () => void {
    this.subscribers.add(fn);
    return () => this.subscribers.delete(fn);
  }

  deliver(payload: string): void {
    const event = parseEvent(payload);
    if (!event) return;
    const delivered = { ...event, frame: sseFrame(event.type, event.data) };
    for (const fn of this.subscribers) fn(delivered);
  }

  setLive(live: boolean): void {
    this.live = live;
    const delivered = { type: 'live' as const, live, frame: sseFrame('live', { live }) };
    for (const fn of this.subscribers) fn(delivered);
  }
}

declare module 'fastify' {
  interface FastifyInstance {
    eventBus: EventBus;
  }
}

export const eventBusPlugin = fp(async (app: FastifyInstance, opts: { database: Database }) => {
  const bus = new EventBus();
  app.decorate('eventBus', bus);
  const stop = opts.database.listen(EVENT_CHANNEL, {
    onNotify: (payload) => bus.deliver(payload),
    onLive: (live) => bus.setLive(live),
  });
  app.addHook('onClose', async () => stop());
});
