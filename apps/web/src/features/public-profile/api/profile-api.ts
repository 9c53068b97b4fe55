// Calls of the public profile.

import { COMMENTS_PAGE_SIZE, type ProfileImageSize, publicProfileQueryKey } from '@rally/shared/catalog';
import type { Comment, CommentList, FireState, PublicProfile } from '@rally/shared/contracts/profiles';
import { api } from '../../../lib/api-client';

interface Envelope<T> {
  success: boolean;
  data: T;
  message?: string;
}

export const profileKeys = {
  profile: publicProfileQueryKey,
  fire: (id: string) => ['fire-status', id] as const,
  comments: (id: string) => ['profile-comments', id] as const,
  image: (id: string, size: ProfileImageSize) => ['profile-image', id, size] as const,
};

/** Thrown when the API answers without success: the page shows 'User not found'. */
export class ProfileNotFoundError extends Error {
  constructor() {
    super('User not found');
    this.name = 'ProfileNotFoundError';
  }
}

export async function fetchPublicProfile(id: string): Promise<PublicProfile> {
  const res = await api.get<Envelope<PublicProfile>>(`/users/${encodeURIComponent(id)}/profile`);
  if (!res?.success || !res.data) throw new ProfileNotFoundError();
  return res.data;
}

export async function fetchFireStatus(id: string): Promise<FireState> {
  const res = await api.get<Envelope<FireState>>(`/users/${encodeURIComponent(id)}/fire/status`);
  return res.data;
}

export async function giveFire(id: string): Promise<FireState> {
  const res = await api.post<Envelope<FireState>>(`/users/${encodeURIComponent(id)}/fire`);
  return res.data;
}

export async function fetchComments(id: string, offset: number, limit = COMMENTS_PAGE_SIZE): Promise<CommentList> {
  const res = await api.get<Envelope<CommentList>>(
    `/users/${encodeURIComponent(id)}/comments?limit=${limit}&offset=${offset}`,
  );
  return res.data;
}

export async function postComment(id: string, comment: string): Promise<Comment> {
  const res = await api.post<Envelope<Comment>>(`/users/${encodeURIComponent(id)}/comments`, { comment });
  return res.data;
}
