import { ADMIN_LANDING_ROLES } from '@rally/shared/catalog/accounts';
import type { User } from '../../../lib/auth';

/** Where a signed-in user lands after /login: unverified -> /verify, admin/marshall -> /admin, others -> /me. */
export function destinationFor(user: User): string {
  if (user.verificationStatus !== 'verified') return '/verify';
  if ((ADMIN_LANDING_ROLES as readonly string[]).includes(user.role)) return '/admin';
  return '/me';
}
