import { type ApiAnswer, call, client } from '../../../lib/api-client';

export type ResetTokenInfo = ApiAnswer<'/api/auth/reset-password/{token}'>['data'];

export async function verifyResetToken(token: string): Promise<ResetTokenInfo | null> {
  const response = await call(client.GET('/api/auth/reset-password/{token}', { params: { path: { token } } }));
  return response?.success && response.data ? response.data : null;
}

export async function resetPassword(token: string, newPassword: string) {
  return call(client.POST('/api/auth/reset-password', { body: { token, newPassword } }));
}
