import { EVENT } from '@rally/shared/catalog/landing';
import { Link } from 'react-router';
import { Logo } from '../ui/logo';

export function SiteFooter() {
  return (
    <footer className="border-t-4 border-fire-600 bg-ink-950 pb-[env(safe-area-inset-bottom)]">
      <div className="mx-auto grid max-w-6xl gap-8 px-4 py-10 sm:grid-cols-[1.5fr_1fr_1fr]">
        <div>
          <div className="flex items-center gap-3">
            <Logo className="size-12" />
            <p className="font-display text-2xl leading-none">
              Mindanao <span className="text-fire-400">Warriors</span>
            </p>
          </div>
          <p className="mt-3 max-w-sm text-sm text-ash">
            {EVENT.dates}. A multi-day endurance ride across the highways, mountain passes and highlands of Mindanao,
            run by riders for riders.
          </p>
        </div>
        <nav aria-label="Rally">
          <h2 className="text-lg text-fire-300">The Rally</h2>
          <ul className="mt-3 space-y-2 text-sm">
            <li>
              <a href="/#trials" className="text-ash underline-offset-4 hover:text-bone hover:underline">
                Trials
              </a>
            </li>
            <li>
              <a href="/#routes" className="text-ash underline-offset-4 hover:text-bone hover:underline">
                Routes
              </a>
            </li>
            <li>
              <a href="/#event-info" className="text-ash underline-offset-4 hover:text-bone hover:underline">
                Event info
              </a>
            </li>
          </ul>
        </nav>
        <nav aria-label="Riders">
          <h2 className="text-lg text-fire-300">Riders</h2>
          <ul className="mt-3 space-y-2 text-sm">
            <li>
              <Link to="/register" className="text-ash underline-offset-4 hover:text-bone hover:underline">
                Register
              </Link>
            </li>
            <li>
              <Link to="/login" className="text-ash underline-offset-4 hover:text-bone hover:underline">
                Log in
              </Link>
            </li>
            <li>
              <Link to="/forgot-password" className="text-ash underline-offset-4 hover:text-bone hover:underline">
                Forgot password
              </Link>
            </li>
          </ul>
        </nav>
      </div>
      <p className="border-t border-ink-800 px-4 py-4 text-center text-xs text-smoke">
        © 2025 {EVENT.name}. Ride hard, ride safe, ride together.
      </p>
    </footer>
  );
}
