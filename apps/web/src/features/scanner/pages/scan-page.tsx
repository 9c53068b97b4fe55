// Lazy route module (see app/router.tsx): /scan, the marshals' phone scanner (issue 14,
// DESIGN.md §8). Its own gate rather than RequireAuth: signed-out marshals sign in here and
// stay here, and a rider is told who the page is for.
import { can } from '@rally/shared/permissions';
import { useEffect } from 'react';
import { FullScreenSpinner } from '../../../components/ui/spinner';
import { useAuth } from '../../../lib/auth';
import { NotForRiders } from '../components/not-for-riders';
import { ScannerFrame } from '../components/scanner-frame';
import { ScannerScreen } from '../components/scanner-screen';
import { ScannerSignIn } from '../components/scanner-sign-in';

/**
 * "Add to home screen" on /scan installs the scanner (its own manifest, start_url /scan)
 * rather than the rider pass the site's manifest describes.
 */
function useScannerManifest() {
  useEffect(() => {
    const link = document.querySelector<HTMLLinkElement>('link[rel="manifest"]');
    if (!link) return;
    const previous = link.getAttribute('href');
    link.setAttribute('href', '/scan.webmanifest');
    return () => {
      if (previous) link.setAttribute('href', previous);
    };
  }, []);
}

export default function ScanPage() {
  const { user, isLoading } = useAuth();
  useScannerManifest();
  if (isLoading) return <FullScreenSpinner label="Authenticating warrior..." />;
  if (!user) {
    return (
      <ScannerFrame>
        <div className="mx-auto max-w-md rounded-xl border border-ink-700 border-t-4 border-t-fire-500 bg-ink-900 p-5 sm:p-8">
          <ScannerSignIn
            heading="Sign in to scan"
            note="Marshals and staff: sign in once on this phone. Scans made offline are kept and sent later."
          />
        </div>
      </ScannerFrame>
    );
  }
  if (!can(user.role, 'qr_scan')) {
    return (
      <ScannerFrame>
        <NotForRiders user={user} />
      </ScannerFrame>
    );
  }
  return <ScannerScreen user={user} />;
}
