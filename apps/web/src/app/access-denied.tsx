// Lazy route module (see guards.tsx): the Access Denied screen, naming the required role(s)
// and the viewer's own.
import type { Role } from '@rally/shared/catalog/accounts';
import { ShieldX } from 'lucide-react';
import { Link } from 'react-router';
import { SiteHeader } from '../components/layout/site-header';
import { buttonStyles } from '../components/ui/button-styles';

export default function AccessDenied({
  required,
  userRole,
}: {
  required: { single: Role } | { list: readonly Role[] };
  userRole: string;
}) {
  return (
    <div className="flex min-h-dvh flex-col bg-ink-950">
      <title>Access Denied | Mindanao Warriors Endurance Rally</title>
      <SiteHeader />
      <main id="main" className="flex flex-1 items-center justify-center px-4 py-12">
        <div className="w-full max-w-md rounded-xl border-2 border-ember-600 bg-ink-900 p-6 text-center sm:p-8">
          <ShieldX className="mx-auto size-14 text-ember-400" aria-hidden="true" />
          <h1 className="mt-4 text-4xl text-ember-400">Access Denied</h1>
          <p className="mt-4 text-bone">You don't have permission to access this area.</p>
          <p className="mt-2 text-ash">
            {'single' in required ? `Required role: ${required.single}` : `One of: ${required.list.join(', ')}`}
          </p>
          <p className="mt-1 text-ash">{`Your role: ${userRole}`}</p>
          <div className="mt-6 flex flex-col gap-3 sm:flex-row sm:justify-center">
            <Link to="/me" className={buttonStyles('primary')}>
              My Profile
            </Link>
            <Link to="/" className={buttonStyles('secondary')}>
              Home
            </Link>
          </div>
        </div>
      </main>
    </div>
  );
}
