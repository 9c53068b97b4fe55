// My Profile → Privacy: consent on record (DESIGN.md §12). The notice the rider accepted (and
// a link to read that very version), then each optional purpose as a switch of its own that
// takes effect at once, and the whole history of what was given and withdrawn, when and where.
import {
  CONSENT_PURPOSE_LABELS,
  CONSENT_PURPOSES,
  type ConsentPurpose,
  type ConsentScreen,
} from '@rally/shared/catalog/privacy';
import type { MyConsents } from '@rally/shared/contracts/privacy';
import { useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import { FileCheck2, History, TriangleAlert } from 'lucide-react';
import { useId, useState } from 'react';
import { Link } from 'react-router';
import { Spinner } from '../../../components/ui/spinner';
import { ApiError } from '../../../lib/api-client';
import { useAuth } from '../../../lib/auth';
import { formatDate } from '../../../lib/format';
import { useOnline } from '../../../lib/offline/use-online';
import { toast } from '../../../lib/toast';
import { myConsentsKey, myConsentsQuery, putConsent } from '../../privacy/api/notice-api';
import { TabMessage } from '../components/tab-state';
import { myTrackingKey } from '../tracking/tracking-api';
import { ConsentSwitch } from './consent-switch';
import { ConsentTrackingDialog } from './consent-tracking-dialog';

/** Where a consent was given, as the rider reads it. */
export const CONSENT_SCREEN_TEXT: Record<ConsentScreen, string> = {
  registration: 'at registration',
  join: 'when joining',
  tracking: 'on the tracking card',
  'sign-in': 'at sign-in',
  'my-profile': 'in My Profile',
};

function purposeTitle(purpose: ConsentPurpose | 'notice'): string {
  return purpose === 'notice' ? 'Privacy notice and terms' : CONSENT_PURPOSE_LABELS[purpose].title;
}

export function ConsentsCard() {
  const { user } = useAuth();
  if (!user) return null;
  return <ConsentsFor userId={user.id} />;
}

function ConsentsFor({ userId }: { userId: string }) {
  const query = useQuery(myConsentsQuery(userId));
  const queryClient = useQueryClient();
  const online = useOnline();
  const [askTracking, setAskTracking] = useState(false);
  const change = useMutation({
    mutationFn: ({ purpose, given, version }: { purpose: ConsentPurpose; given: boolean; version?: string }) =>
      putConsent(purpose, given, version),
    onSuccess: (answer, { purpose, given }) => {
      queryClient.setQueryData(myConsentsKey(userId), answer);
      // Tracking here and on the pass's card is one switch.
      if (purpose === 'tracking') void queryClient.invalidateQueries({ queryKey: myTrackingKey(userId) });
      setAskTracking(false);
      toast.success(`${CONSENT_PURPOSE_LABELS[purpose].title}: ${given ? 'on' : 'off'}.`);
    },
    onError: (error) => {
      toast.error(
        error instanceof ApiError ? error.message : 'Failed to reach the server. Try again when you have a signal.',
      );
    },
  });

  if (query.isPending) return <Spinner label="Loading your consents..." className="py-10" />;
  if (query.isError)
    return (
      <TabMessage
        tone="error"
        icon={<TriangleAlert className="size-12 text-ember-400" aria-hidden="true" />}
        title={online ? 'Failed to load your consents' : 'You are offline: your consents show once you have a signal'}
        onRetry={() => query.refetch()}
      />
    );
  const consents = query.data;
  const pending = change.isPending ? change.variables?.purpose : undefined;

  return (
    <section aria-labelledby="consents-heading" data-testid="consents-card" className="grid gap-5">
      <h2 id="consents-heading" className="flex items-center gap-2 text-2xl text-fire-300">
        <FileCheck2 className="size-6" aria-hidden="true" />
        Your consents
      </h2>
      <NoticeAccepted notice={consents.notice} />
      <div className="grid gap-3">
        <p className="text-sm text-ash">
          None of these is needed to ride. Each takes effect at once, and you can change your mind any time.
        </p>
        <ul className="grid gap-3">
          {CONSENT_PURPOSES.map((purpose) => {
            const state = consents.purposes.find((p) => p.purpose === purpose);
            return (
              <li key={purpose}>
                <ConsentSwitch
                  purpose={purpose}
                  given={state?.given ?? false}
                  chosen={state?.chosen ?? false}
                  at={state?.at ?? null}
                  screenText={state?.screen ? CONSENT_SCREEN_TEXT[state.screen] : null}
                  busy={pending === purpose}
                  disabled={!online || change.isPending}
                  onChange={(given) => {
                    // Tracking is turned on only once its own consent text is read.
                    if (purpose === 'tracking' && given) setAskTracking(true);
                    else change.mutate({ purpose, given });
                  }}
                />
              </li>
            );
          })}
        </ul>
        {!online && <p className="text-sm text-gold-300">You are offline: change these once you have a signal.</p>}
      </div>
      <ConsentHistory history={consents.history} />
      {askTracking && (
        <ConsentTrackingDialog
          open
          busy={pending === 'tracking'}
          onClose={() => setAskTracking(false)}
          onAgree={(version) => change.mutate({ purpose: 'tracking', given: true, version })}
        />
      )}
    </section>
  );
}

function NoticeAccepted({ notice }: { notice: MyConsents['notice'] }) {
  const { accepted, currentVersion } = notice;
  return (
    <div data-testid="notice-accepted" className="rounded-lg border border-ink-700 bg-ink-900 p-4">
      <h3 className="text-xl text-bone">Privacy notice and terms</h3>
      {accepted ? (
        <p className="mt-1 text-ash">
          You accepted <strong className="text-bone">version {accepted.version}</strong> on {formatDate(accepted.at)}{' '}
          {CONSENT_SCREEN_TEXT[accepted.screen]}.
        </p>
      ) : (
        <p className="mt-1 text-gold-300">You have not accepted the privacy notice yet.</p>
      )}
      <p className="mt-2 flex flex-wrap gap-x-4 gap-y-1">
        {accepted && (
          <Link
            to={`/privacy?version=${accepted.version}`}
            className="font-bold text-fire-300 underline underline-offset-4 hover:text-fire-400"
          >
            Read version {accepted.version}
          </Link>
        )}
        {(!accepted || accepted.version !== currentVersion) && (
          <Link to="/privacy" className="font-bold text-fire-300 underline underline-offset-4 hover:text-fire-400">
            Read the current notice (version {currentVersion})
          </Link>
        )}
      </p>
    </div>
  );
}

function ConsentHistory({ history }: { history: MyConsents['history'] }) {
  const listId = useId();
  return (
    <details className="rounded-lg border border-ink-700 bg-ink-900 p-3 text-sm" data-testid="consent-history">
      <summary className="flex min-h-11 cursor-pointer items-center gap-2 font-bold text-bone">
        <History className="size-5 text-fire-400" aria-hidden="true" />
        History ({history.length})
      </summary>
      {history.length === 0 ? (
        <p className="mt-2 text-ash">Nothing recorded yet.</p>
      ) : (
        <ol id={listId} className="mt-2 divide-y divide-ink-700">
          {history.map((record) => (
            <li key={`${record.purpose}-${record.at}-${record.given}`} className="flex flex-wrap gap-x-3 py-2 text-ash">
              <span className="font-mono text-xs text-smoke sm:text-sm">{formatDate(record.at)}</span>
              <span className="min-w-0 flex-1">
                <span className={record.given ? 'font-bold text-jade-400' : 'font-bold text-ember-400'}>
                  {record.given ? (record.purpose === 'notice' ? 'Accepted' : 'Given') : 'Withdrawn'}
                </span>{' '}
                <span className="text-bone">{purposeTitle(record.purpose)}</span>
                {record.version && record.purpose === 'notice' && ` (version ${record.version})`}{' '}
                {CONSENT_SCREEN_TEXT[record.screen]}
              </span>
            </li>
          ))}
        </ol>
      )}
    </details>
  );
}
