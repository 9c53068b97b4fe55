// The route guard: signed in, then verified (required unless
// waived), then role. The server refuses what this hides; the guard only spares riders
// screens they cannot use.
import type { Role } from '@rally/shared/catalog/accounts';
import { lazy, type ReactNode, Suspense } from 'react';
import { Navigate } from 'react-router';
import { FullScreenSpinner } from '../components/ui/spinner';
import { type User, useAuth } from '../lib/auth';

// Rarely seen, so kept out of the landing page's bundle.
const AccessDenied = lazy(() => import('./access-denied'));
// The privacy notice's re-ask (DESIGN.md §12): a band above the screen, beside it rather than
// around it: the screen never waits for it, and a chunk that cannot load (offline) shows nothing.
const ConsentGate = lazy(() =>
  import('../features/privacy/components/consent-gate').catch(() => ({ default: () => null })),
);

interface RequireAuthProps {
  children: ReactNode;
  /** A single allowed role. */
  role?: Role;
  /** Allowed roles; wins over `role` when both are given. */
  roles?: readonly Role[];
  /** Verification is required by default; pass false to waive it (e.g. /verify itself). */
  requireVerified?: boolean;
  /** Send users failing the role check here instead of showing Access Denied. */
  deniedRedirect?: string;
}

export function isVerified(user: User | null): boolean {
  return user?.verificationStatus === 'verified';
}

export function RequireAuth({ children, role, roles, requireVerified = true, deniedRedirect }: RequireAuthProps) {
  const { user, isAuthenticated, isLoading } = useAuth();

  if (isLoading) return <FullScreenSpinner label="Authenticating warrior..." />;
  if (!isAuthenticated || !user) return <Navigate to="/login" replace />;
  if (requireVerified && !isVerified(user)) return <Navigate to="/verify" replace />;

  const allowed = roles ?? (role ? [role] : null);
  if (allowed && !allowed.includes(user.role)) {
    if (deniedRedirect) return <Navigate to={deniedRedirect} replace />;
    return <AccessDenied required={roles ? { list: roles } : { single: role as Role }} userRole={user.role} />;
  }
  return (
    <>
      <Suspense fallback={null}>
        <ConsentGate />
      </Suspense>
      {children}
    </>
  );
}
