import { useSyncExternalStore } from 'react';
import { ApiError, isNetworkError } from '../../../lib/api-client';

function subscribe(onChange: () => void) {
  window.addEventListener('online', onChange);
  window.addEventListener('offline', onChange);
  return () => {
    window.removeEventListener('online', onChange);
    window.removeEventListener('offline', onChange);
  };
}

/** The browser's own idea of being online; a phone with one bar may still say true. */
export function useOnline(): boolean {
  return useSyncExternalStore(
    subscribe,
    () => navigator.onLine,
    () => true,
  );
}

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
