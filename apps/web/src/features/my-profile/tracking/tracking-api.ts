// Calls of the rider pass's tracking card: read the rider's tracking, turn it on (with the
// consent's version read) or off. The answer is kept on the phone per account (like the pass,
// pass-cache.ts) so an offline pass still knows its tracking id and keeps recording positions.
import type { MyTracking, PutMyTrackingRequest } from '@rally/shared/contracts/tracking';
import { queryOptions } from '@tanstack/react-query';
import { call, client } from '../../../lib/api-client';
import { PASS_CACHE_PREFIX, readStorage, removeStorage, writeStorage } from '../../../lib/storage';

export const myTrackingKey = (userId: string) => ['my-tracking', userId] as const;

// Under the pass's prefix: every sign-out forgets it with the pass (lib/storage.ts forgetKeptPasses).
const keptKey = (userId: string) => `${PASS_CACHE_PREFIX}${userId}.tracking`;

interface Kept {
  data: MyTracking;
  savedAt: number;
}

function recall(userId: string): Kept | undefined {
  try {
    const kept = JSON.parse(readStorage(keptKey(userId)) ?? 'null') as Kept | null;
    return kept && typeof kept.savedAt === 'number' && typeof kept.data?.enabled === 'boolean' ? kept : undefined;
  } catch {
    return undefined;
  }
}

export function keepTracking(userId: string, data: MyTracking): void {
  writeStorage(keptKey(userId), JSON.stringify({ data, savedAt: Date.now() } satisfies Kept));
}

export function forgetTracking(userId: string): void {
  removeStorage(keptKey(userId));
}

export const myTrackingQuery = (userId: string) =>
  queryOptions({
    queryKey: myTrackingKey(userId),
    queryFn: async () => {
      const data = (await call(client.GET('/api/my/tracking'))).data;
      keepTracking(userId, data);
      return data;
    },
    initialData: () => recall(userId)?.data,
    initialDataUpdatedAt: () => recall(userId)?.savedAt,
    staleTime: 30_000,
  });

export async function putMyTracking(body: PutMyTrackingRequest): Promise<MyTracking> {
  return (await call(client.PUT('/api/my/tracking', { body }))).data;
}
