// Verification Center: the pending queue with receipts,
// approve/reject with optional notes, the stats and the recent history.
import {
  PENDING_VERIFICATIONS_PAGE_SIZE,
  VERIFICATION_HISTORY_PAGE_SIZE,
  type VerificationAction,
} from '@rally/shared/catalog';
import type { PendingVerification } from '@rally/shared/contracts/verifications';
import { keepPreviousData, useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import { CheckCircle2, Clock, History, ListChecks, ShieldCheck, XCircle } from 'lucide-react';
import { useState } from 'react';
import { toast } from '../../../../lib/toast';
import { consoleKeys } from '../../api/console-keys';
import { fetchHistory, fetchPending, fetchVerificationStats, verify } from '../../api/verifications-api';
import { EmptyPanel, QueryStates } from '../../components/list-states';
import { PaginationBar } from '../../components/pagination-bar';
import { ReceiptModal, type ReceiptSubject } from '../../components/receipt-modal';
import { SearchField } from '../../components/search-field';
import { StatCard, StatGrid } from '../../components/stat-card';
import { TabHeading } from '../../components/tab-heading';
import { useDebounced } from '../../components/use-debounced';
import { usePage } from '../../components/use-page';
import { HistoryList } from '../components/history-list';
import { PendingTable } from '../components/pending-table';

export default function VerificationsTab() {
  const queryClient = useQueryClient();
  const [searchText, setSearchText] = useState('');
  const search = useDebounced(searchText.trim());
  const { page, setPage, resetting } = usePage();
  const [historyPage, setHistoryPage] = useState(1);
  const [receipt, setReceipt] = useState<ReceiptSubject | null>(null);

  const stats = useQuery({ queryKey: consoleKeys.verificationStats, queryFn: fetchVerificationStats });
  const pendingParams = { page, limit: PENDING_VERIFICATIONS_PAGE_SIZE, search };
  const pending = useQuery({
    queryKey: consoleKeys.pending(pendingParams),
    queryFn: () => fetchPending(pendingParams),
    placeholderData: keepPreviousData,
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

  const openReceipt = (e: PendingVerification) =>
    setReceipt({
      userId: e.user_id,
      firstName: e.first_name,
      lastName: e.last_name,
      email: e.email,
      paymentMethod: e.payment_method,
      paymentAmount: e.payment_amount,
      hasReceipt: e.has_payment_receipt,
    });

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
          <h3 className="text-xl">Pending Verifications</h3>
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
            data.data.length === 0 ? (
              <EmptyPanel message="No pending verifications found." />
            ) : (
              <>
                <PendingTable
                  entries={data.data}
                  busyCode={decision.isPending ? (decision.variables?.entry.verification_code ?? null) : null}
                  onDecide={(entry, action, notes) => decision.mutate({ entry, action, notes })}
                  onReceipt={openReceipt}
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
      <ReceiptModal subject={receipt} onClose={() => setReceipt(null)} />
    </section>
  );
}
