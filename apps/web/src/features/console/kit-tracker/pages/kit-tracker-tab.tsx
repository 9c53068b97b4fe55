// Kit Tracker: verified riders and the hand-over of their
// three kit items, with stats that follow every toggle.
import type { KitFilter, KitParticipant, KitSortField, SortOrder } from '@rally/shared/contracts/kit-tracking';
import { keepPreviousData, useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import { Package } from 'lucide-react';
import { useState } from 'react';
import { toast } from '../../../../lib/toast';
import { PagedResults, QueryStates } from '../../components/list-states';
import { RefreshButton } from '../../components/refresh-button';
import { LabelledSearchField } from '../../components/search-field';
import { SelectField } from '../../components/select-field';
import { TabHeading } from '../../components/tab-heading';
import { useDebounced } from '../../components/use-debounced';
import { usePage } from '../../components/use-page';
import { fetchParticipants, type KitChange, kitKeys, updateKit } from '../api/kit-tracker-api';
import { KitDetailsModal } from '../components/kit-details-modal';
import { KitStatsCards } from '../components/kit-stats';
import { KIT_CHECKS, toggleConfirmText } from '../components/kit-status';
import { KitTable } from '../components/kit-table';
import { useHandOverAll } from '../components/use-hand-over-all';

const FILTERS: ReadonlyArray<readonly [KitFilter, string]> = [
  ['all', 'All Participants'],
  ['pending', 'Pending Kits'],
  ['completed', 'Completed Kits'],
];
const SORTS: ReadonlyArray<readonly [KitSortField, string]> = [
  ['verification_date', 'Verification Date'],
  ['name', 'Name'],
  ['rider_number', 'Rider Number'],
  ['payment_amount', 'Payment Amount'],
];
const ORDERS: ReadonlyArray<readonly [SortOrder, string]> = [
  ['desc', 'Newest First'],
  ['asc', 'Oldest First'],
];

export default function KitTrackerTab() {
  const queryClient = useQueryClient();
  const [searchText, setSearchText] = useState('');
  const [filter, setFilter] = useState<KitFilter>('all');
  const [sortBy, setSortBy] = useState<KitSortField>('verification_date');
  const [sortOrder, setSortOrder] = useState<SortOrder>('desc');
  const { page, setPage, resetting } = usePage();
  const [viewingId, setViewingId] = useState<string | null>(null);
  const search = useDebounced(searchText.trim());

  const params = { page, search, filter, sortBy, sortOrder };
  const query = useQuery({
    queryKey: kitKeys.list(params),
    queryFn: () => fetchParticipants(params),
    placeholderData: keepPreviousData,
  });

  // The modal follows the list, so a save made while it is open shows up in it.
  const viewing = query.data?.participants.find((p) => p.user_id === viewingId) ?? null;

  const toggle = useMutation({
    mutationFn: ({ userId, change }: { userId: string; change: KitChange }) => updateKit(userId, change),
    onError: () => toast.error('Failed to update kit tracking'),
    // The list answer carries the stats, so refetching it refreshes both.
    onSettled: () => queryClient.invalidateQueries({ queryKey: kitKeys.all }),
  });

  const handOver = useHandOverAll();
  const busyId = toggle.isPending ? (toggle.variables?.userId ?? null) : handOver.busyId;

  const onToggle = (p: KitParticipant, field: (typeof KIT_CHECKS)[number]['field']) => {
    const check = KIT_CHECKS.find((c) => c.field === field);
    if (!check) return;
    const give = !p[field];
    if (!window.confirm(toggleConfirmText(check.label, p.participant_name, give))) return;
    toggle.mutate({ userId: p.user_id, change: { [field]: give } as KitChange });
  };

  return (
    <section>
      <TabHeading
        title="Kit Tracker"
        icon={Package}
        actions={
          <RefreshButton
            fetching={query.isFetching}
            onRefresh={() => queryClient.invalidateQueries({ queryKey: kitKeys.all })}
          />
        }
      />
      <KitStatsCards stats={query.data?.stats} />

      <div className="mt-5 grid grid-cols-1 gap-3 sm:grid-cols-2 lg:grid-cols-[2fr_1fr_1fr_1fr] lg:items-end">
        <LabelledSearchField
          className="sm:col-span-2 lg:col-span-1"
          label="Search by name, kit name, email or rider number"
          placeholder="Name, kit name, email or rider #"
          value={searchText}
          onChange={resetting(setSearchText)}
        />
        <SelectField label="Show" value={filter} onChange={resetting(setFilter)} options={FILTERS} />
        <SelectField label="Sort by" value={sortBy} onChange={resetting(setSortBy)} options={SORTS} />
        <SelectField label="Order" value={sortOrder} onChange={resetting(setSortOrder)} options={ORDERS} />
      </div>

      <div className="mt-4">
        <QueryStates query={query} loadingLabel="Loading participants..." errorMessage="Failed to load participants">
          {(data) => (
            <PagedResults
              shown={data.participants.length}
              total={data.pagination.total}
              noun="participants"
              emptyMessage="No participants found matching your criteria."
              pagination={{
                page: data.pagination.page,
                totalPages: data.pagination.total_pages,
                onPage: setPage,
                label: 'Participant pages',
              }}
            >
              <KitTable
                participants={data.participants}
                busyId={busyId}
                onToggle={onToggle}
                onHandOver={handOver.handOver}
                onView={(p) => setViewingId(p.user_id)}
              />
            </PagedResults>
          )}
        </QueryStates>
      </div>
      <KitDetailsModal
        participant={viewing}
        busy={viewing !== null && busyId === viewing.user_id}
        onHandOver={handOver.handOver}
        onUndo={viewing ? handOver.undoFor(viewing.user_id) : null}
        onClose={() => setViewingId(null)}
      />
    </section>
  );
}
