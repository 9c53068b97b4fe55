// Session state (spec/rider-site.md §4): loading, then authenticated or not. The stored
// user is only trusted after the server confirms the token on start.
import { STORAGE_KEYS } from '@rally/shared/catalog';
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
import type { api as Api } from './api-client';
import { readStorage, removeStorage, storeSession, writeStorage } from './storage';

export type User = UserRecord;

interface LoginResponse {
  success?: boolean;
  token?: string;
  message?: string;
  data?: { user?: User };
}
interface ProfileResponse {
  success?: boolean;
  message?: string;
  data?: { user?: User };
}

export interface AuthContextValue {
  user: User | null;
  isAuthenticated: boolean;
  isLoading: boolean;
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
async function loadApi(): Promise<typeof Api> {
  return (await import('./api-client')).api;
}

export function AuthProvider({ children }: { children: ReactNode }) {
  const [user, setUser] = useState<User | null>(null);
  const [isLoading, setIsLoading] = useState(true);

  const adoptUser = useCallback((next: User) => {
    writeStorage(STORAGE_KEYS.user, JSON.stringify(next));
    setUser(next);
  }, []);

  const logout = useCallback(() => {
    const token = readStorage(STORAGE_KEYS.token);
    removeStorage(STORAGE_KEYS.token);
    removeStorage(STORAGE_KEYS.user);
    // The code belongs to the account that registered on this device; the next person
    // signing in here must not see it.
    removeStorage(STORAGE_KEYS.verificationCode);
    setUser(null);
    if (token) {
      // Revoke the session on the server too; the local sign-out does not wait for it.
      fetch('/api/auth/logout', { method: 'POST', headers: { Authorization: `Bearer ${token}` } }).catch(() => {});
    }
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
    if (!token || !stored) {
      settle();
      return;
    }
    loadApi()
      .then((api) => api.get<ProfileResponse>('/auth/profile'))
      .then((response) => {
        const confirmed = response?.success ? response.data?.user : undefined;
        settle(confirmed ? () => adoptUser(confirmed) : logout);
      })
      .catch(() => settle(logout));
    return () => {
      cancelled = true;
    };
  }, [adoptUser, logout]);

  const login = useCallback(async (email: string, password: string, remember?: boolean) => {
    let response: LoginResponse;
    try {
      const api = await loadApi();
      response = await api.post<LoginResponse>('/auth/login', { email, password, remember: remember ?? false });
    } catch (error) {
      throw new Error(error instanceof Error && error.message ? error.message : 'Login failed');
    }
    if (!response?.success || !response.token || !response.data?.user) {
      throw new Error(response?.message || 'Login failed');
    }
    storeSession(response.token, response.data.user);
    setUser(response.data.user);
    return response.data.user;
  }, []);

  const refreshUser = useCallback(async () => {
    try {
      const api = await loadApi();
      const response = await api.get<ProfileResponse>('/auth/profile');
      if (!response?.success || !response.data?.user) throw new Error('Failed to refresh user data');
      adoptUser(response.data.user);
      return response.data.user;
    } catch {
      throw new Error('Failed to refresh user data');
    }
  }, [adoptUser]);

  const refreshToken = useCallback(async () => {
    try {
      const api = await loadApi();
      const response = await api.post<LoginResponse>('/auth/refresh');
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
      login,
      logout,
      refreshUser,
      refreshToken,
      setSession,
    }),
    [user, isLoading, login, logout, refreshUser, refreshToken, setSession],
  );

  return <AuthContext.Provider value={value}>{children}</AuthContext.Provider>;
}

export function useAuth(): AuthContextValue {
  const context = useContext(AuthContext);
  if (!context) throw new Error('useAuth must be used within an AuthProvider');
  return context;
}
