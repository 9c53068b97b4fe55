// The event-wide settings (GET /api/settings/event): read by the console's Settings tab and
// by a rider's SOS, whose fallback dials the hotline. The last answer is kept on the phone
// (IndexedDB) so the hotline is there when the signal is not.
import type { EventSettings } from '@rally/shared/contracts/settings';
import { queryOptions } from '@tanstack/react-query';
import { call, client } from './api-client';
import { readMeta, writeMeta } from './offline/offline-db';

export const eventSettingsKey = ['settings', 'event'] as const;

export const eventSettingsQuery = () =>
  queryOptions({
    queryKey: eventSettingsKey,
    queryFn: async (): Promise<EventSettings> => {
      try {
        const data = (await call(client.GET('/api/settings/event'))).data;
        void writeMeta('eventSettings', data).catch(() => {});
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
