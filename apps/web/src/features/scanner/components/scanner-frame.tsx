// The scanner's own frame: a phone tool, so no site navigation, just the brand and the task.
import type { ReactNode } from 'react';
import { Link } from 'react-router';
import { Logo } from '../../../components/ui/logo';

export function ScannerFrame({ children, aside }: { children: ReactNode; aside?: ReactNode }) {
  return (
    <div className="min-h-dvh bg-ink-950 bg-[radial-gradient(ellipse_at_top,rgb(234_88_12/0.14),transparent_55%)] text-bone">
      <title>Marshal Scanner | Mindanao Warriors Endurance Rally</title>
      <header className="border-b-4 border-fire-600 bg-ink-900">
        <div className="mx-auto flex max-w-6xl items-center gap-2 px-3 py-2 sm:gap-3 sm:px-4">
          <Link to="/" className="flex items-center gap-2" aria-label="Home">
            <Logo className="size-10" />
          </Link>
          <p className="font-display text-xl tracking-wider uppercase sm:text-2xl">
            Marshal <span className="text-fire-500">Scanner</span>
          </p>
          {aside && <div className="ml-auto flex shrink-0 items-center gap-2">{aside}</div>}
        </div>
      </header>
      <main id="main" className="mx-auto max-w-6xl px-3 py-4 sm:px-4 sm:py-6">
        {children}
      </main>
    </div>
  );
}
