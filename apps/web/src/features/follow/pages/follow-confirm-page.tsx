// /follow/confirm?token=...: the link of the follow confirmation email. Opening it confirms
// (confirming twice is fine), then says whom the visitor now follows.
import { BellRing, LoaderCircle, TriangleAlert } from 'lucide-react';
import { useEffect, useState } from 'react';
import { Link, useSearchParams } from 'react-router';
import { AuthLayout } from '../../../components/layout/auth-layout';
import { buttonStyles } from '../../../components/ui/button-styles';
import { PageMeta } from '../../../components/ui/page-meta';
import { ApiError } from '../../../lib/api-client';
import { confirmFollow } from '../api/follow-api';

type Phase = { kind: 'confirming' } | { kind: 'done'; riderName: string } | { kind: 'failed'; message: string };

const NO_TOKEN = 'This link is incomplete. Open the link in the confirmation email again, or copy it whole.';

export default function FollowConfirmPage() {
  const [params] = useSearchParams();
  const token = params.get('token')?.trim() ?? '';
  const [phase, setPhase] = useState<Phase>(token ? { kind: 'confirming' } : { kind: 'failed', message: NO_TOKEN });

  useEffect(() => {
    if (!token) return;
    let cancelled = false;
    confirmFollow(token)
      .then((answer) => {
        if (!cancelled) setPhase({ kind: 'done', riderName: answer.riderName });
      })
      .catch((error: unknown) => {
        if (cancelled) return;
        const message =
          error instanceof ApiError
            ? error.message
            : 'Could not reach the rally server. Check your connection and open the link again.';
        setPhase({ kind: 'failed', message });
      });
    return () => {
      cancelled = true;
    };
  }, [token]);

  return (
    <AuthLayout>
      <PageMeta title="Follow a rider" path="/follow/confirm" description="Confirm following a rider of the rally." />
      {/* The token is in this page's URL: never hand it to other sites through Referer. */}
      <meta name="referrer" content="no-referrer" />
      {phase.kind === 'confirming' && (
        <div role="status" className="flex flex-col items-center gap-3 py-10 text-center">
          <LoaderCircle className="size-12 animate-spin text-fire-500" aria-hidden="true" />
          <p className="font-display text-2xl">Confirming...</p>
        </div>
      )}
      {phase.kind === 'done' && (
        <div role="status" className="py-4 text-center" data-testid="follow-confirmed">
          <BellRing className="mx-auto size-14 text-fire-400" aria-hidden="true" />
          <h1 className="mt-3 text-4xl wrap-anywhere">You are now following {phase.riderName}.</h1>
          <p className="mt-3 text-ash">
            You will get an email when they pass a checkpoint, finish or leave the rally. Every email has a link to
            stop.
          </p>
          <Link to="/" className={buttonStyles('primary', 'md', 'mt-6 w-full')}>
            Back to the rally
          </Link>
        </div>
      )}
      {phase.kind === 'failed' && (
        <div role="alert" className="py-4 text-center" data-testid="follow-confirm-failed">
          <TriangleAlert className="mx-auto size-14 text-ember-400" aria-hidden="true" />
          <h1 className="mt-3 text-4xl text-ember-400">Could not confirm</h1>
          <p className="mt-3 text-ash">{phase.message}</p>
          <Link to="/" className={buttonStyles('primary', 'md', 'mt-6 w-full')}>
            Back to the rally
          </Link>
        </div>
      )}
    </AuthLayout>
  );
}
