import type { ReactNode } from 'react';
import { SiteFooter } from './site-footer';
import { SiteHeader } from './site-header';

/** Frame of the small account screens: header, one centred panel, footer. */
export function AuthLayout({ children, wide = false }: { children: ReactNode; wide?: boolean }) {
  return (
    <div className="flex min-h-dvh flex-col bg-ink-950 bg-[radial-gradient(ellipse_at_top,rgb(234_88_12/0.18),transparent_60%)]">
      <SiteHeader />
      <main id="main" className="flex flex-1 items-start justify-center px-3 py-8 sm:items-center sm:px-4 sm:py-12">
        <div
          className={`w-full ${wide ? 'max-w-2xl' : 'max-w-md'} rounded-xl border border-ink-700 border-t-4 border-t-fire-500 bg-ink-900 p-5 shadow-2xl shadow-black/70 sm:p-8`}
        >
          {children}
        </div>
      </main>
      <SiteFooter />
    </div>
  );
}
