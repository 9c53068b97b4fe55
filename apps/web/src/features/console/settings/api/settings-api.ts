import type { EventSettings, UpdateEventSettingsRequest } from '@rally/shared/contracts/settings';
import { api } from '../../../../lib/api-client';

export async function saveEventSettings(body: UpdateEventSettingsRequest): Promise<EventSettings> {
  return (await api.put<{ data: EventSettings }>('/admin/settings/event', body)).data;
}
