import { lazy, type ReactNode, Suspense, startTransition, useEffect, useState } from 'react';
import { AuthProvider, type User } from '../lib/auth';

// The toast renderer is fetched once the page has loaded: no toast can fire before the rider
// interacts, and toasts queued earlier wait in react-hot-toast's store until it mounts.
// Earlier, its chunks would share a slow connection with the code of the screen being opened.
// It mounts from an effect, after hydration: the prerendered landing page has no toaster
// (rendering the lazy component there would make hydration wait for its chunk), so the
// first client render must not have one either.
const Toaster = lazy(() => import('../components/ui/toaster').then((m) => ({ default: m.Toaster })));

/**
 * App-wide providers. TanStack Query's provider is not here on purpose: it wraps every
 * route except the landing page (app/query-layout.tsx), to keep it out of the landing
 * page's JavaScript budget.
 */
export function Providers({ children, session }: { children: ReactNode; session?: User }) {
  const [mounted, setMounted] = useState(false);
  useEffect(() => {
    const mount = () => startTransition(() => setMounted(true));
    if (document.readyState === 'complete') {
      mount();
      return;
    }
    window.addEventListener('load', mount, { once: true });
    return () => window.removeEventListener('load', mount);
  }, []);
  return (
    <AuthProvider initialUser={session}>
      {children}
      {mounted && (
        <Suspense fallback={null}>
          <Toaster />
        </Suspense>
      )}
    </AuthProvider>
  );
}
