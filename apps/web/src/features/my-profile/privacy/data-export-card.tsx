// My Profile → Privacy → "Your data" (DESIGN.md §12): the rider asks for a copy of everything
// held about them; it is prepared in the background (its state asked every 3 s while, and
// only while, it is being prepared), then offered as a ZIP for 7 days.
import { DATA_EXPORT_DAYS } from '@rally/shared/catalog/privacy';
import type { DataExport } from '@rally/shared/contracts/data-export';
import { useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import { Archive, LoaderCircle } from 'lucide-react';
import { useEffect, useId } from 'react';
import { buttonStyles } from '../../../components/ui/button-styles';
import { ApiError } from '../../../lib/api-client';
import { toast } from '../../../lib/toast';
import { askDataExport, dataExportQuery, dataExportsKey, myDataExportsQuery } from './data-export-api';
import { DataExportDownload } from './data-export-row';

const WHAT =
  'your account, every entry, receipts, checkpoint passages, incidents, messages sent to you, followers, consents, and who on the staff read your sensitive details';

export function DataExportCard() {
  const headingId = useId();
  const queryClient = useQueryClient();
  const list = useQuery(myDataExportsQuery());
  const ask = useMutation({
    mutationFn: askDataExport,
    onSuccess: ({ export: made }) => {
      queryClient.setQueryData<DataExport[]>(dataExportsKey, (old) => [
        made,
        ...(old ?? []).filter((e) => e.id !== made.id),
      ]);
      queryClient.setQueryData([...dataExportsKey, made.id], made);
    },
    onError: (error) =>
      toast.error(error instanceof ApiError && error.message ? error.message : 'Your request did not go through.'),
  });
  const exports = list.data ?? [];
  const latest = exports[0];
  const earlier = exports.slice(1).filter((e) => e.status === 'ready');

  return (
    <section aria-labelledby={headingId} className="w-full max-w-3xl space-y-4" data-testid="data-export-card">
      <div>
        <h3 id={headingId} className="flex items-center gap-2 text-2xl text-fire-300">
          <Archive className="size-6 shrink-0" aria-hidden="true" />
          Your data
        </h3>
        <p className="mt-1 text-ash">
          Download a copy of everything we hold about you: {WHAT}. It comes as a ZIP with a page you can read and a file
          per kind of data, kept for {DATA_EXPORT_DAYS} days.
        </p>
      </div>
      {list.isPending ? (
        <p className="text-ash">Loading…</p>
      ) : list.isError ? (
        <div role="alert" className="flex flex-wrap items-center gap-3 text-ash">
          <span>Your exports could not be loaded.</span>
          <button type="button" onClick={() => list.refetch()} className="font-bold text-fire-300 underline">
            Retry
          </button>
        </div>
      ) : latest?.status === 'pending' ? (
        <Preparing id={latest.id} />
      ) : (
        <div className="space-y-3">
          {latest?.status === 'ready' && <DataExportDownload item={latest} primary />}
          {latest?.status === 'failed' && (
            <p role="alert" className="rounded-md border border-ember-700 bg-ink-850 p-3 text-bone">
              We could not prepare your data. Please ask again; if it fails twice, tell the organisers.
            </p>
          )}
          {latest?.status !== 'ready' && (
            <button
              type="button"
              onClick={() => ask.mutate()}
              disabled={ask.isPending}
              className={buttonStyles('primary', 'md', 'w-full sm:w-auto')}
            >
              {ask.isPending ? 'Asking…' : 'Download my data'}
            </button>
          )}
        </div>
      )}
      {earlier.length > 0 && (
        <div className="space-y-2 border-t border-ink-700 pt-3">
          <h4 className="font-display text-sm uppercase tracking-wider text-smoke">Earlier copies still offered</h4>
          <ul className="space-y-3">
            {earlier.map((e) => (
              <li key={e.id}>
                <DataExportDownload item={e} primary={false} />
              </li>
            ))}
          </ul>
        </div>
      )}
    </section>
  );
}

/** Asks for the export's state every 3 s until it is ready or failed, then refreshes the list. */
function Preparing({ id }: { id: string }) {
  const queryClient = useQueryClient();
  const status = useQuery(dataExportQuery(id));
  const state = status.data?.status;
  useEffect(() => {
    if (state && state !== 'pending') void queryClient.invalidateQueries({ queryKey: dataExportsKey, exact: true });
  }, [state, queryClient]);
  return (
    <p
      role="status"
      className="flex items-center gap-2 font-display text-lg tracking-wider text-bone"
      data-testid="data-export-preparing"
    >
      <LoaderCircle className="size-6 animate-spin text-fire-500" aria-hidden="true" />
      Preparing…
      <span className="font-sans text-sm normal-case tracking-normal text-ash">This takes a moment.</span>
    </p>
  );
}
