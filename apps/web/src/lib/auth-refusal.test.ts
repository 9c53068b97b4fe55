// Event day amends the start-up rule: only the server's refusal ends a stored session;
// no answer at all (offline, a timeout, a gateway's error page) keeps it.
import { describe, expect, it } from 'vitest';
import { ApiError } from './api-client';
import { isAuthRefusal } from './auth';

describe('isAuthRefusal', () => {
  it('a 401 or an answer with success:false logs out', () => {
    expect(isAuthRefusal(new ApiError('Unauthorized', 401, { success: false, message: 'x' }))).toBe(true);
    expect(isAuthRefusal(new ApiError('Unauthorized', 401, ''))).toBe(true);
    expect(isAuthRefusal(new ApiError('Forbidden', 403, { success: false, message: 'Account inactive' }))).toBe(true);
  });
  it('no answer keeps the session', () => {
    expect(isAuthRefusal(new TypeError('Failed to fetch'))).toBe(false);
    expect(isAuthRefusal(new Error('Request timeout'))).toBe(false);
    expect(isAuthRefusal(new ApiError('HTTP error! status: 502', 502, '<html>Bad gateway</html>'))).toBe(false);
    expect(isAuthRefusal(undefined)).toBe(false);
  });
});
