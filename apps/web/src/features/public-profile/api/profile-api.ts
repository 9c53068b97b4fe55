// Calls of the public profile.

import type { ProfileImageSize } from '@rally/shared/catalog/registration';
import { COMMENTS_PAGE_SIZE, publicProfileQueryKey } from '@rally/shared/catalog/web-client';
import type { Comment, CommentList, FireState, PublicProfile } from '@rally/shared/contracts/profiles';
import { call, client } from '../../../lib/api-client';

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
  const res = await call(client.GET('/api/users/{id}/profile', { params: { path: { id } } }));
  if (!res?.success || !res.data) throw new ProfileNotFoundError();
  return res.data;
}

export async function fetchFireStatus(id: string): Promise<FireState> {
  return (await call(client.GET('/api/users/{id}/fire/status', { params: { path: { id } } }))).data;
}

export async function giveFire(id: string): Promise<FireState> {
  return (await call(client.POST('/api/users/{id}/fire', { params: { path: { id } } }))).data;
}

export async function fetchComments(id: string, offset: number, limit = COMMENTS_PAGE_SIZE): Promise<CommentList> {
  return (await call(client.GET('/api/users/{id}/comments', { params: { path: { id }, query: { limit, offset } } })))
    .data;
}

export async function postComment(id: string, comment: string): Promise<Comment> {
  return (await call(client.POST('/api/users/{id}/comments', { params: { path: { id } }, body: { comment } }))).data;
}
