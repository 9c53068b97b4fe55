// Session state: loading, then authenticated or not. The stored
// user is only trusted after the server confirms the token on start, with one amendment
// for event day: when that check cannot reach the server at all, the stored session is
// kept (marked unconfirmed) so the scanner and the rider pass work offline. A 401 or an
// answer with `success: false` still logs out.
import { STORAGE_KEYS } from '@rally/shared/catalog/web-client';
import type { UserRecord } from '@rally/shared/contracts/auth';
import {
  createContext,
  type ReactNode,
  startTransition,
  useCallback,
  useContext,
  useEffect,
  useMemo,
  useState,
} from 'react';
import type { ApiAnswer } from './api-client';
import {
  forgetKeptPasses,
  forgetPageCookieMark,
  readPendingSignOuts,
  readStorage,
  readStoredUser,
  removeStorage,
  storeSession,
  writePendingSignOuts,
  writeStorage,
} from './storage';

export type User = UserRecord;

export interface AuthContextValue {
  user: User | null;
  isAuthenticated: boolean;
  isLoading: boolean;
  /** True while the session is the stored one, unchecked because the server could not be reached. */
  isOfflineSession: boolean;
  login: (email: string, password: string, remember?: boolean) => Promise<User>;
  logout: () => void;
  /** Re-fetches the profile; throws 'Failed to refresh user data' on failure. */
  refreshUser: () => Promise<User>;
  /** Swaps the token for a new one; on failure logs out and resolves to null. */
  refreshToken: () => Promise<User | null>;
  /** Adopts a session obtained elsewhere (registration answers with a token). */
  setSession: (token: string, user: User) => void;
}

const AuthContext = createContext<AuthContextValue | null>(null);

// The API client is loaded on first use rather than with the landing page: a visitor
// without a stored session never needs it there.
function loadApi(): Promise<typeof import('./api-client')> {
  return import('./api-client');
}

/**
 * Whether a failed profile check is the server's refusal (log out) rather than no answer
 * at all (keep the session): a 401, or any answer whose JSON says `success: false`.
 */
export function isAuthRefusal(error: unknown): boolean {
  if (!error || typeof error !== 'object' || !('status' in error)) return false;
  const { status, body } = error as { status: unknown; body?: unknown };
  if (status === 401) return true;
  return !!body && typeof body === 'object' && (body as { success?: unknown }).success === false;
}

/**
 * Whether this device holds a session to check on start. Without one there is nothing to
 * wait for: the first render is already the signed-out one, as the build prerenders pages
 * (scripts/prerender.mjs, where there is no storage at all), so hydration finds the same markup.
 */
export function hasStoredSession(): boolean {
  if (typeof window === 'undefined') return false;
  return !!readStorage(STORAGE_KEYS.token) && !!readStorage(STORAGE_KEYS.user);
}

/**
 * `initialUser`: the session the server already checked when it rendered this page for the
 * rider (its cookie; main.tsx adopts it only when this device holds that rider's session). The
 * first screen is then the rider's, not the checking spinner; the check below still runs.
 */
