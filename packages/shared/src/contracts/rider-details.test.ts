import { describe, expect, it } from 'vitest';
import { canonicalPhilippineMobile, philippineMobile } from './rider-details';

describe('Philippine mobile numbers', () => {
  it('accepts 09… and +639… with separators, in one canonical form', () => {
    expect(canonicalPhilippineMobile('09171234567')).toBe('+639171234567');
    expect(canonicalPhilippineMobile('+63 917-123-4567')).toBe('+639171234567');
    expect(canonicalPhilippineMobile('639171234567')).toBe('+639171234567');
    expect(canonicalPhilippineMobile(' 0917.123.4567 ')).toBe('+639171234567');
  });
  it('refuses landlines, short numbers and text', () => {
    for (const bad of ['0821234567', '0917123456', '+6391712345678', '9171234567', 'call me', '']) {
      expect(canonicalPhilippineMobile(bad)).toBeNull();
    }
    const r = philippineMobile('emergencyContactNumber').safeParse('12345');
    expect(r.success).toBe(false);
    expect(r.error?.issues[0]?.message).toMatch(/Philippine mobile number/);
  });
});
