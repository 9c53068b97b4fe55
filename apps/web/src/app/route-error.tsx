import { Component, type ErrorInfo, type ReactNode } from 'react';
import { Link } from 'react-router';
import { SiteHeader } from '../components/layout/site-header';
import { buttonStyles } from '../components/ui/button-styles';

function ErrorScreen({ title, message, reload }: { title: string; message: string; reload?: boolean }) {
  return (
    <div className="flex min-h-dvh flex-col bg-ink-950">
      <title>{`${title} | Mindanao Warriors Endurance Rally`}</title>
      <SiteHeader />
      <main id="main" className="flex flex-1 items-center justify-center px-4 py-12 text-center">
        <div className="max-w-md">
          <h1 className="text-5xl text-fire-400">{title}</h1>
          <p className="mt-4 text-ash">{message}</p>
          <div className="mt-8 flex flex-col gap-3 sm:flex-row sm:justify-center">
            {reload && (
              <button type="button" onClick={() => window.location.reload()} className={buttonStyles('primary')}>
                Reload
              </button>
            )}
            {/* A plain link: it must work even when the router itself is what failed. */}
            <a href="/" className={buttonStyles(reload ? 'secondary' : 'primary')}>
              Return to Rally
            </a>
          </div>
        </div>
      </main>
    </div>
  );
}

export function NotFoundPage() {
  return (
    <div className="flex min-h-dvh flex-col bg-ink-950">
      <title>Trail Not Found | Mindanao Warriors Endurance Rally</title>
      <SiteHeader />
      <main id="main" className="flex flex-1 items-center justify-center px-4 py-12 text-center">
        <div className="max-w-md">
          <h1 className="text-5xl text-fire-400">Trail Not Found</h1>
          <p className="mt-4 text-ash">This path leads nowhere, warrior. Turn back to the rally.</p>
          <Link to="/" className={buttonStyles('primary', 'md', 'mt-8')}>
            Return to Rally
          </Link>
        </div>
      </main>
    </div>
  );
}

/** Catches a screen that throws or whose code fails to download (e.g. after a deploy). */
export class RouteErrorBoundary extends Component<{ children: ReactNode }, { failed: boolean }> {
  override state = { failed: false };

  static getDerivedStateFromError() {
    return { failed: true };
  }

  override componentDidCatch(error: unknown, info: ErrorInfo) {
    console.error(error, info.componentStack);
  }

  override render() {
    if (this.state.failed) {
      return (
        <ErrorScreen
          title="Something Broke"
          message="The page could not be loaded. Check your connection and try again."
          reload
        />
      );
    }
    return this.props.children;
  }
}
