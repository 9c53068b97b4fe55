// Participant Masterlist: every rider holding a rider
// number, verified first, with the five counters.
import { type AdminUser, MASTERLIST_PAGE_SIZE } from '@rally/shared/contracts/users';
import { can } from '@rally/shared/permissions';
import { keepPreviousData, useMutation, useQuery } from '@tanstack/react-query';
import { BadgeCheck, ClipboardList, Clock, Hash, Trophy, Users } from 'lucide-react';
import { useState } from 'react';
import { useAuth } from '../../../../lib/auth';
import { toast } from '../../../../lib/toast';
import { consoleKeys } from '../../api/console-keys';
import { fetchMasterlist } from '../../api/users-api';
import { callNameOf, fullNameOf } from '../../components/display';
import { EmptyPanel, QueryStates, ShowingCount } from '../../components/list-states';
import { openProfilePicture } from '../../components/open-profile-picture';
import { PaginationBar } from '../../components/pagination-bar';
import { usePastEdition } from '../../components/past-edition-context';
import { ReceiptModal, type ReceiptSubject } from '../../components/receipt-modal';
import { SearchField } from '../../components/search-field';
import { StatCard, StatGrid } from '../../components/stat-card';
import { TabHeading } from '../../components/tab-heading';
import { useDebounced } from '../../components/use-debounced';
import { usePage } from '../../components/use-page';
import { WarriorDetailsModal } from '../../components/warrior-details-modal';
import { generateResetLink } from '../../password-resets/api/password-resets-api';
import { MasterlistTable } from '../components/masterlist-table';
import { type GeneratedReset, ResetLinkModal } from '../components/reset-link-modal';

export default function MasterlistTab() {
  const { user: viewer } = useAuth();
  const [searchText, setSearchText] = useState('');
  const search = useDebounced(searchText.trim());
  const { page, setPage, resetting } = usePage();
  const [viewing, setViewing] = useState<AdminUser | null>(null);
  const [receipt, setReceipt] = useState<ReceiptSubject | null>(null);
  const [reset, setReset] = useState<GeneratedReset | null>(null);
  // A past edition is read-only: its screens change nothing, not even a password.
  const past = usePastEdition() !== null;
  const canReset = can(viewer?.role, 'manage_password_resets') && !past;

  const params = { page, search, limit: MASTERLIST_PAGE_SIZE };
  const query = useQuery({
    queryKey: consoleKeys.masterlistPage(params),
    queryFn: () => fetchMasterlist(params),
    placeholderData: keepPreviousData,
  });

  const resetMutation = useMutation({
    mutationFn: (u: AdminUser) => generateResetLink(u.id),
    onSuccess: (result, u) => setReset({ ...result, fullName: fullNameOf(u), email: u.email }),
    onError: (error) =>
      toast.error(
        error.message
          ? `Failed to generate password reset link: ${error.message}`
          : 'Failed to generate password reset link',
      ),
  });

  const stats = query.data?.stats;
  return (
    <section>
      <TabHeading title="Participant Masterlist" icon={ClipboardList} />
      <StatGrid className="lg:grid-cols-5">
        <StatCard label="Total Participants" value={stats?.total_participants} icon={Users} />
        <StatCard label="Verified" value={stats?.verified} icon={BadgeCheck} tone="text-jade-400" />
        <StatCard label="Pending" value={stats?.pending} icon={Clock} tone="text-gold-400" />
        <StatCard label="With Rider #" value={stats?.with_rider_number} icon={Hash} tone="text-sky-300" />
        <StatCard
          label="Confirmed Participants"
          value={stats?.confirmed_participants}
          icon={Trophy}
          tone="text-fire-300"
        />
      </StatGrid>

      <SearchField
        className="mt-5 max-w-xl"
        label="Search participants by name, kit name, email or rider number"
        placeholder="Name, kit name, email or rider #"
        value={searchText}
        onChange={resetting(setSearchText)}
      />

      <div className="mt-4">
        <QueryStates query={query} loadingLabel="Loading participants..." errorMessage="Failed to load participants">
          {(data) =>
            data.participants.length === 0 ? (
              <EmptyPanel message="No participants found matching your search." />
            ) : (
              <>
                <ShowingCount shown={data.participants.length} total={data.pagination.total} noun="participants" />
                <MasterlistTable
                  participants={data.participants}
                  canReset={canReset}
                  resettingId={resetMutation.isPending ? (resetMutation.variables?.id ?? null) : null}
                  onView={setViewing}
                  onReceipt={(u) =>
                    setReceipt({
                      userId: u.id,
                      firstName: u.first_name,
                      lastName: u.last_name,
                      email: u.email,
                      paymentMethod: u.payment_method,
                      paymentAmount: u.payment_amount,
                      hasReceipt: u.has_payment_receipt,
                    })
                  }
                  onPhoto={(u) =>
                    void openProfilePicture(u.id, callNameOf(u), {
                      info: (m) => toast(m),
                      error: (m) => toast.error(m),
                    })
                  }
                  onReset={(u) => resetMutation.mutate(u)}
                />
                <PaginationBar
                  page={data.pagination.page}
                  totalPages={data.pagination.total_pages}
                  onPage={setPage}
                  label="Masterlist pages"
                />
              </>
            )
          }
        </QueryStates>
      </div>
      <WarriorDetailsModal user={viewing} onClose={() => setViewing(null)} />
      <ReceiptModal subject={receipt} onClose={() => setReceipt(null)} />
      <ResetLinkModal reset={reset} onClose={() => setReset(null)} />
    </section>
  );
}
