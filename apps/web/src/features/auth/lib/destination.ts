import { ADMIN_LANDING_ROLES } from '@rally/shared/catalog/accounts';
import type { User } from '../../../lib/auth';

/**
 * Where a signed-in user lands after /login: a returning rider with no entry in the current
 * edition -> /join (DESIGN.md §9), unverified -> /verify, admin/marshall -> /admin, others -> /me.
 */
export function destinationFor(user: Pick<User, 'verificationStatus' | 'role'>): string {
  if (user.verificationStatus === 'not_entered') return '/join';
  if (user.verificationStatus !== 'verified') return '/verify';
  if ((ADMIN_LANDING_ROLES as readonly string[]).includes(user.role)) return '/admin';
  return '/me';
}
