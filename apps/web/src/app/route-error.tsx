import type { ReactNode } from 'react';
import { Link } from 'react-router';
import { ErrorScreen } from '../components/layout/error-screen';
import { SiteHeader } from '../components/layout/site-header';
import { buttonStyles } from '../components/ui/button-styles';
import { ErrorBoundary } from '../components/ui/error-boundary';

export function NotFoundPage() {
  return (
    <ErrorScreen
      header={<SiteHeader />}
      title="Trail Not Found"
      message="This path leads nowhere, warrior. Turn back to the rally."
      actions={
        <Link to="/" className={buttonStyles('primary', 'md')}>
          Return to Rally
        </Link>
      }
    />
  );
}

/** Catches a screen that throws or whose code fails to download (e.g. after a deploy). */
export function RouteErrorBoundary({ children }: { children: ReactNode }) {
  return (
    <ErrorBoundary
      fallback={
        <ErrorScreen
          header={<SiteHeader />}
          title="Something Broke"
          message="The page could not be loaded. Check your connection and try again."
          actions={
            <>
              <button type="button" onClick={() => window.location.reload()} className={buttonStyles('primary')}>
                Reload
              </button>
              {/* A plain link: it must work even when the router itself is what failed. */}
              <a href="/" className={buttonStyles('secondary')}>
                Return to Rally
              </a>
            </>
          }
        />
      }
    >
      {children}
    </ErrorBoundary>
  );
}
