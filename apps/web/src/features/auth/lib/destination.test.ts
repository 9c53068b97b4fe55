import { describe, expect, it } from 'vitest';
import { destinationFor } from './destination';

describe('destinationFor', () => {
  it('sends a returning rider with no entry in the current edition to /join', () => {
    expect(destinationFor({ role: 'participant', verificationStatus: 'not_entered' })).toBe('/join');
    expect(destinationFor({ role: 'guest', verificationStatus: 'not_entered' })).toBe('/join');
  });

  it('keeps the rest: unverified to /verify, verified staff to /admin, verified riders to /me', () => {
    expect(destinationFor({ role: 'participant', verificationStatus: 'pending' })).toBe('/verify');
    expect(destinationFor({ role: 'participant', verificationStatus: 'rejected' })).toBe('/verify');
    expect(destinationFor({ role: 'participant', verificationStatus: null })).toBe('/verify');
    expect(destinationFor({ role: 'admin', verificationStatus: 'verified' })).toBe('/admin');
    expect(destinationFor({ role: 'marshall', verificationStatus: 'verified' })).toBe('/admin');
    expect(destinationFor({ role: 'participant', verificationStatus: 'verified' })).toBe('/me');
  });
});
