// localStorage access that never throws: Safari private mode and disabled storage throw
// on access, and the site must still work (signed out) there.
import { SESSION_COOKIE, SESSION_TTL_MS, STORAGE_KEYS } from '@rally/shared/catalog';
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

/** Where My Profile keeps the rider's pass for offline use (features/my-profile/lib/pass-cache.ts). */
export const PASS_CACHE_PREFIX = 'rally.pass.';

/**
 * Removes every kept pass, whoever's: on any sign-out (a tap, or a 401 that ended the session)
 * the next person on a shared phone must not find a rider code or passages.
 */
export function forgetKeptPasses(): void {
  try {
    const keys: string[] = [];
    for (let i = 0; i < localStorage.length; i++) {
      const key = localStorage.key(i);
      if (key?.startsWith(PASS_CACHE_PREFIX)) keys.push(key);
    }
    for (const key of keys) localStorage.removeItem(key);
  } catch {
    // Storage disabled: nothing was kept.
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
  writeSessionCookie(token);
}

/**
 * The token again in a cookie, which page requests carry so the server can draw My Profile
 * for its rider (the API reads only the Authorization header). Written and removed here, with
 * the stored token, so it never outlives the session on this device: signed out offline, the
 * next person to open /me on the phone is not shown the last rider's page. A script can read
 * it, as it can read the stored token: it exposes nothing more.
 */
export function writeSessionCookie(token: string | null): void {
  if (typeof document === 'undefined') return;
  const secure = window.location.protocol === 'https:' ? '; Secure' : '';
  // biome-ignore lint/suspicious/noDocumentCookie: written at once, with the stored token (the Cookie Store API is async and not in every rider's browser); a base64url token needs no escaping
  document.cookie = token
    ? `${SESSION_COOKIE}=${token}; Max-Age=${Math.floor(SESSION_TTL_MS / 1000)}; Path=/; SameSite=Lax${secure}`
    : `${SESSION_COOKIE}=; Max-Age=0; Path=/; SameSite=Lax${secure}`;
}

/** The token in the session cookie, if any. */
export function readSessionCookie(): string | null {
  if (typeof document === 'undefined') return null;
  const prefix = `${SESSION_COOKIE}=`;
  const entry = document.cookie.split('; ').find((c) => c.startsWith(prefix));
  return entry ? entry.slice(prefix.length) || null : null;
}
