// Calls of Password Reset Management.
import { PASSWORD_RESET_HISTORY_LIMIT } from '@rally/shared/catalog/console';
import type {
  ResetHistoryResponse,
  ResetLinkResult,
  ResetUsersResponse,
} from '@rally/shared/contracts/password-resets';
import { call, client } from '../../../../lib/api-client';

export const RESET_USERS_PAGE_SIZE = 20;

export const resetKeys = {
  all: ['console', 'password-resets'] as const,
  users: (search: string, page: number) => ['console', 'password-resets', 'users', search, page] as const,
  history: ['console', 'password-resets', 'history'] as const,
};

export async function fetchResetUsers(search: string, page: number): Promise<ResetUsersResponse['data']> {
  const query = { page, limit: RESET_USERS_PAGE_SIZE, search: search || undefined };
  return (await call(client.GET('/api/admin/password-resets/users', { params: { query } }))).data;
}

/** The console shows only the 50 newest entries of the history. */
export async function fetchResetHistory(): Promise<ResetHistoryResponse['data']> {
  const query = { page: 1, limit: PASSWORD_RESET_HISTORY_LIMIT };
  return (await call(client.GET('/api/admin/password-resets/history', { params: { query } }))).data;
}

export async function generateResetLink(userId: string): Promise<ResetLinkResult> {
  return (await call(client.POST('/api/admin/password-resets/generate', { body: { userId } }))).data;
}

export async function cleanupResetLinks(): Promise<{ deleted: number; message?: string }> {
  const res = await call(client.POST('/api/admin/password-resets/cleanup', { body: {} }));
  return { deleted: res.data.deleted, message: res.message };
}
