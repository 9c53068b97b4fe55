import { ApiError, isNetworkError } from '../../../lib/api-client';

/**
 * A failure that says nothing about the account: no answer at all (offline, timeout, a
 * server that is down). Those keep the cached pass on screen; an answer from the server
 * (401, 404, success: false) is believed.
 */
export function isOfflineFailure(error: unknown): boolean {
  if (typeof navigator !== 'undefined' && !navigator.onLine) return true;
  if (error instanceof ApiError) return error.status >= 500;
  if (isNetworkError(error)) return true;
  return error instanceof Error && error.message === 'Request timeout';
}
