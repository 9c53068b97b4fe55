import type { ChangePasswordBody } from '@rally/shared/contracts/auth';
import { api } from '../../../lib/api-client';

/** Changes the signed-in user's password; the server ends their other sessions. */
export async function changePassword(body: ChangePasswordBody): Promise<{ success?: boolean; message?: string }> {
  return api.post('/auth/change-password', body);
}
