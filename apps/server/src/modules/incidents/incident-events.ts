// Publishing an incident change for the live stream (DESIGN.md §8: push, not polling).
// The notification is sent inside the writing transaction, so PostgreSQL delivers it only
// when the change commits, and to every server instance LISTENing on the channel.
//
// TODO(merge): the `course` branch adds apps/server/src/lib/event-bus.ts with the same
// `publishEvent(tx, type, data)`; at merge this local copy goes and the import moves there.
import type { IncidentEvent } from '@rally/shared/contracts/incidents';
import { sql } from 'drizzle-orm';
import type { DbOrTx } from '../../db/client';

export const EVENTS_CHANNEL = 'rally_events';

export async function publishEvent(tx: DbOrTx, type: string, data: unknown): Promise<void> {
  await tx.execute(sql`select pg_notify(${EVENTS_CHANNEL}, ${JSON.stringify({ type, data })})`);
}

export const publishIncident = (tx: DbOrTx, data: IncidentEvent) => publishEvent(tx, 'incident', data);