export function AuthProvider({ children, initialUser }: { children: ReactNode; initialUser?: User }) {
  const [user, setUser] = useState<User | null>(initialUser ?? null);
  const [isLoading, setIsLoading] = useState(() => !initialUser && hasStoredSession());
  const [isOfflineSession, setIsOfflineSession] = useState(false);

  const adoptUser = useCallback((next: User) => {
    const json = JSON.stringify(next);
    writeStorage(STORAGE_KEYS.user, json);
    // The same record again (the start check, then My Profile's refresh, moments after the
    // server drew the page with it) keeps the same object: every screen reading the session
    // would otherwise render again, whole, in one blocking task on a slow phone.
    setUser((prev) => (prev && JSON.stringify(prev) === json ? prev : next));
  }, []);

  const logout = useCallback(() => {
    const token = readStorage(STORAGE_KEYS.token);
    // Kept first, before anything can fail: until the server hears of it, the session (and the
    // push subscriptions this browser registered with it) lives on there (lib/sign-out.ts).
    if (token) writePendingSignOuts([...readPendingSignOuts(), token]);
    removeStorage(STORAGE_KEYS.token);
    forgetPageCookieMark();
    removeStorage(STORAGE_KEYS.user);
    // The code belongs to the account that registered on this device; the next person
    // signing in here must not see it.
    removeStorage(STORAGE_KEYS.verificationCode);
    // Whatever ended the session (a tap, a 401), the next person on a shared phone finds no
    // pass, roster or delivered calls; unsent scans and calls stay (lib/offline/offline-db.ts,
    // loaded only then: the landing page's script does not carry IndexedDB code).
    forgetKeptPasses();
    void import('./offline/offline-db').then((m) => m.forgetSignedOutData()).catch(() => {});
    // An unfinished /join entry (name, sizes, receipt) is the account's, not the phone's.
    void import('./drafts-db').then((m) => m.forgetAccountDrafts()).catch(() => {});
    setUser(null);
    setIsOfflineSession(false);
    if (token) {
      // Push off for this browser, then the session revoked on the server, which also removes
      // its push subscriptions and clears the page cookie (a 401 for a session already ended
      // counts as done); offline, it stays pending until the server answers. The local
      // sign-out does not wait.
      void import('./sign-out').then((m) => m.endSignIn(token)).catch(() => {});
    }
  }, []);

  // A sign-out the server has not heard of yet (made offline) is told on start and whenever
  // the browser comes back online.
  useEffect(() => {
    const flush = () => {
      if (readPendingSignOuts().length > 0)
        void import('./sign-out').then((m) => m.flushPendingSignOuts()).catch(() => {});
    };
    flush();
    window.addEventListener('online', flush);
    return () => window.removeEventListener('online', flush);
  }, []);

  useEffect(() => {
    let cancelled = false;
    const token = readStorage(STORAGE_KEYS.token);
    const stored = readStorage(STORAGE_KEYS.user);
    // The session settles as a transition. On the prerendered landing page (main.tsx) this
    // effect runs before React has hydrated the page below the router's Suspense boundary; an
    // ordinary update reaching it there would hydrate the whole page in one long blocking
    // task, where a transition lets React hydrate it in slices first.
    const settle = (apply?: () => void) => {
      if (cancelled) return;
      startTransition(() => {
        apply?.();
        setIsLoading(false);
      });
    };
    // Once back online, the kept session is checked as it would have been on start.
    const recheck = () => {
      loadApi()
        .then(({ call, client }) => call(client.GET('/api/auth/profile')))
        .then((response) => {
          if (cancelled) return;
          const confirmed = response?.success ? response.data?.user : undefined;
          if (confirmed) {
            adoptUser(confirmed);
            setIsOfflineSession(false);
          } else logout();
        })
        .catch((error: unknown) => {
          if (cancelled) return;
          if (isAuthRefusal(error)) logout();
          else window.addEventListener('online', recheck, { once: true });
        });
    };
    if (!token || !stored) {
      settle();
      return;
    }
    // The check's answer also (re)sets the page cookie, so the next My Profile arrives drawn
    // by the server (apps/server/src/lib/session-cookie.ts).
    loadApi()
      .then(({ call, client }) => call(client.GET('/api/auth/profile')))
      .then((response) => {
        const confirmed = response?.success ? response.data?.user : undefined;
        settle(confirmed ? () => adoptUser(confirmed) : logout);
      })
      .catch((error: unknown) => {
        // No answer (offline, timeout, a gateway's error page): keep the stored session,
        // and check it again once the browser is back online.
        const kept = isAuthRefusal(error) ? null : readStoredUser();
        if (!kept) {
          settle(logout);
          return;
        }
        settle(() => {
          setUser(kept);
          setIsOfflineSession(true);
        });
        window.addEventListener('online', recheck, { once: true });
      });
    return () => {
      cancelled = true;
      window.removeEventListener('online', recheck);
    };
  }, [adoptUser, logout]);

  const login = useCallback(async (email: string, password: string, remember?: boolean) => {
    let response: ApiAnswer<'/api/auth/login', 'post'>;
    try {
      const { call, client } = await loadApi();
      response = await call(client.POST('/api/auth/login', { body: { email, password, remember: remember ?? false } }));
    } catch (error) {
      throw new Error(error instanceof Error && error.message ? error.message : 'Login failed');
    }
    if (!response?.success || !response.token || !response.data?.user) {
      throw new Error(response?.message || 'Login failed');
    }
    storeSession(response.token, response.data.user);
    setUser(response.data.user);
    setIsOfflineSession(false);
    return response.data.user;
  }, []);

  const refreshUser = useCallback(async () => {
    try {
      const { call, client } = await loadApi();
      const response = await call(client.GET('/api/auth/profile'));
      if (!response?.success || !response.data?.user) throw new Error('Failed to refresh user data');
      adoptUser(response.data.user);
      return response.data.user;
    } catch {
      throw new Error('Failed to refresh user data');
    }
  }, [adoptUser]);

  const refreshToken = useCallback(async () => {
    try {
      const { call, client } = await loadApi();
      const response = await call(client.POST('/api/auth/refresh'));
      if (!response?.success || !response.token || !response.data?.user) throw new Error('refresh refused');
      storeSession(response.token, response.data.user);
      setUser(response.data.user);
      return response.data.user;
    } catch {
      logout();
      return null;
    }
  }, [logout]);

  const setSession = useCallback((token: string, next: User) => {
    storeSession(token, next);
    setUser(next);
  }, []);

  const value = useMemo<AuthContextValue>(
    () => ({
      user,
      isAuthenticated: user !== null,
      isLoading,
      isOfflineSession,
      login,
      logout,
      refreshUser,
      refreshToken,
      setSession,
    }),
    [user, isLoading, isOfflineSession, login, logout, refreshUser, refreshToken, setSession],
  );

  return <AuthContext.Provider value={value}>{children}</AuthContext.Provider>;
}

export function useAuth(): AuthContextValue {
  const context = useContext(AuthContext);
  if (!context) throw new Error('useAuth must be used within an AuthProvider');
  return context;
}
