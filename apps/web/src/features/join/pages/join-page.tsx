// "Join <edition>" (DESIGN.md §9): a rider whose last entry became history at the rollover
// enters the current edition, then goes through the usual verification (/verify).
import { useQuery } from '@tanstack/react-query';
import { CloudOff } from 'lucide-react';
import { useEffect } from 'react';
import { Navigate } from 'react-router';
import { ErrorScreen } from '../../../components/layout/error-screen';
import { SiteFooter } from '../../../components/layout/site-footer';
import { SiteHeader } from '../../../components/layout/site-header';
import { buttonStyles } from '../../../components/ui/button-styles';
import { PageMeta } from '../../../components/ui/page-meta';
import { FullScreenSpinner } from '../../../components/ui/spinner';
import { type User, useAuth } from '../../../lib/auth';
import { destinationFor } from '../../auth/lib/destination';
import { RegistrationWindowNotice } from '../../registration/components/registration-window-notice';
import { nextEntryQuery } from '../api/join-api';
import { EntryForm } from '../components/entry-form';

export default function JoinPage() {
  const { user } = useAuth();
  // The route's guard lets only a signed-in account through.
  if (!user) return <Navigate to="/login" replace />;
  // Entered (or never a rider): the usual place for them.
  if (user.verificationStatus !== 'not_entered') return <Navigate to={destinationFor(user)} replace />;
  return <Join user={user} />;
}

function Join({ user }: { user: User }) {
  const { refreshUser } = useAuth();
  const next = useQuery(nextEntryQuery(user.id));
  const entered = next.data?.entered === true;

  // Entered from another tab or phone: once the record says so, the page above moves on.
  useEffect(() => {
    if (entered) void refreshUser().catch(() => undefined);
  }, [entered, refreshUser]);

  if (next.isPending || entered) return <FullScreenSpinner label="Loading your entry..." />;
  if (next.isError) {
    return (
      <ErrorScreen
        title="Entry Unavailable"
        message="We could not load your entry. Check your connection and try again."
        alert
        icon={<CloudOff className="mx-auto size-14 text-ember-400" aria-hidden="true" />}
        header={<SiteHeader />}
        actions={
          <button type="button" onClick={() => void next.refetch()} className={buttonStyles('primary')}>
            Try again
          </button>
        }
      />
    );
  }

  const { edition, prefill } = next.data;
  return (
    <div className="min-h-dvh bg-ink-950">
      <PageMeta
        title={`Join ${edition.name}`}
        path="/join"
        description={`Enter ${edition.name} as a returning rider: your number, sizes and a new receipt.`}
      />
      <SiteHeader />
      <main id="main" className="mx-auto max-w-4xl px-3 py-8 sm:px-4 sm:py-12">
        <div className="mb-8 text-center">
          <p className="font-display text-lg tracking-[0.3em] text-fire-400">Welcome back, warrior</p>
          <h1 className="mt-1 text-4xl wrap-anywhere sm:text-6xl" data-testid="join-heading">
            Join <span className="fire-text">{edition.name}</span>
          </h1>
          <p className="mx-auto mt-3 max-w-xl text-ash">
            {prefill
              ? `Your entry from ${prefill.fromEdition} is filled in. Check it, pay and upload this year's receipt.`
              : 'Fill in your entry, pay and upload your receipt.'}{' '}
            Fields marked <span className="font-bold text-fire-400">*</span> are required.
          </p>
        </div>
        <RegistrationWindowNotice />
        <EntryForm next={next.data} user={user} />
      </main>
      <SiteFooter />
    </div>
  );
}
