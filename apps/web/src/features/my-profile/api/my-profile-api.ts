// Calls of My Profile.
import { COMMENTS_PAGE_SIZE, MY_PROFILE_QUERY_KEYS } from '@rally/shared/catalog';
import type { UserRecord } from '@rally/shared/contracts/auth';
import type { MyCommentList } from '@rally/shared/contracts/profiles';
import type { MyDetailsBody } from '@rally/shared/contracts/rider-details';
import type {
  Announcement,
  GearSizes,
  GearSizesBody,
  TshirtSizeBody,
  TshirtStatus,
} from '@rally/shared/contracts/rider-kit';
import type { Passage } from '@rally/shared/contracts/scans';
import { queryOptions } from '@tanstack/react-query';
import { ApiError, api } from '../../../lib/api-client';
import { forgetAnswer, recallAnswer, rememberAnswer } from '../lib/pass-cache';

interface Envelope<T> {
  success: boolean;
  data: T;
  message?: string;
}

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
  const res = await api.get<Envelope<{ riderCode: string }>>('/my/rider-code');
  return res.data.riderCode;
}

export async function fetchPassages(): Promise<Passage[]> {
  const res = await api.get<Envelope<Passage[]>>('/my/passages');
  return res.data;
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
  const res = await api.get<Envelope<MyCommentList>>(`/my/comments?limit=${limit}&offset=${offset}`);
  return res.data;
}

export async function fetchAnnouncements(): Promise<Announcement[]> {
  const res = await api.get<Envelope<{ announcements: Announcement[] }>>('/announcements');
  return res.data.announcements;
}

export async function fetchTshirtStatus(): Promise<TshirtStatus> {
  const res = await api.get<Envelope<TshirtStatus>>('/my/tshirt-size/status');
  return res.data;
}

export async function submitTshirtSize(body: TshirtSizeBody): Promise<TshirtStatus> {
  const res = await api.post<Envelope<TshirtStatus>>('/my/tshirt-size', body);
  return res.data;
}

export async function fetchGearSizes(): Promise<GearSizes> {
  const res = await api.get<Envelope<GearSizes>>('/my/gear-sizes');
  return res.data;
}

export async function submitGearSizes(body: GearSizesBody): Promise<GearSizes> {
  const res = await api.post<Envelope<GearSizes>>('/my/gear-sizes', body);
  return res.data;
}

export async function updateMyDetails(body: MyDetailsBody): Promise<{ user: UserRecord; message?: string }> {
  const res = await api.patch<Envelope<{ user: UserRecord }>>('/my/details', body);
  return { user: res.data.user, message: res.message };
}
