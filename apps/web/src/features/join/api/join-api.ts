// A returning rider's entry into the current edition (DESIGN.md §9): what the form starts
// from, and the entry itself (multipart, with the receipt, like the registration).
import type { NextEntry } from '@rally/shared/contracts/editions';
import { queryOptions } from '@tanstack/react-query';
import { apiUpload, call, client } from '../../../lib/api-client';

/** Per rider: a phone shared by two riders never shows one the other's prefill. */
export const nextEntryQuery = (userId: string) =>
  queryOptions({
    queryKey: ['my-entries', 'next', userId] as const,
    queryFn: async (): Promise<NextEntry> => (await call(client.GET('/api/my/entries/next'))).data,
  });

export function submitEntry(form: FormData, onProgress: (percent: number) => void) {
  return apiUpload('/api/my/entries', form, { onProgress });
}
