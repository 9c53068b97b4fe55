// Lazy route module (see app/router.tsx): /scan, the marshals' phone scanner (issue 14).
// Its own gate rather than RequireAuth: signed-out marshals sign in here and
// stay here, and a rider is told who the page is for.
import { can } from '@rally/shared/permissions';
import { useEffect, useState } from 'react';
import { FullScreenSpinner } from '../../../components/ui/spinner';
import { useAuth } from '../../../lib/auth';
import { pendingCount } from '../../../lib/offline/scan-sync';
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

/** Scans left on this phone by a session that ended: they go once someone signs in. */
function usePendingWhileSignedOut(signedOut: boolean): number {
  const [pending, setPending] = useState(0);
  useEffect(() => {
    if (signedOut) void pendingCount().then(setPending, () => setPending(0));
  }, [signedOut]);
  return pending;
}

export default function ScanPage() {
  const { user, isLoading } = useAuth();
  useScannerManifest();
  const waiting = usePendingWhileSignedOut(!isLoading && !user);
  if (isLoading) return <FullScreenSpinner label="Authenticating warrior..." />;
  if (!user) {
    return (
      <ScannerFrame>
        <div className="mx-auto max-w-md rounded-xl border border-ink-700 border-t-4 border-t-fire-500 bg-ink-900 p-5 sm:p-8">
          <ScannerSignIn
            heading="Sign in to scan"
            note="Marshals and staff: sign in once on this phone. Scans made offline are kept and sent later."
          />
          {waiting > 0 && (
            <p
              className="mt-4 rounded-md border-l-4 border-gold-400 bg-ink-800 px-4 py-3 text-lg text-bone"
              data-testid="waiting-scans"
            >
              {`${waiting} scan${waiting === 1 ? '' : 's'} recorded on this phone wait to be sent: they go as soon as you sign in.`}
            </p>
          )}
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
