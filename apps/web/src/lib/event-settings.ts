// The event-wide settings (GET /api/settings/event): read by the console's Settings tab and
// by a rider's SOS, whose fallback dials the hotline. The last answer is kept on the phone
// (IndexedDB) so the hotline is there when the signal is not; /me, rendered by the server,
// carries it in the page (MY_PROFILE_QUERY_KEYS), so it is there from the first paint.
import { MY_PROFILE_QUERY_KEYS } from '@rally/shared/catalog/web-client';
import type { EventSettings } from '@rally/shared/contracts/settings';
import { queryOptions } from '@tanstack/react-query';
import { call, client } from './api-client';
import { readMeta, writeMeta } from './offline/offline-db';

export const eventSettingsKey = MY_PROFILE_QUERY_KEYS.eventSettings;

/** Keeps the settings on the phone for the next time it opens a page without a signal. */
export function keepEventSettings(settings: EventSettings): Promise<void> {
  return writeMeta('eventSettings', settings);
}

export const eventSettingsQuery = () =>
  queryOptions({
    queryKey: eventSettingsKey,
    queryFn: async (): Promise<EventSettings> => {
      try {
        const data = (await call(client.GET('/api/settings/event'))).data;
        void keepEventSettings(data).catch(() => {});
        return data;
      } catch (error) {
        const kept = await readMeta('eventSettings').catch(() => undefined);
        if (kept) return kept;
        throw error;
      }
    },
    staleTime: 5 * 60_000,
  });

/** The Philippines' national emergency number: the fallback when no hotline is configured. */
export const NATIONAL_EMERGENCY_NUMBER = '911';
