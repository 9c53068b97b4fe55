import type { ChangePasswordBody } from '@rally/shared/contracts/auth';
import { call, client } from '../../../lib/api-client';

/** Changes the signed-in user's password; the server ends their other sessions. */
export async function changePassword(body: ChangePasswordBody) {
  return call(client.POST('/api/auth/change-password', { body }));
}
