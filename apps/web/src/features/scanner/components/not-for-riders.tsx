// What a rider (or any role without `qr_scan`) sees on /scan: who the page is for and where
// their own things are, never a blank screen.
import { ROLE_LABELS } from '@rally/shared/catalog/accounts';
import { ScanLine } from 'lucide-react';
import { Link } from 'react-router';
import { buttonStyles } from '../../../components/ui/button-styles';
import type { User } from '../../../lib/auth';

export function NotForRiders({ user }: { user: User }) {
  const role = (ROLE_LABELS as Record<string, string>)[user.role] ?? user.role;
  return (
    <div className="mx-auto max-w-lg rounded-xl border-2 border-fire-600 bg-ink-900 p-6 text-center sm:p-8">
      <ScanLine className="mx-auto size-16 text-fire-500" aria-hidden="true" />
      <h1 className="mt-4 font-display text-4xl tracking-wider uppercase">For marshals only</h1>
      <p className="mt-4 text-xl text-bone">
        This scanner is for the marshals and staff who record riders at stations on event day.
      </p>
      <p className="mt-2 text-lg text-ash">{`You are signed in as ${user.firstName} (${role}).`}</p>
      <p className="mt-2 text-lg text-ash">
        Riders: your QR code and rider pass are on My Profile. Show it to the marshal at each station.
      </p>
      <div className="mt-6 flex flex-col gap-3 sm:flex-row sm:justify-center">
        <Link to="/me" className={buttonStyles('primary', 'lg')}>
          My rider pass
        </Link>
        <Link to="/" className={buttonStyles('secondary', 'lg')}>
          Home
        </Link>
      </div>
    </div>
  );
}
