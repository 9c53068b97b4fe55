// Event-wide settings (issue 18's Settings): one row, absent until first
// saved, when the defaults below answer. Changes are audited.
import { DEFAULT_EVENT_NAME } from '@rally/shared/catalog/event-day';
import type { EventSettings, UpdateEventSettingsRequest } from '@rally/shared/contracts/settings';
import { eq } from 'drizzle-orm';
import type { Db, DbOrTx } from '../../db/client';
import { eventSettings } from '../../db/schema/incidents';
import type { Actor } from '../../lib/actor';
import { recordActivity } from '../activities/activities.service';

export async function readEventSettings(db: DbOrTx): Promise<EventSettings> {
  const [row] = await db.select().from(eventSettings).where(eq(eventSettings.id, 1)).limit(1);
  if (!row) return { name: DEFAULT_EVENT_NAME, startsOn: null, endsOn: null, hotline: null, updatedAt: null };
  return {
    name: row.name,
    startsOn: row.startsOn,
    endsOn: row.endsOn,
    hotline: row.hotline,
    updatedAt: row.updatedAt.toISOString(),
  };
}

const LABELS: Record<keyof UpdateEventSettingsRequest, string> = {
  name: 'name',
  startsOn: 'start date',
  endsOn: 'end date',
  hotline: 'emergency hotline',
};

export async function updateEventSettings(db: Db, body: UpdateEventSettingsRequest, actor: Actor) {
  await db.transaction(async (tx) => {
    const before = await readEventSettings(tx);
    const now = new Date();
    await tx
      .insert(eventSettings)
      .values({ id: 1, ...body, updatedBy: actor.id, updatedAt: now })
      .onConflictDoUpdate({ target: eventSettings.id, set: { ...body, updatedBy: actor.id, updatedAt: now } });
    const changed = (Object.keys(LABELS) as Array<keyof UpdateEventSettingsRequest>).filter(
      (k) => (before[k] ?? null) !== (body[k] ?? null),
    );
    await recordActivity(tx, {
      type: 'event_settings_updated',
      actorId: actor.id,
      actorName: actor.name,
      description: `${actor.name} updated the event settings`,
      details: changed.length
        ? changed.map((k) => `${LABELS[k]}: ${before[k] ?? '(none)'} → ${body[k] ?? '(none)'}`).join('; ')
        : 'No change',
    });
  });
  return readEventSettings(db);
}
