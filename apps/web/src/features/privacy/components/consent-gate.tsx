// The sign-in re-ask (DESIGN.md §12): a rider who never accepted the privacy notice, or
// accepted an older version, is asked first thing on their screen: a slim band above it with
// the notice to read and "Accept the notice". Only a successful answer saying so shows it:
// offline, or when the question fails, nothing shows. It does not cover the screen or block
// it: a rider at a checkpoint must still reach their pass and SOS whatever the notice's
// state; the band stays on every screen until they accept. Riders only: the notice is what
// the rally tells its riders, and the console's staff are not asked it. Mounted beside the
// guarded screen (app/guards.tsx), so the screen never waits for this code or this question.
import { isRiderRole } from '@rally/shared/catalog/accounts';
import { useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import { ChevronDown, ShieldCheck } from 'lucide-react';
import { useId, useState } from 'react';
import { buttonStyles } from '../../../components/ui/button-styles';
import { Spinner } from '../../../components/ui/spinner';
import { ApiError } from '../../../lib/api-client';
import { useAuth } from '../../../lib/auth';
import { formatDate } from '../../../lib/format';
import { toast } from '../../../lib/toast';
import {
  acceptNotice,
  CONSENT_CHANGED_MESSAGE,
  isConsentRequired,
  myConsentsKey,
  myConsentsQuery,
  noticeKeys,
  noticeQuery,
} from '../api/notice-api';
import { NoticeTexts } from './notice-texts';

export default function ConsentGate() {
  const { user } = useAuth();
  if (!user || !isRiderRole(user.role)) return null;
  return <GateFor userId={user.id} />;
}

function GateFor({ userId }: { userId: string }) {
  const consents = useQuery({ ...myConsentsQuery(userId), retry: false, refetchOnWindowFocus: true });
  if (!consents.data?.notice.needed) return null;
  return (
    <ConsentBand
      userId={userId}
      currentVersion={consents.data.notice.currentVersion}
      accepted={consents.data.notice.accepted}
    />
  );
}

// Side by side where they fit (360 px and up), one under the other on a 320 px phone.
const small = 'min-h-10 flex-auto whitespace-nowrap px-3 py-1.5 text-sm sm:flex-none';

function ConsentBand({
  userId,
  currentVersion,
  accepted,
}: {
  userId: string;
  currentVersion: number;
  accepted: { version: number; at: string } | null;
}) {
  const titleId = useId();
  const problemId = useId();
  const textId = useId();
  const queryClient = useQueryClient();
  const [reading, setReading] = useState(false);
  const notice = useQuery(noticeQuery(null));

  const agree = useMutation({
    mutationFn: (version: number) => acceptNotice(version),
    // The answer is the consents as they are now: the band goes on the server's word.
    onSuccess: (answer) => {
      queryClient.setQueryData(myConsentsKey(userId), answer);
      toast.success('Thank you, warrior. Ride on!');
    },
    onError: (error) => {
      // Published again while the rider read: show the newest text and ask once more.
      if (isConsentRequired(error)) {
        setReading(true);
        void queryClient.invalidateQueries({ queryKey: noticeKeys.all });
        void queryClient.invalidateQueries({ queryKey: myConsentsKey(userId) });
      }
    },
  });

  const shown = notice.data;
  // What the rider accepts is the text offered to them.
  const version = shown?.version ?? currentVersion;
  const problem = agree.error
    ? isConsentRequired(agree.error)
      ? CONSENT_CHANGED_MESSAGE
      : agree.error instanceof ApiError
        ? agree.error.message
        : 'Failed to reach the server. Try again when you have a signal.'
    : null;

  return (
    <section
      aria-labelledby={titleId}
      data-testid="consent-gate"
      className="relative z-30 border-b-2 border-fire-600 bg-ink-900 text-bone"
    >
      <div className="mx-auto flex max-w-5xl flex-wrap items-center gap-x-4 gap-y-2 px-3 py-2 sm:px-4">
        <p id={titleId} className="flex min-w-0 flex-1 basis-52 items-center gap-2 font-display text-lg sm:text-xl">
          <ShieldCheck className="size-5 shrink-0 text-fire-400" aria-hidden="true" />
          {accepted ? 'Our privacy notice changed' : 'Please read our privacy notice'}
        </p>
        <div className="flex w-full flex-wrap gap-2 sm:w-auto">
          <button
            type="button"
            aria-expanded={reading}
            aria-controls={textId}
            onClick={() => setReading(!reading)}
            className={buttonStyles('ghost', 'md', small)}
          >
            <ChevronDown className={`size-4 transition-transform ${reading ? 'rotate-180' : ''}`} aria-hidden="true" />
            {reading ? 'Hide the notice' : 'Read the notice'}
          </button>
          <button
            type="button"
            disabled={!shown || agree.isPending}
            aria-describedby={problem ? problemId : undefined}
            onClick={() => agree.mutate(version)}
            className={buttonStyles('primary', 'md', small)}
          >
            {agree.isPending ? 'Saving...' : 'Accept the notice'}
          </button>
        </div>
        {problem && (
          <p id={problemId} role="alert" className="basis-full font-bold text-ember-400">
            {problem}
          </p>
        )}
      </div>
      <div id={textId} hidden={!reading} className="mx-auto max-w-5xl px-3 pb-3 sm:px-4">
        <p className="text-ash">
          {accepted
            ? `You accepted version ${accepted.version} on ${formatDate(accepted.at)}. This is version ${version}.`
            : `How the rally uses your personal data, and the terms of the rally (version ${version}).`}
        </p>
        <div className="mt-3 max-h-[60dvh] overflow-y-auto rounded-lg border border-ink-700 bg-ink-950 p-3 sm:p-5">
          {shown ? (
            <NoticeTexts notice={shown} />
          ) : notice.isPending ? (
            <Spinner label="Loading the privacy notice..." className="py-8" />
          ) : (
            <p role="alert" className="font-bold text-gold-300">
              Failed to load the notice.{' '}
              <button type="button" className="underline underline-offset-2" onClick={() => void notice.refetch()}>
                Retry
              </button>{' '}
              or{' '}
              <a href="/privacy" target="_blank" rel="noreferrer" className="underline underline-offset-2">
                open it on its own page
              </a>
              .
            </p>
          )}
        </div>
      </div>
    </section>
  );
}
