// Event-wide settings (issue 18's Settings): the current edition's name, dates and hotline
// (DESIGN.md §9; they were one `event_settings` row before editions). `updatedAt` stays null
// until staff first save. Changes are audited.
import type { EventSettings, UpdateEventSettingsRequest } from '@rally/shared/contracts/settings';
import type { Db, DbOrTx } from '../../db/client';
import type { EditionRow } from '../../db/schema/editions';
import type { Actor } from '../../lib/actor';
import { currentEdition, updateEdition } from '../editions/editions.service';

const settingsOf = (row: EditionRow): EventSettings => ({
  name: row.name,
  startsOn: row.startsOn,
  endsOn: row.endsOn,
  hotline: row.hotline,
  updatedAt: row.updatedAt?.toISOString() ?? null,
});

export async function readEventSettings(db: DbOrTx): Promise<EventSettings> {
  return settingsOf(await currentEdition(db));
}

export async function updateEventSettings(db: Db, body: UpdateEventSettingsRequest, actor: Actor) {
  const { id } = await currentEdition(db);
  return settingsOf(
    await updateEdition(db, id, body, actor, {
      type: 'event_settings_updated',
      description: 'updated the event settings',
    }),
  );
}
