// Calls of My Profile.
import { COMMENTS_PAGE_SIZE, MY_PROFILE_QUERY_KEYS } from '@rally/shared/catalog/web-client';
import type { UserRecord } from '@rally/shared/contracts/auth';
import type { MyCommentList } from '@rally/shared/contracts/profiles';
import type { MyDetailsBody } from '@rally/shared/contracts/rider-details';
import type { Announcement, GearSizes, TshirtStatus } from '@rally/shared/contracts/rider-kit';
import type { Passage } from '@rally/shared/contracts/scans';
import { queryOptions } from '@tanstack/react-query';
import { type ApiBody, ApiError, call, client } from '../../../lib/api-client';
import { forgetAnswer, recallAnswer, rememberAnswer } from '../lib/pass-cache';

export const myKeys = {
  profile: ['my-profile'] as const,
  riderCode: ['my-rider-code'] as const,
  passages: ['my-passages'] as const,
  comments: ['my-comments'] as const,
  announcements: ['announcements'] as const,
  // Also the keys the server answers when it renders /me (its answers inlined in the page).
  tshirt: MY_PROFILE_QUERY_KEYS.tshirt,
  gear: MY_PROFILE_QUERY_KEYS.gear,
};

export async function fetchRiderCode(): Promise<string> {
  return (await call(client.GET('/api/my/rider-code'))).data.riderCode;
}

export async function fetchPassages(): Promise<Passage[]> {
  return (await call(client.GET('/api/my/passages'))).data;
}

/**
 * The pass's two answers start from the copy kept on the phone (pass-cache.ts) and are
 * refreshed when stale; a failed refresh leaves the kept copy on screen.
 */
function keptQuery<T>(userId: string, name: 'riderCode' | 'passages', fetcher: () => Promise<T>, staleTime: number) {
  return queryOptions({
    queryKey: [...myKeys[name], userId] as const,
    queryFn: async () => {
      try {
        const data = await fetcher();
        rememberAnswer(userId, name, data);
        return data;
      } catch (error) {
        if (error instanceof ApiError && error.status === 404) forgetAnswer(userId, name);
        throw error;
      }
    },
    initialData: () => recallAnswer<T>(userId, name)?.data,
    initialDataUpdatedAt: () => recallAnswer<T>(userId, name)?.savedAt,
    staleTime,
  });
}

export const riderCodeQuery = (userId: string) => keptQuery(userId, 'riderCode', fetchRiderCode, 5 * 60_000);
// Passages change with every scan: the kept copy shows at once, a fresh one is always asked for.
export const passagesQuery = (userId: string) => keptQuery(userId, 'passages', fetchPassages, 0);

export async function fetchMyComments(offset: number, limit = COMMENTS_PAGE_SIZE): Promise<MyCommentList> {
  return (await call(client.GET('/api/my/comments', { params: { query: { limit, offset } } }))).data;
}

export async function fetchAnnouncements(): Promise<Announcement[]> {
  return (await call(client.GET('/api/announcements'))).data.announcements;
}

export async function fetchTshirtStatus(): Promise<TshirtStatus> {
  return (await call(client.GET('/api/my/tshirt-size/status'))).data;
}

export async function submitTshirtSize(body: ApiBody<'/api/my/tshirt-size', 'post'>): Promise<TshirtStatus> {
  return (await call(client.POST('/api/my/tshirt-size', { body }))).data;
}

export async function fetchGearSizes(): Promise<GearSizes> {
  return (await call(client.GET('/api/my/gear-sizes'))).data;
}

export async function submitGearSizes(body: ApiBody<'/api/my/gear-sizes', 'post'>): Promise<GearSizes> {
  return (await call(client.POST('/api/my/gear-sizes', { body }))).data;
}

export async function updateMyDetails(body: MyDetailsBody): Promise<{ user: UserRecord; message?: string }> {
  const res = await call(client.PATCH('/api/my/details', { body }));
  return { user: res.data.user, message: res.message };
}
