import type { ActivityPriority, ActivityType } from '@rally/shared/catalog';
import type { DbOrTx } from '../../db/client';
import { activities } from '../../db/schema/activities';

export interface ActivityInput {
  type: ActivityType;
  description: string;
  priority?: ActivityPriority;
  userId?: string | null;
  userName?: string | null;
  actorId?: string | null;
  actorName?: string | null;
  details?: string | null;
  location?: string | null;
  metadata?: Record<string, unknown> | null;
}

/** Writes one feed/log entry. Call it inside the transaction of the change it records. */
export async function recordActivity(db: DbOrTx, input: ActivityInput): Promise<void> {
  await db.insert(activities).values({
    type: input.type,
    priority: input.priority ?? 'normal',
    userId: input.userId ?? null,
    userName: input.userName ?? null,
    actorId: input.actorId ?? null,
    actorName: input.actorName ?? null,
    description: input.description,
    details: input.details ?? null,
    location: input.location ?? null,
    metadata: input.metadata ?? null,
  });
}

export function displayName(u: { firstName: string; lastName: string; kitName?: string | null }): string {
  return `${u.firstName} ${u.lastName}`.trim();
}
