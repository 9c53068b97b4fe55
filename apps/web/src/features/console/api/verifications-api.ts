// Calls of the Verification Center.
import type { VerificationAction } from '@rally/shared/catalog';
import type { Pagination } from '@rally/shared/contracts/common';
import type { HistoryEntry, PendingVerification, VerificationStats } from '@rally/shared/contracts/verifications';
import { api } from '../../../lib/api-client';

export async function fetchPending(params: {
  page: number;
  limit: number;
  search: string;
}): Promise<{ data: PendingVerification[]; pagination: Pagination }> {
  const q = new URLSearchParams({ page: String(params.page), limit: String(params.limit) });
  if (params.search) q.set('search', params.search);
  return api.get(`/admin/verifications/pending?${q}`);
}

export async function verify(verificationCode: string, action: VerificationAction, notes?: string) {
  return api.post<{ success: boolean; message?: string }>('/admin/verifications/verify', {
    verification_code: verificationCode,
    action,
    ...(notes?.trim() ? { notes: notes.trim() } : {}),
  });
}

export async function undoVerification(userId: string) {
  return api.post<{ success: boolean; message?: string }>(`/admin/verifications/undo/${encodeURIComponent(userId)}`);
}

export async function fetchHistory(
  page: number,
  limit: number,
): Promise<{ data: HistoryEntry[]; pagination: Pagination }> {
  return api.get(`/admin/verifications/history?page=${page}&limit=${limit}`);
}

export async function fetchVerificationStats(): Promise<VerificationStats> {
  return (await api.get<{ data: VerificationStats }>('/admin/verifications/stats')).data;
}
