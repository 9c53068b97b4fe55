// QR Sticker Generator: verified riders, whether their sticker
// has been printed, a preview, and the sticker page.
import type { IdCardUser } from '@rally/shared/contracts/id-cards';
import { keepPreviousData, useQuery } from '@tanstack/react-query';
import { CircleCheck, CircleDashed, Printer, QrCode, ScanLine, Users } from 'lucide-react';
import { useState } from 'react';
import { PagedResults, QueryStates } from '../../components/list-states';
import { LabelledSearchField } from '../../components/search-field';
import { SelectField } from '../../components/select-field';
import { StatCard, StatGrid } from '../../components/stat-card';
import { TabHeading } from '../../components/tab-heading';
import { useDebounced } from '../../components/use-debounced';
import { usePage } from '../../components/use-page';
import { fetchCardStats, fetchCards, idCardKeys, type PrintFilter } from '../api/id-cards-api';
import { CardsTable } from '../components/cards-table';
import { StickerPreviewModal } from '../components/sticker-preview-modal';
import { useMarkPrinted } from '../components/use-mark-printed';

const FILTERS: ReadonlyArray<readonly [PrintFilter, string]> = [
  ['all', 'All Users'],
  ['printed', 'Printed Only'],
  ['not_printed', 'Not Printed Only'],
];

export default function IdCardsTab() {
  const [searchText, setSearchText] = useState('');
  const [filter, setFilter] = useState<PrintFilter>('all');
  const { page, setPage, resetting } = usePage();
  const [previewId, setPreviewId] = useState<string | null>(null);
  const search = useDebounced(searchText.trim());
  const mark = useMarkPrinted();

  const params = { page, search, filter };
  const list = useQuery({
    queryKey: idCardKeys.list(params),
    queryFn: () => fetchCards(params),
    placeholderData: keepPreviousData,
  });
  const stats = useQuery({ queryKey: idCardKeys.stats, queryFn: fetchCardStats });

  return (
    <section>
      <TabHeading title="QR Sticker Generator" icon={QrCode} />
      <StatGrid>
        <StatCard label="Total Users" value={stats.data?.total_users} icon={Users} />
        <StatCard label="IDs Printed" value={stats.data?.printed_count} icon={CircleCheck} tone="text-jade-400" />
        <StatCard label="Not Printed" value={stats.data?.not_printed_count} icon={CircleDashed} tone="text-gold-400" />
        <StatCard label="Total Prints" value={stats.data?.total_prints} icon={Printer} />
      </StatGrid>

      <div className="mt-5 grid grid-cols-1 gap-3 sm:grid-cols-[2fr_1fr] sm:items-end">
        <LabelledSearchField
          label="Search by name, email, kit name or rider number"
          placeholder="Name, email, kit name or rider #"
          value={searchText}
          onChange={resetting(setSearchText)}
        />
        <SelectField label="Print status" value={filter} onChange={resetting(setFilter)} options={FILTERS} />
      </div>

      <div className="mt-4">
        <QueryStates query={list} loadingLabel="Loading participants..." errorMessage="Failed to load participants">
          {(data) => (
            <PagedResults
              shown={data.users.length}
              total={data.pagination.total}
              noun="verified riders"
              countIcon={ScanLine}
              emptyMessage="No participants found matching your search."
              pagination={{
                page: data.pagination.page,
                totalPages: data.pagination.total_pages,
                onPage: setPage,
                label: 'Sticker list pages',
              }}
            >
              <CardsTable
                users={data.users}
                busyId={mark.isPending ? (mark.variables ?? null) : null}
                onPreview={(u: IdCardUser) => setPreviewId(u.id)}
                onMarkPrinted={(u: IdCardUser) => mark.mutate(u.id)}
              />
            </PagedResults>
          )}
        </QueryStates>
      </div>
      <StickerPreviewModal userId={previewId} onClose={() => setPreviewId(null)} />
    </section>
  );
}
