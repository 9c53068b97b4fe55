// The rider's pass: the QR of the rider code beside the number, name and
// category, large enough to read at arm's length — the twin of the paper sticker for when
// the sticker is lost. It opens offline from the copy kept on the phone (pass-cache.ts),
// and lists the stations the rider has passed.
import { categoryDisplay } from '@rally/shared/catalog/registration';
import type { UserRecord } from '@rally/shared/contracts/auth';
import { useQuery } from '@tanstack/react-query';
import { CloudOff, QrCode, TriangleAlert } from 'lucide-react';
import { lazy, Suspense, useEffect } from 'react';
import { Spinner } from '../../../components/ui/spinner';
import { ApiError } from '../../../lib/api-client';
import { useAuth } from '../../../lib/auth';
import { formatRiderNumber } from '../../../lib/format';
import { useOnline } from '../../../lib/offline/use-online';
import { toast } from '../../../lib/toast';
import { FollowLink } from '../../follow/components/follow-link';
import { fullNameOf, kitNameOf } from '../../public-profile/lib/names';
import { riderCodeQuery } from '../api/my-profile-api';
import { isOfflineFailure } from '../lib/offline';
import { TrackingCard } from '../tracking/tracking-card';
import { PassagesList } from './passages-list';
import { TabMessage } from './tab-state';

const RiderQr = lazy(() => import('./rider-qr'));

function savedTime(at: number): string {
  return new Date(at).toLocaleString('en-PH', { month: 'short', day: 'numeric', hour: 'numeric', minute: '2-digit' });
}

export function RiderCodeTab({ user }: { user: UserRecord }) {
  const query = useQuery(riderCodeQuery(user.id));
  const { isOfflineSession } = useAuth();
  const online = useOnline() && !isOfflineSession;
  const missing = query.error instanceof ApiError && query.error.status === 404;
  const offline = !online || (query.isError && isOfflineFailure(query.error));
  const code = missing ? undefined : (query.data ?? user.riderCode ?? undefined);

  useEffect(() => {
    if (query.isError && !missing && !code) toast.error('Failed to load rider code');
  }, [query.isError, missing, code]);

  if (missing) {
    return (
      <TabMessage icon={<QrCode className="size-12 text-smoke" aria-hidden="true" />} title="No rider code available">
        Your rider code appears here once the organizers have verified your payment.
      </TabMessage>
    );
  }
  if (!code) {
    if (query.isPending) return <Spinner label="Loading rider code..." className="py-12" />;
    return (
      <TabMessage
        tone="error"
        icon={<TriangleAlert className="size-12 text-ember-400" aria-hidden="true" />}
        title="Failed to load rider code"
        onRetry={() => query.refetch()}
      >
        {offline ? 'You are offline and this phone has no saved pass yet. Open it once with a signal.' : undefined}
      </TabMessage>
    );
  }

  const category = categoryDisplay(user.category, { gender: user.gender });
  return (
    <div className="flex flex-col items-center gap-6">
      {offline && (
        <p
          role="status"
          data-testid="pass-offline"
          className="flex w-full max-w-3xl items-center gap-3 rounded-lg border-2 border-gold-500 bg-gold-500/10 px-4 py-3 text-gold-300"
        >
          <CloudOff className="size-6 shrink-0" aria-hidden="true" />
          <span>
            <strong className="font-bold">You are offline.</strong> This pass is the copy saved on this phone
            {query.dataUpdatedAt ? ` (${savedTime(query.dataUpdatedAt)})` : ''} and still scans.
          </span>
        </p>
      )}
      <section
        aria-label="Your rider pass"
        data-testid="rider-pass"
        className="tribal-stripes w-full max-w-3xl overflow-hidden rounded-2xl border-4 border-fire-500 bg-ink-950 shadow-[0_0_40px_rgb(249_115_22/0.3)]"
      >
        <div className="flex flex-wrap items-center justify-between gap-x-3 bg-fire-500 px-4 py-2 text-ink-950">
          <h2 className="font-display text-2xl tracking-widest whitespace-nowrap">RIDER PASS</h2>
          <span className="text-right text-xs font-bold uppercase">Mindanao Warriors Endurance Rally</span>
        </div>
        <div className="flex flex-col items-center gap-5 p-4 sm:flex-row sm:items-center sm:gap-8 sm:p-6">
          <div className="flex w-full flex-col items-center text-center sm:order-2 sm:items-start sm:text-left">
            {user.riderNumber === null ? (
              <p className="font-display text-3xl text-ash" data-testid="pass-number">
                Rider number not assigned yet
              </p>
            ) : (
              <p className="font-display leading-none text-fire-400" data-testid="pass-number">
                <span className="sr-only">Rider number </span>
                <span className="align-top text-4xl">#</span>
                <span className="text-8xl sm:text-9xl">{formatRiderNumber(user.riderNumber)}</span>
              </p>
            )}
            <p className="mt-2 font-display text-4xl wrap-anywhere text-bone sm:text-5xl" data-testid="pass-name">
              {kitNameOf(user)}
            </p>
            <p className="text-xl font-semibold text-ash">{fullNameOf(user)}</p>
            <p
              className="mt-3 inline-flex flex-wrap items-baseline gap-x-2 rounded-lg border-2 border-gold-500 bg-gold-500/10 px-3 py-1"
              data-testid="pass-category"
            >
              <span className="font-display text-3xl tracking-wider text-gold-300">{category.name}</span>
              <span className="text-lg font-bold text-gold-300">{category.distance}</span>
            </p>
          </div>
          <div className="flex shrink-0 flex-col items-center sm:order-1">
            <div className="rounded-xl bg-white p-2">
              <Suspense fallback={<div className="size-64 animate-pulse bg-ash/30" aria-hidden="true" />}>
                <RiderQr value={code} />
              </Suspense>
            </div>
            <p className="mt-2 font-mono text-lg font-bold tracking-widest text-bone" data-testid="rider-code">
              {code}
            </p>
          </div>
        </div>
        <p className="border-t border-ink-700 px-4 py-2 text-center text-sm text-ash">
          Show this at kit pick-up and checkpoints. It matches the QR sticker on your bike.
        </p>
      </section>
      {/* The pass exists once the entry is verified: so does tracking. */}
      <TrackingCard userId={user.id} />
      <FollowLink riderId={user.id} />
      <PassagesList userId={user.id} />
    </div>
  );
}
