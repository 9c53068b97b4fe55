// Calls of the Verification Center.
import type { VerificationAction } from '@rally/shared/catalog/accounts';
import type { Pagination } from '@rally/shared/contracts/common';
import type { HistoryEntry, PendingVerification, VerificationStats } from '@rally/shared/contracts/verifications';
import { call, client } from '../../../lib/api-client';

export async function fetchPending(params: {
  page: number;
  limit: number;
  search: string;
}): Promise<{ data: PendingVerification[]; pagination: Pagination }> {
  const query = { page: params.page, limit: params.limit, search: params.search || undefined };
  return call(client.GET('/api/admin/verifications/pending', { params: { query } }));
}

export async function verify(verificationCode: string, action: VerificationAction, notes?: string) {
  return call(
    client.POST('/api/admin/verifications/verify', {
      body: {
        verification_code: verificationCode,
        action,
        ...(notes?.trim() ? { notes: notes.trim() } : {}),
      },
    }),
  );
}

export async function undoVerification(userId: string) {
  return call(client.POST('/api/admin/verifications/undo/{id}', { params: { path: { id: userId } } }));
}

export async function fetchHistory(
  page: number,
  limit: number,
): Promise<{ data: HistoryEntry[]; pagination: Pagination }> {
  return call(client.GET('/api/admin/verifications/history', { params: { query: { page, limit } } }));
}

export async function fetchVerificationStats(): Promise<VerificationStats> {
  return (await call(client.GET('/api/admin/verifications/stats'))).data;
}
