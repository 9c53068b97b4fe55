// Which stored users My Profile may draw before the start check answers: only those the
// guard would let through as they are, so a redirect or Access Denied never rests on a
// stored record the server has not confirmed.
import type { UserRecord } from '@rally/shared/contracts/auth';
import { describe, expect, it } from 'vitest';
import { passesGuard } from './guards';

const rider = (fields: Partial<UserRecord>) =>
  ({ role: 'participant', verificationStatus: 'verified', ...fields }) as UserRecord;

describe('passesGuard', () => {
  it('lets a verified user through when no role is asked', () => {
    expect(passesGuard(rider({}), {})).toBe(true);
  });

  it('holds no user, and an unverified one unless verification is waived', () => {
    expect(passesGuard(null, {})).toBe(false);
    expect(passesGuard(rider({ verificationStatus: 'pending' }), {})).toBe(false);
    expect(passesGuard(rider({ verificationStatus: 'rejected' }), {})).toBe(false);
    expect(passesGuard(rider({ verificationStatus: 'pending' }), { requireVerified: false })).toBe(true);
  });

  it('checks the role, the list winning over the single role', () => {
    expect(passesGuard(rider({ role: 'officer' }), { role: 'admin' })).toBe(false);
    expect(passesGuard(rider({ role: 'admin' }), { role: 'admin' })).toBe(true);
    expect(passesGuard(rider({ role: 'officer' }), { role: 'officer', roles: ['admin', 'developer'] })).toBe(false);
    expect(passesGuard(rider({ role: 'developer' }), { role: 'officer', roles: ['admin', 'developer'] })).toBe(true);
  });
});
