// Declarative routes (<BrowserRouter>/<Routes>, see app.tsx) rather than createBrowserRouter: the data
// router machinery (loaders, actions, fetchers) adds ~17 KB gzipped to the landing page,
// which has a 100 KB budget, and no screen here needs it.
import { ADMIN_PANEL_ROLES, PRINT_QR_ROLES } from '@rally/shared/catalog/accounts';
import { lazy, type ReactNode, Suspense } from 'react';
import { Route, Routes } from 'react-router';
import { FullScreenSpinner } from '../components/ui/spinner';
// The landing page is most visitors' first screen, so it ships in the entry chunk;
// every other screen is split out and fetched when its route is visited.
import { LandingPage } from '../features/landing/pages/landing-page';
import { RequireAuth } from './guards';
import { NotFoundPage, RouteErrorBoundary } from './route-error';
import { ScrollManager } from './scroll-manager';

// TanStack Query is only needed once a screen talks to the API through it; keeping its
// provider out of the landing page's bundle saves another ~8 KB there.
const loadQueryLayout = () => import('./query-layout');
const loadRegisterPage = () => import('../features/registration/pages/register-page');
const loadPublicProfilePage = () => import('../features/public-profile/pages/public-profile-page');
const loadMyProfilePage = () => import('../features/my-profile/pages/my-profile-page');
const QueryLayout = lazy(loadQueryLayout);
const RegisterPage = lazy(loadRegisterPage);
const VerifyPage = lazy(() => import('../features/verification/pages/verify-page'));
const JoinPage = lazy(() => import('../features/join/pages/join-page'));
const LoginPage = lazy(() => import('../features/auth/pages/login-page'));
const ForgotPasswordPage = lazy(() => import('../features/auth/pages/forgot-password-page'));
const ResetPasswordPage = lazy(() => import('../features/auth/pages/reset-password-page'));
const PublicProfilePage = lazy(loadPublicProfilePage);
const MyProfilePage = lazy(loadMyProfilePage);
const ConsolePage = lazy(() => import('../features/console/pages/console-page'));
const PrintQrPage = lazy(() => import('../features/console/pages/print-qr-page'));
// The marshals' scanner gates itself (signed out: sign in there; no qr_scan: who it is for).
const LivePage = lazy(() => import('../features/live/pages/live-page'));
const ScanPage = lazy(() => import('../features/scanner/pages/scan-page'));
const FollowConfirmPage = lazy(() => import('../features/follow/pages/follow-confirm-page'));
const PrivacyPage = lazy(() => import('../features/privacy/pages/privacy-page'));

/**
 * The riders' screens most often opened straight from a link on a phone. Rendering alone
 * would fetch their code one step at a time (the layout, then the guard's session check,
 * then the screen, then its data): on slow mobile data each step costs a round trip.
 */
const SCREEN_PRELOADS: [RegExp, (match: RegExpExecArray) => void][] = [
  [/^\/register\/?$/, () => void loadRegisterPage()],
  [/^\/(?:me|profile)\/?$/, () => void loadMyProfilePage()],
  [
    /^\/user\/([^/]+)\/?$/,
    (m) => {
      void loadPublicProfilePage();
      // The profile's data is asked for beside the code that shows it, not after it.
      const id = decodeURIComponent(m[1] ?? '');
      void import('../features/public-profile/api/prefetch-profile').then((p) => p.prefetchPublicProfile(id));
    },
  ],
];

/**
 * Starts downloading the screen the browser opened on, in parallel with the app starting
 * (main.tsx calls it before the first render). The landing page ships in the entry chunk.
 */
export function preloadScreen(pathname: string): void {
  if (pathname === '/') return;
  void loadQueryLayout();
  for (const [pattern, preload] of SCREEN_PRELOADS) {
    const match = pattern.exec(pathname);
    if (match) {
      preload(match);
      return;
    }
  }
}

const verifyScreen = (
  <RequireAuth requireVerified={false}>
    <VerifyPage />
  </RequireAuth>
);
const myProfileScreen = (
  <RequireAuth>
    <MyProfilePage />
  </RequireAuth>
);

/**
 * Every screen, under whichever router the caller provides (see app.tsx): the browser's,
 * or a static one when the build prerenders the landing page.
 */
export function AppRoutes({ children }: { children?: ReactNode }) {
  return (
    <>
      <ScrollManager />
      <a
        href="#main"
        className="sr-only z-[200] rounded bg-fire-500 px-4 py-2 font-bold text-ink-950 focus:not-sr-only focus:fixed focus:top-2 focus:left-2"
      >
        Skip to content
      </a>
      <RouteErrorBoundary>
        <Suspense fallback={<FullScreenSpinner label="Loading..." />}>
          <Routes>
            <Route path="/" element={<LandingPage />} />
            <Route element={<QueryLayout />}>
              <Route path="/register" element={<RegisterPage />} />
              <Route path="/verify" element={verifyScreen} />
              <Route path="/verification-success" element={verifyScreen} />
              <Route
                path="/join"
                element={
                  <RequireAuth requireVerified={false}>
                    <JoinPage />
                  </RequireAuth>
                }
              />
              <Route path="/login" element={<LoginPage />} />
              <Route path="/forgot-password" element={<ForgotPasswordPage />} />
              <Route path="/reset-password" element={<ResetPasswordPage />} />
              <Route path="/user" element={<PublicProfilePage />} />
              <Route path="/user/:userId" element={<PublicProfilePage />} />
              <Route path="/me" element={myProfileScreen} />
              <Route path="/profile" element={myProfileScreen} />
              <Route
                path="/admin"
                element={
                  // Riders who wander into the console are sent home.
                  <RequireAuth roles={ADMIN_PANEL_ROLES} deniedRedirect="/">
                    <ConsolePage />
                  </RequireAuth>
                }
              />
              <Route
                path="/admin/print-qr/:userId"
                element={
                  <RequireAuth roles={PRINT_QR_ROLES}>
                    <PrintQrPage />
                  </RequireAuth>
                }
              />
              <Route path="/scan" element={<ScanPage />} />
              <Route path="/live" element={<LivePage />} />
              <Route path="/follow/confirm" element={<FollowConfirmPage />} />
              <Route path="/privacy" element={<PrivacyPage />} />
              <Route path="*" element={<NotFoundPage />} />
            </Route>
          </Routes>
        </Suspense>
      </RouteErrorBoundary>
      {children}
    </>
  );
}
