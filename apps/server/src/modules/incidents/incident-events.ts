// Publishing an incident change for the live stream (push, not polling),
// through the event bus: inside the writing transaction, so it leaves only when the change
// commits, and reaches every server instance LISTENing on the channel.
import type { IncidentEvent } from '@rally/shared/contracts/incidents';
import type { DbOrTx } from '../../db/client';
import { publishEvent } from '../../lib/event-bus';

export const publishIncident = (tx: DbOrTx, data: IncidentEvent) => publishEvent(tx, 'incident', { ...data });
