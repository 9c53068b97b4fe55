// Calls of following a rider (DESIGN.md §10): the public follow form and its confirm link,
// and the rider's own list of followers.
import type { ApiAnswer, ApiBody } from '../../../lib/api-client';
import { call, client, publicClient } from '../../../lib/api-client';

export type FollowBody = ApiBody<'/api/follow/{userId}', 'post'>;
export type FollowConfirmation = ApiAnswer<'/api/follow/confirm', 'post'>['data'];
export type FollowerView = ApiAnswer<'/api/my/followers'>['data'][number];

export const followKeys = {
  mine: ['my-followers'] as const,
};

/** Follows the rider; answers the server's message for the visitor. */
export async function followRider(userId: string, body: FollowBody): Promise<string> {
  // Without the session: following is the same for anyone, signed in or not.
  const answer = await call(publicClient.POST('/api/follow/{userId}', { params: { path: { userId } }, body }));
  return answer.message;
}

export async function confirmFollow(token: string): Promise<FollowConfirmation> {
  return (await call(publicClient.POST('/api/follow/confirm', { body: { token } }))).data;
}

export async function fetchPushPublicKey(): Promise<string> {
  return (await call(publicClient.GET('/api/push/public-key'))).data.publicKey;
}

export async function fetchMyFollowers(): Promise<FollowerView[]> {
  return (await call(client.GET('/api/my/followers'))).data;
}

export async function removeFollower(id: string): Promise<void> {
  await call(client.DELETE('/api/my/followers/{id}', { params: { path: { id } } }));
}
