// localStorage access that never throws: Safari private mode and disabled storage throw
// on access, and the site must still work (signed out) there.
import { STORAGE_KEYS } from '@rally/shared/catalog';
import type { UserRecord } from '@rally/shared/contracts/auth';

export function readStorage(key: string): string | null {
  try {
    return localStorage.getItem(key);
  } catch {
    return null;
  }
}

export function writeStorage(key: string, value: string): void {
  try {
    localStorage.setItem(key, value);
  } catch {
    // Nothing to do: the session then lasts for this page only.
  }
}

export function removeStorage(key: string): void {
  try {
    localStorage.removeItem(key);
  } catch {
    // Ignored for the same reason as above.
  }
}

export function readStoredUser(): UserRecord | null {
  const raw = readStorage(STORAGE_KEYS.user);
  if (!raw) return null;
  try {
    const parsed: unknown = JSON.parse(raw);
    return parsed && typeof parsed === 'object' ? (parsed as UserRecord) : null;
  } catch {
    return null;
  }
}

/** Stores what a successful login or registration returns. */
export function storeSession(token: string, user: UserRecord): void {
  writeStorage(STORAGE_KEYS.token, token);
  writeStorage(STORAGE_KEYS.user, JSON.stringify(user));
}
