import { api } from '../../../lib/api-client';

export interface ResetTokenInfo {
  email: string;
  userName: string;
}

export async function verifyResetToken(token: string): Promise<ResetTokenInfo | null> {
  const response = await api.get<{ success?: boolean; data?: ResetTokenInfo }>(
    `/auth/reset-password/${encodeURIComponent(token)}`,
  );
  return response?.success && response.data ? response.data : null;
}

export async function resetPassword(
  token: string,
  newPassword: string,
): Promise<{ success?: boolean; message?: string }> {
  return api.post('/auth/reset-password', { token, newPassword });
}
