import { useQuery } from '@tanstack/react-query';
import { QrCode, TriangleAlert } from 'lucide-react';
import { lazy, Suspense, useEffect } from 'react';
import { Spinner } from '../../../components/ui/spinner';
import { ApiError } from '../../../lib/api-client';
import { toast } from '../../../lib/toast';
import { fetchRiderCode, myKeys } from '../api/my-profile-api';
import { TabMessage } from './tab-state';

const RiderQr = lazy(() => import('./rider-qr'));

export function RiderCodeTab() {
  const query = useQuery({ queryKey: myKeys.riderCode, queryFn: fetchRiderCode, staleTime: Infinity });
  const missing = query.error instanceof ApiError && query.error.status === 404;

  useEffect(() => {
    if (query.isError && !missing) toast.error('Failed to load rider code');
  }, [query.isError, missing]);

  if (query.isPending) return <Spinner label="Loading rider code..." className="py-12" />;
  if (missing) {
    return (
      <TabMessage icon={<QrCode className="size-12 text-smoke" aria-hidden="true" />} title="No rider code available">
        Your rider code appears here once the organizers have verified your payment.
      </TabMessage>
    );
  }
  if (query.isError) {
    return (
      <TabMessage
        tone="error"
        icon={<TriangleAlert className="size-12 text-ember-400" aria-hidden="true" />}
        title="Failed to load rider code"
        onRetry={() => query.refetch()}
      />
    );
  }
  return (
    <div className="flex flex-col items-center py-4 text-center">
      <h2 className="text-3xl text-fire-300">Your Rider Code</h2>
      <p className="mt-2 max-w-sm text-ash">
        Show this at kit pick-up and checkpoints. It matches the QR sticker on your bike.
      </p>
      <div className="mt-6 rounded-xl border-4 border-fire-500 bg-white p-3 shadow-[0_0_40px_rgb(249_115_22/0.35)]">
        <Suspense fallback={<div className="size-64 animate-pulse bg-ash/30" aria-hidden="true" />}>
          <RiderQr value={query.data} />
        </Suspense>
      </div>
      <p className="mt-4 font-mono text-lg font-bold tracking-widest text-bone" data-testid="rider-code">
        {query.data}
      </p>
    </div>
  );
}
