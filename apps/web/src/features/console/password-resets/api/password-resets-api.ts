// Calls of Password Reset Management.
import { PASSWORD_RESET_HISTORY_LIMIT } from '@rally/shared/catalog';
import type {
  ResetHistoryResponse,
  ResetLinkResult,
  ResetUsersResponse,
} from '@rally/shared/contracts/password-resets';
import { api } from '../../../../lib/api-client';

export const RESET_USERS_PAGE_SIZE = 20;

export const resetKeys = {
  all: ['console', 'password-resets'] as const,
  users: (search: string, page: number) => ['console', 'password-resets', 'users', search, page] as const,
  history: ['console', 'password-resets', 'history'] as const,
};

export async function fetchResetUsers(search: string, page: number): Promise<ResetUsersResponse['data']> {
  const q = new URLSearchParams({ page: String(page), limit: String(RESET_USERS_PAGE_SIZE) });
  if (search) q.set('search', search);
  return (await api.get<ResetUsersResponse>(`/admin/password-resets/users?${q}`)).data;
}

/** The console shows only the 50 newest entries of the history. */
export async function fetchResetHistory(): Promise<ResetHistoryResponse['data']> {
  return (
    await api.get<ResetHistoryResponse>(`/admin/password-resets/history?page=1&limit=${PASSWORD_RESET_HISTORY_LIMIT}`)
  ).data;
}

export async function generateResetLink(userId: string): Promise<ResetLinkResult> {
  return (await api.post<{ data: ResetLinkResult }>('/admin/password-resets/generate', { userId })).data;
}

export async function cleanupResetLinks(): Promise<{ deleted: number; message?: string }> {
  const res = await api.post<{ data: { deleted: number }; message?: string }>('/admin/password-resets/cleanup', {});
  return { deleted: res.data.deleted, message: res.message };
}
