// The follow form: an email (confirmed by the link it gets, nothing else is sent before) or,
// where the browser can, notifications in this browser. Never a location.
import { BellRing, CircleCheck, Mail } from 'lucide-react';
import { type FormEvent, useState } from 'react';
import { buttonStyles } from '../../../components/ui/button-styles';
import { Modal } from '../../../components/ui/modal';
import { TextField } from '../../../components/ui/text-field';
import { ApiError } from '../../../lib/api-client';
import { followRider } from '../api/follow-api';
import { PushUnavailable, pushSupport, subscribeThisBrowser } from '../lib/push-follow';

type State = { kind: 'idle' } | { kind: 'busy'; by: 'email' | 'push' } | { kind: 'done'; message: string };

/** A first check on the phone; the server's rule decides. */
const LOOKS_LIKE_EMAIL = /^[^\s@]+@[^\s@]+\.[^\s@]+$/;

function problemText(error: unknown): string {
  if (error instanceof PushUnavailable || error instanceof ApiError) return error.message;
  return 'Could not reach the rally server. Check your connection and try again.';
}

export default function FollowDialog({
  riderId,
  riderName,
  onClose,
}: {
  riderId: string;
  riderName: string;
  onClose: () => void;
}) {
  const [email, setEmail] = useState('');
  const [state, setState] = useState<State>({ kind: 'idle' });
  const [error, setError] = useState<string | null>(null);
  const [emailProblem, setEmailProblem] = useState<string | null>(null);
  const [canPush] = useState(() => pushSupport() === 'supported');
  const busy = state.kind === 'busy';

  const onSubmit = async (event: FormEvent) => {
    event.preventDefault();
    if (busy) return;
    const address = email.trim();
    const problem = !address
      ? 'Enter your email address.'
      : LOOKS_LIKE_EMAIL.test(address)
        ? null
        : 'Enter an email address like name@example.com.';
    setEmailProblem(problem);
    setError(null);
    if (problem) return;
    setState({ kind: 'busy', by: 'email' });
    try {
      setState({ kind: 'done', message: await followRider(riderId, { email: address }) });
    } catch (failure) {
      setError(problemText(failure));
      setState({ kind: 'idle' });
    }
  };

  const onPush = async () => {
    if (busy) return;
    setError(null);
    setEmailProblem(null);
    setState({ kind: 'busy', by: 'push' });
    try {
      const pushSubscription = await subscribeThisBrowser();
      setState({ kind: 'done', message: await followRider(riderId, { pushSubscription }) });
    } catch (failure) {
      setError(problemText(failure));
      setState({ kind: 'idle' });
    }
  };

  return (
    <Modal open onClose={onClose} dismissible={!busy} title={`Follow ${riderName}`}>
      {state.kind === 'done' ? (
        <div role="status" className="flex flex-col items-center gap-3 py-4 text-center" data-testid="follow-done">
          <CircleCheck className="size-12 text-fire-400" aria-hidden="true" />
          <p className="font-display text-2xl tracking-wide text-bone">{state.message}</p>
          <button type="button" onClick={onClose} className={buttonStyles('primary', 'md', 'mt-2 w-full sm:w-auto')}>
            Done
          </button>
        </div>
      ) : (
        <div className="space-y-5">
          <p className="text-ash">
            Get an email when <strong className="text-bone">{riderName}</strong> passes a checkpoint, finishes or leaves
            the rally. Never a location.
          </p>
          <form onSubmit={onSubmit} noValidate className="space-y-3">
            <TextField
              label="Your email"
              type="email"
              name="email"
              autoComplete="email"
              inputMode="email"
              maxLength={254}
              required
              value={email}
              onChange={(event) => setEmail(event.target.value)}
              disabled={busy}
              error={emailProblem}
            />
            <button type="submit" disabled={busy} className={buttonStyles('primary', 'md', 'w-full')}>
              <Mail className="size-5" aria-hidden="true" />
              {state.kind === 'busy' && state.by === 'email' ? 'Sending...' : 'Follow by email'}
            </button>
          </form>
          {canPush && (
            <div className="border-t border-ink-700 pt-4">
              <button
                type="button"
                onClick={onPush}
                disabled={busy}
                className={buttonStyles('secondary', 'md', 'w-full')}
              >
                <BellRing className="size-5" aria-hidden="true" />
                {state.kind === 'busy' && state.by === 'push'
                  ? 'Asking your browser...'
                  : 'Or get notifications in this browser'}
              </button>
            </div>
          )}
          {error && (
            <p role="alert" className="rounded-md border border-ember-500 bg-ember-500/10 px-3 py-2 text-ember-400">
              {error}
            </p>
          )}
        </div>
      )}
    </Modal>
  );
}
