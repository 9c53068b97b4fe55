// localStorage access that never throws: Safari private mode and disabled storage throw
// on access, and the site must still work (signed out) there.
import { SESSION_MARK_COOKIE, STORAGE_KEYS } from '@rally/shared/catalog/web-client';
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

/**
 * Sessions signed out on this device that the server has not heard of yet (signed out offline,
 * or the page closed before the call went): until it does, the session is live there and so
 * are the push subscriptions this browser registered. Written before anything else at
 * sign-out, so not even a failed script load loses one; lib/sign-out.ts tells the server.
 */
export const PENDING_SIGN_OUTS_KEY = 'rally.pendingSignOuts';

export function readPendingSignOuts(): string[] {
  try {
    const parsed: unknown = JSON.parse(readStorage(PENDING_SIGN_OUTS_KEY) ?? '[]');
    return Array.isArray(parsed) ? parsed.filter((t): t is string => typeof t === 'string' && t.length > 0) : [];
  } catch {
    return [];
  }
}

export function writePendingSignOuts(tokens: readonly string[]): void {
  if (tokens.length === 0) removeStorage(PENDING_SIGN_OUTS_KEY);
  else writeStorage(PENDING_SIGN_OUTS_KEY, JSON.stringify([...new Set(tokens)]));
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

/**
 * Takes the page cookie's mark away on sign-out. The server sets the cookie that lets it draw
 * My Profile (HttpOnly: no script here can read or remove it) and clears it when told of the
 * sign-out (POST /api/auth/logout); signed out offline, the server hears nothing, so the
 * script-readable mark set beside it goes here and then, and the server draws nothing for a
 * cookie without its mark: the next person to open /me on the phone is not shown the last
 * rider's page (apps/server/src/lib/session-cookie.ts). Only ever removed here, never written.
 */
export function forgetPageCookieMark(): void {
  if (typeof document === 'undefined') return;
  const secure = window.location.protocol === 'https:' ? '; Secure' : '';
  for (const path of ['/me', '/profile']) {
    // biome-ignore lint/suspicious/noDocumentCookie: a removal, at once and offline too (the Cookie Store API is async and not in every rider's browser)
    document.cookie = `${SESSION_MARK_COOKIE}=; Max-Age=0; Path=${path}; SameSite=Lax${secure}`;
  }
}
