import { Hammer } from 'lucide-react';
import { Link } from 'react-router';
import { buttonStyles } from '../ui/button-styles';
import { SiteFooter } from './site-footer';
import { SiteHeader } from './site-header';

/** Stand-in for screens still being built, so their routes and guards work already. */
export function UnderConstruction({ title }: { title: string }) {
  return (
    <div className="flex min-h-dvh flex-col bg-ink-950">
      <title>{`${title} | Mindanao Warriors Endurance Rally`}</title>
      <SiteHeader />
      <main id="main" className="flex flex-1 items-center justify-center px-4 py-16 text-center">
        <div className="max-w-md">
          <Hammer className="mx-auto size-12 text-fire-400" aria-hidden="true" />
          <h1 className="mt-4 text-4xl">{title}</h1>
          <p className="mt-3 text-ash">This screen is being built. Check back soon, warrior.</p>
          <Link to="/" className={buttonStyles('secondary', 'md', 'mt-8')}>
            Return to Rally
          </Link>
        </div>
      </main>
      <SiteFooter />
    </div>
  );
}
