import { Link } from 'react-router';
import { useAuth } from '../../lib/auth';
import { buttonStyles } from '../ui/button-styles';
import { Logo } from '../ui/logo';

export function SiteHeader({ transparent = false }: { transparent?: boolean }) {
  const { isAuthenticated } = useAuth();
  return (
    <header
      className={`relative z-20 ${transparent ? 'bg-transparent' : 'border-b border-ink-700 bg-ink-950/95'} pt-[env(safe-area-inset-top)]`}
    >
      <div className="mx-auto flex max-w-6xl items-center justify-between gap-3 px-4 py-3">
        <Link to="/" className="flex min-w-0 items-center gap-2 rounded">
          <Logo className="size-9 shrink-0 sm:size-10" />
          {/* Stacked on phones so the brand and both account buttons fit in 360px. */}
          <span className="font-display leading-none whitespace-nowrap text-bone">
            <span className="block text-base tracking-wide sm:text-xl">
              Mindanao <span className="block text-fire-400 sm:inline">Warriors</span>
            </span>
            <span className="mt-0.5 hidden text-xs tracking-[0.25em] text-ash sm:block">Endurance Rally</span>
          </span>
        </Link>
        <nav aria-label="Account" className="flex shrink-0 items-center gap-1 sm:gap-2">
          {isAuthenticated ? (
            <Link to="/me" className={buttonStyles('secondary', 'md', 'px-3')}>
              My Profile
            </Link>
          ) : (
            <>
              <Link to="/login" className={buttonStyles('ghost', 'md', 'px-2 sm:px-3')}>
                Log in
              </Link>
              <Link to="/register" className={buttonStyles('primary', 'md', 'px-3')}>
                Register
              </Link>
            </>
          )}
        </nav>
      </div>
    </header>
  );
}
