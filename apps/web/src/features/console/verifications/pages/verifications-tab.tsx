// Verification Center: the pending queue with receipts,
// approve/reject with optional notes, the stats and the recent history. The queue is
// worked from the keyboard at the desk (components/receipt-desk.tsx): a selected rider,
// their receipt beside what it must match, and confirmations that take Enter.
import type { VerificationAction } from '@rally/shared/catalog/accounts';
import { PENDING_VERIFICATIONS_PAGE_SIZE, VERIFICATION_HISTORY_PAGE_SIZE } from '@rally/shared/catalog/console';
import type { PendingVerification } from '@rally/shared/contracts/verifications';
import { keepPreviousData, useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import { CheckCircle2, Clock, History, Keyboard, ListChecks, ShieldCheck, XCircle } from 'lucide-react';
import { useEffect, useMemo, useRef, useState } from 'react';
import { buttonStyles } from '../../../../components/ui/button-styles';
import { useEventStream } from '../../../../lib/event-stream';
import { toast } from '../../../../lib/toast';
import { useGatheredInvalidate } from '../../../../lib/use-gathered-invalidate';
import { consoleKeys } from '../../api/console-keys';
import { receiptQuery } from '../../api/file-api';
import { fetchHistory, fetchPending, fetchVerificationStats, verify } from '../../api/verifications-api';
import { EmptyPanel, QueryStates } from '../../components/list-states';
import { PaginationBar } from '../../components/pagination-bar';
import { SearchField } from '../../components/search-field';
import { StatCard, StatGrid } from '../../components/stat-card';
import { TabHeading } from '../../components/tab-heading';
import { useDebounced } from '../../components/use-debounced';
import { usePage } from '../../components/use-page';
import type { Confirming } from '../components/desk-footer';
import { HistoryList } from '../components/history-list';
import { PendingTable } from '../components/pending-table';
import { ReceiptDesk } from '../components/receipt-desk';
import { searchTerm } from '../components/receipt-display';
import { flagsOf } from '../components/receipt-flags';
import { zoomStep } from '../components/receipt-viewer';
import { ShortcutsOverlay } from '../components/shortcuts-overlay';
import { StatementsPanel } from '../components/statements-panel';
import { useDeskKeys } from '../components/use-desk-keys';

const NONE: ReadonlySet<string> = new Set();

export default function VerificationsTab() {
  const queryClient = useQueryClient();
  const [searchText, setSearchText] = useState('');
  // A reference typed as printed ("1001 543 610110") is searched by its digits.
  const search = useDebounced(searchTerm(searchText));
  const { page, setPage, resetting } = usePage();
  const [historyPage, setHistoryPage] = useState(1);
  // The desk: which rider is selected, whether their receipt is open, and its view.
  const [selected, setSelected] = useState(0);
  const [deskOpen, setDeskOpen] = useState(false);
  const [confirming, setConfirming] = useState<Confirming>(null);
  const [zoom, setZoom] = useState(1);
  const [rotation, setRotation] = useState(0);
  const [shortcutsOpen, setShortcutsOpen] = useState(false);
  // Riders decided here leave the queue at once, before the list is fetched again, so the
  // next rider is under the cursor straight away.
  // Keyed by the list's fetch time: a fresh page of the queue replaces the removals.
  const [decidedAt, setDecided] = useState<{ at: number; codes: ReadonlySet<string> }>(() => ({
    at: 0,
    codes: new Set(),
  }));

  const stats = useQuery({ queryKey: consoleKeys.verificationStats, queryFn: fetchVerificationStats });
  const pendingParams = { page, limit: PENDING_VERIFICATIONS_PAGE_SIZE, search };
  const pending = useQuery({
    queryKey: consoleKeys.pending(pendingParams),
    queryFn: () => fetchPending(pendingParams),
    placeholderData: keepPreviousData,
  });
  // Receipts are processed and read in the background: the server says so on the console's
  // event stream (`receipt`, pushed, not polled) and the queue is read again, so the image
  // and its reading appear by themselves. On (re)connection events may have been missed.
  const rereadQueue = useGatheredInvalidate(consoleKeys.verifications);
  useEventStream((event) => {
    if (event.type === 'open' || event.type === 'receipt') rereadQueue();
  });
  const history = useQuery({
    queryKey: consoleKeys.history(historyPage),
    queryFn: () => fetchHistory(historyPage, VERIFICATION_HISTORY_PAGE_SIZE),
    placeholderData: keepPreviousData,
  });

  const decision = useMutation({
    mutationFn: (v: { entry: PendingVerification; action: VerificationAction; notes: string }) =>
      verify(v.entry.verification_code, v.action, v.notes),
    onSuccess: (_data, v) => {
      const at = pending.dataUpdatedAt;
      setDecided((now) => ({ at, codes: new Set(now.at === at ? now.codes : []).add(v.entry.verification_code) }));
      setConfirming(null);
      toast.success(v.action === 'verified' ? 'User approved successfully!' : 'User rejected successfully!');
    },
    onError: (error, v) => {
      const verb = v.action === 'verified' ? 'approve' : 'reject';
      toast.error(
        error.message ? `Failed to ${verb} user: ${error.message}` : `Failed to ${verb} user. Please try again.`,
      );
    },
    onSettled: () => {
      void queryClient.invalidateQueries({ queryKey: consoleKeys.verifications });
      void queryClient.invalidateQueries({ queryKey: consoleKeys.users });
      void queryClient.invalidateQueries({ queryKey: consoleKeys.masterlist });
      void queryClient.invalidateQueries({ queryKey: consoleKeys.dashboardStats });
    },
  });

  const decided = decidedAt.at === pending.dataUpdatedAt ? decidedAt.codes : NONE;
  const entries = useMemo(
    () => (pending.data?.data ?? []).filter((e) => !decided.has(e.verification_code)),
    [pending.data, decided],
  );
  const totalPages = pending.data?.pagination.total_pages ?? 1;
  const index = Math.min(selected, Math.max(entries.length - 1, 0));
  const current = entries[index] ?? null;

  // The queue emptied under an open desk: nothing left to show.
  useEffect(() => {
    if (deskOpen && !current && !pending.isFetching) setDeskOpen(false);
  }, [deskOpen, current, pending.isFetching]);
  // The next receipt loads while the current one is read.
  const following = entries[index + 1];
  useEffect(() => {
    const ready = (following?.receipt_check?.fileStatus ?? 'ready') === 'ready';
    if (deskOpen && following?.has_payment_receipt && ready)
      void queryClient.prefetchQuery(receiptQuery(following.user_id));
  }, [deskOpen, following, queryClient]);
  // The selected row stays in view as the keys move it; not on opening the tab, where the
  // first row is selected by default and a phone would scroll past the heading to it.
  const movedByUser = useRef(false);
  useEffect(() => {
    if (!current || deskOpen || !movedByUser.current) return;
    document
      .querySelector(`tr[data-verification-code="${current.verification_code}"]`)
      ?.scrollIntoView({ block: 'nearest' });
  }, [current, deskOpen]);

  // The notes typed on a table row whose Approve went through the desk's confirmation.
  const rowNotes = useRef('');
  const select = (i: number) => {
    movedByUser.current = true;
    rowNotes.current = '';
    setSelected(i);
    setConfirming(null);
    setZoom(1);
    setRotation(0);
  };
  const move = (step: 1 | -1) => {
    const target = index + step;
    if (target >= 0 && target < entries.length) return select(target);
    // Past either end of the page: carry on with the neighbouring page of the queue.
    if (step === 1 && page < totalPages) {
      setPage(page + 1);
      select(0);
    } else if (step === -1 && page > 1) {
      setPage(page - 1);
      select(PENDING_VERIFICATIONS_PAGE_SIZE - 1);
    }
  };
  const openDesk = (e?: PendingVerification, then: Confirming = null) => {
    if (e) {
      const i = entries.indexOf(e);
      if (i >= 0 && i !== index) select(i);
    }
    if (!e && !current) return;
    setDeskOpen(true);
    setConfirming(then);
  };
  const zoomBy = (direction: 1 | -1) => setZoom((z) => zoomStep(z, direction));
  const rotate = () => setRotation((r) => (r + 90) % 360);
  const closeDesk = () => {
    setDeskOpen(false);
    setConfirming(null);
  };

  useDeskKeys(
    {
      next: () => move(1),
      previous: () => move(-1),
      open: () => openDesk(),
      approve: () => openDesk(undefined, 'verified'),
      reject: () => openDesk(undefined, 'rejected'),
      zoom: zoomBy,
      rotate,
      resetView: () => {
        setZoom(1);
        setRotation(0);
      },
      shortcuts: () => setShortcutsOpen(true),
    },
    { enabled: !shortcutsOpen && !decision.isPending, deskOpen, confirming: confirming !== null },
  );

  return (
    <section>
      <TabHeading title="Verification Center" icon={ShieldCheck} />
      <StatGrid>
        <StatCard label="Pending" value={stats.data?.pending} icon={Clock} tone="text-gold-400" />
        <StatCard label="Approved" value={stats.data?.approved} icon={CheckCircle2} tone="text-jade-400" />
        <StatCard label="Rejected" value={stats.data?.rejected} icon={XCircle} tone="text-ember-400" />
        <StatCard label="Total" value={stats.data?.total} icon={ListChecks} />
      </StatGrid>

      <div className="mt-6">
        <div className="mb-3 flex flex-wrap items-center justify-between gap-3">
          <div className="flex items-center gap-2">
            <h3 className="text-xl">Pending Verifications</h3>
            <button
              type="button"
              onClick={() => setShortcutsOpen(true)}
              className={buttonStyles('ghost', 'md', 'min-h-10 px-2 text-sm')}
              aria-keyshortcuts="?"
            >
              <Keyboard className="size-4" aria-hidden="true" />
              Shortcuts <kbd className="rounded bg-ink-800 px-1.5 font-mono text-xs">?</kbd>
            </button>
          </div>
          <SearchField
            className="w-full sm:w-80"
            label="Search by code or name"
            value={searchText}
            onChange={resetting(setSearchText)}
          />
        </div>
        <QueryStates
          query={pending}
          loadingLabel="Loading verifications..."
          errorMessage="Failed to load verifications"
        >
          {(data) =>
            entries.length === 0 ? (
              <EmptyPanel message="No pending verifications found." />
            ) : (
              <>
                <PendingTable
                  entries={entries}
                  selectedCode={current?.verification_code ?? null}
                  busyCode={decision.isPending ? (decision.variables?.entry.verification_code ?? null) : null}
                  onDecide={(entry, action, notes) => {
                    // A rejection always asks for the reason the rider will be shown; an
                    // approval of a flagged receipt shows the flags and asks once.
                    if (action === 'rejected') return openDesk(entry, 'rejected');
                    if (flagsOf(entry.receipt_check).length === 0) return decision.mutate({ entry, action, notes });
                    openDesk(entry, 'verified');
                    rowNotes.current = notes;
                  }}
                  onReceipt={(entry) => openDesk(entry)}
                />
                <PaginationBar
                  page={data.pagination.page}
                  totalPages={data.pagination.total_pages}
                  onPage={setPage}
                  label="Pending verification pages"
                />
              </>
            )
          }
        </QueryStates>
      </div>

      <StatementsPanel />

      <div className="mt-8">
        <h3 className="mb-3 flex items-center gap-2 text-xl">
          <History className="size-5 text-fire-400" aria-hidden="true" />
          Recent Verification History
        </h3>
        <QueryStates
          query={history}
          loadingLabel="Loading history..."
          errorMessage="Failed to load verification history"
        >
          {(data) =>
            data.data.length === 0 ? (
              <EmptyPanel message="No verification history found" />
            ) : (
              <>
                <HistoryList entries={data.data} />
                <PaginationBar
                  page={data.pagination.page}
                  totalPages={data.pagination.total_pages}
                  onPage={setHistoryPage}
                  label="Verification history pages"
                />
              </>
            )
          }
        </QueryStates>
      </div>
      <ReceiptDesk
        entry={deskOpen ? current : null}
        position={index + 1 + (page - 1) * PENDING_VERIFICATIONS_PAGE_SIZE}
        total={Math.max((pending.data?.pagination.total ?? 0) - decided.size, entries.length)}
        confirming={confirming}
        busy={decision.isPending}
        zoom={zoom}
        rotation={rotation}
        onZoom={zoomBy}
        onRotate={rotate}
        onConfirming={setConfirming}
        onDecide={(action, notes) =>
          current &&
          decision.mutate({ entry: current, action, notes: action === 'verified' ? notes || rowNotes.current : notes })
        }
        onPrevious={() => move(-1)}
        onNext={() => move(1)}
        onShortcuts={() => setShortcutsOpen(true)}
        onClose={closeDesk}
      />
      <ShortcutsOverlay open={shortcutsOpen} onClose={() => setShortcutsOpen(false)} />
    </section>
  );
}
