// Erasure on request (DESIGN.md §12): the rider asks to have the account erased, with an
// optional note, and staff decide; while pending it can be withdrawn, and a refusal is shown
// with its reason (the rider may ask again). What goes and what stays, by law or purpose, is
// said here as users/personal-data.ts applies it.
import { isRiderRole } from '@rally/shared/catalog/accounts';
import { ERASURE_NOTE_MAX, type MyErasureRequest } from '@rally/shared/contracts/erasure';
import { useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import { Clock, UserX } from 'lucide-react';
import { useId, useState } from 'react';
import { buttonStyles } from '../../../components/ui/button-styles';
import { Spinner } from '../../../components/ui/spinner';
import { ApiError } from '../../../lib/api-client';
import { useAuth } from '../../../lib/auth';
import { formatDate } from '../../../lib/format';
import { toast } from '../../../lib/toast';
import { askErasure, erasureKey, myErasureQuery, withdrawErasure } from './erasure-api';
import { ErasureConfirmDialog } from './erasure-confirm-dialog';
import { ErasureWhatStays } from './erasure-what-stays';

const failure = (error: unknown, fallback: string) =>
  error instanceof ApiError && error.message ? error.message : fallback;

export function ErasureCard() {
  const { user } = useAuth();
  const query = useQuery(myErasureQuery());
  const headingId = useId();
  const staffAccount = user ? !isRiderRole(user.role) : false;

  return (
    <section aria-labelledby={headingId} className="space-y-4" data-testid="erasure-card">
      <div>
        <h2 id={headingId} className="flex items-center gap-2 text-2xl text-fire-300">
          <UserX className="size-7 text-fire-400" aria-hidden="true" />
          Erase My Account
        </h2>
        <p className="mt-1 text-ash">
          Ask us to erase your account and what it holds. The organisers decide within 30 working days and tell you
          here.
        </p>
      </div>
      <ErasureWhatStays />
      {staffAccount ? (
        <p className="rounded-md border border-ink-700 bg-ink-850 p-3 text-ash">
          Staff accounts are removed by an administrator: ask one.
        </p>
      ) : query.isPending ? (
        <Spinner label="Loading your request..." />
      ) : query.isError ? (
        <div role="alert" className="flex flex-wrap items-center gap-3 text-ember-400">
          Could not load your request.
          <button type="button" onClick={() => query.refetch()} className={buttonStyles('ghost')}>
            Retry
          </button>
        </div>
      ) : query.data?.status === 'pending' ? (
        <PendingRequest request={query.data} />
      ) : (
        <>
          {query.data?.status === 'refused' && <RefusedRequest request={query.data} />}
          <AskForm again={query.data?.status === 'refused'} />
        </>
      )}
    </section>
  );
}

function PendingRequest({ request }: { request: MyErasureRequest }) {
  const queryClient = useQueryClient();
  const withdraw = useMutation({
    mutationFn: withdrawErasure,
    onSuccess: () => {
      queryClient.setQueryData(erasureKey, null);
      void queryClient.invalidateQueries({ queryKey: erasureKey });
      toast.success('Your request was withdrawn');
    },
    onError: (error) => toast.error(failure(error, 'Could not withdraw your request')),
  });
  return (
    <div className="space-y-3 rounded-md border-2 border-gold-400 bg-ink-850 p-4" data-testid="erasure-pending">
      <p className="flex items-start gap-2 font-bold text-bone">
        <Clock className="mt-0.5 size-5 shrink-0 text-gold-300" aria-hidden="true" />
        You asked on {formatDate(request.requestedAt)}. The organisers will decide within 30 working days.
      </p>
      {request.note && (
        <p className="wrap-anywhere text-sm text-ash">
          Your note: <span className="text-bone">“{request.note}”</span>
        </p>
      )}
      <p className="text-sm text-ash">Until then your account works as before. Changed your mind?</p>
      <button
        type="button"
        onClick={() => withdraw.mutate()}
        disabled={withdraw.isPending}
        className={buttonStyles('secondary', 'md', 'w-full sm:w-auto')}
      >
        {withdraw.isPending ? 'Withdrawing...' : 'Withdraw my request'}
      </button>
    </div>
  );
}

function RefusedRequest({ request }: { request: MyErasureRequest }) {
  return (
    <div role="status" className="space-y-1 rounded-md border-2 border-ember-500 bg-ink-850 p-4">
      <p className="font-bold text-bone">
        Your request of {formatDate(request.requestedAt)} was refused
        {request.decidedAt ? ` on ${formatDate(request.decidedAt)}` : ''}.
      </p>
      {request.reason && (
        <p className="wrap-anywhere text-ash">
          Reason: <span className="text-bone">{request.reason}</span>
        </p>
      )}
      <p className="text-sm text-ash">You may ask again below.</p>
    </div>
  );
}

function AskForm({ again }: { again: boolean }) {
  const queryClient = useQueryClient();
  const [note, setNote] = useState('');
  const [confirming, setConfirming] = useState(false);
  const noteId = useId();
  const ask = useMutation({
    mutationFn: () => askErasure(note),
    onSuccess: (request) => {
      setConfirming(false);
      setNote('');
      queryClient.setQueryData(erasureKey, request);
      toast.success('Your request was sent');
    },
    onError: (error) => {
      setConfirming(false);
      toast.error(failure(error, 'Could not send your request'));
      void queryClient.invalidateQueries({ queryKey: erasureKey });
    },
  });
  return (
    <div className="space-y-3">
      <div>
        <label htmlFor={noteId} className="mb-1.5 block text-sm font-bold tracking-wide text-ash uppercase">
          A note for the organisers (optional)
        </label>
        <textarea
          id={noteId}
          value={note}
          rows={3}
          maxLength={ERASURE_NOTE_MAX}
          onChange={(e) => setNote(e.target.value)}
          placeholder="e.g. I no longer ride and want my details gone"
          className="block w-full rounded-md border-2 border-ink-600 bg-ink-900 px-3 py-2 text-bone placeholder:text-smoke focus:border-fire-500 focus:ring-2 focus:ring-fire-500/40 focus:outline-none"
        />
      </div>
      <button
        type="button"
        onClick={() => setConfirming(true)}
        className={buttonStyles('danger', 'md', 'w-full sm:w-auto')}
        data-testid="erasure-ask"
      >
        {again ? 'Ask again to erase my account' : 'Erase my account'}
      </button>
      <ErasureConfirmDialog
        open={confirming}
        busy={ask.isPending}
        onClose={() => setConfirming(false)}
        onConfirm={() => ask.mutate()}
      />
    </div>
  );
}
