import { Component, type ErrorInfo, type ReactNode } from 'react';
import { buttonStyles } from './button-styles';

/** Shows `fallback` instead of children that threw while rendering or whose code failed to download. */
export class ErrorBoundary extends Component<{ children: ReactNode; fallback: ReactNode }, { failed: boolean }> {
  override state = { failed: false };

  static getDerivedStateFromError() {
    return { failed: true };
  }

  override componentDidCatch(error: unknown, info: ErrorInfo) {
    console.error(error, info.componentStack);
  }

  override render() {
    return this.state.failed ? this.props.fallback : this.props.children;
  }
}

/**
 * Catches one part of a screen, so the rest stays usable: a tab whose code fails to download
 * with no signal must not take the SOS button above it down with it. React keeps a failed
 * lazy import failed, so the way back is a reload once the signal returns.
 */
export function PartErrorBoundary({ children, label }: { children: ReactNode; label: string }) {
  return (
    <ErrorBoundary
      fallback={
        <div role="alert" className="flex flex-col items-center gap-4 py-10 text-center" data-testid="part-failed">
          <p className="font-display text-2xl tracking-wide text-ember-400">{label} could not be loaded</p>
          <p className="max-w-md text-ash">Check your signal, then reload. Everything else on this page still works.</p>
          <button type="button" onClick={() => window.location.reload()} className={buttonStyles('secondary', 'md')}>
            Reload
          </button>
        </div>
      }
    >
      {children}
    </ErrorBoundary>
  );
}
