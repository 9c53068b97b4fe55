import type { EventSettings, UpdateEventSettingsRequest } from '@rally/shared/contracts/settings';
import { call, client } from '../../../../lib/api-client';

export async function saveEventSettings(body: UpdateEventSettingsRequest): Promise<EventSettings> {
  return (await call(client.PUT('/api/admin/settings/event', { body }))).data;
}
