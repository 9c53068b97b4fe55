// QR Sticker Generator: verified riders, whether their sticker
// has been printed, a preview, and the sticker page.
import type { IdCardUser } from '@rally/shared/contracts/id-cards';
import { keepPreviousData, useQuery } from '@tanstack/react-query';
import { CircleCheck, CircleDashed, FileDown, Printer, QrCode, ScanLine, Users, X } from 'lucide-react';
import { useState } from 'react';
import { buttonStyles } from '../../../../components/ui/button-styles';
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
import { usePrintSheet } from '../components/use-print-sheet';

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
  const stats = useQuery({ queryKey: idCardKeys.stats, queryFn: fetchCardStats });
  const mark = useMarkPrinted();
  // Riders picked for a sheet, kept across pages and searches.
  const [selected, setSelected] = useState<ReadonlySet<string>>(() => new Set());
  const sheet = usePrintSheet(() => setSelected(new Set()));
  const toggle = (u: IdCardUser) =>
    setSelected((prev) => {
      const next = new Set(prev);
      if (next.has(u.id)) next.delete(u.id);
      else next.add(u.id);
      return next;
    });
  const unprinted = stats.data?.not_printed_count ?? 0;

  const params = { page, search, filter };
  const list = useQuery({
    queryKey: idCardKeys.list(params),
    queryFn: () => fetchCards(params),
    placeholderData: keepPreviousData,
  });

  return (
    <section>
      <TabHeading title="QR Sticker Generator" icon={QrCode} />
      <StatGrid>
        <StatCard label="Total Users" value={stats.data?.total_users} icon={Users} />
        <StatCard label="IDs Printed" value={stats.data?.printed_count} icon={CircleCheck} tone="text-jade-400" />
        <StatCard label="Not Printed" value={stats.data?.not_printed_count} icon={CircleDashed} tone="text-gold-400" />
        <StatCard label="Total Prints" value={stats.data?.total_prints} icon={Printer} />
      </StatGrid>

      <section
        aria-labelledby="sticker-sheet-heading"
        className="mt-5 flex flex-col gap-3 rounded-lg border-2 border-fire-600/60 bg-ink-900 p-4 lg:flex-row lg:items-center lg:justify-between"
      >
        <div className="min-w-0">
          <h3 id="sticker-sheet-heading" className="flex items-center gap-2 text-xl text-gold-300">
            <FileDown className="size-5" aria-hidden="true" />
            Print sheet
          </h3>
          <p className="text-sm text-ash">
            A4 PDF, 15 stickers of 5 cm × 5 cm with cut marks. Print at 100% (actual size); every sticker on the sheet
            is marked printed.
          </p>
        </div>
        <div className="grid grid-cols-1 gap-2 sm:flex sm:flex-wrap lg:shrink-0">
          <button
            type="button"
            onClick={() => sheet.mutate({ riderIds: [...selected] })}
            disabled={selected.size === 0 || sheet.isPending}
            className={buttonStyles('primary')}
            data-testid="print-selected"
          >
            <Printer className="size-5" aria-hidden="true" />
            {`Print selected (${selected.size})`}
          </button>
          <button
            type="button"
            onClick={() => sheet.mutate({ allUnprinted: true })}
            disabled={unprinted === 0 || sheet.isPending}
            className={buttonStyles('secondary')}
            data-testid="print-unprinted"
          >
            <Printer className="size-5" aria-hidden="true" />
            {`Print all not printed (${unprinted})`}
          </button>
          {selected.size > 0 && (
            <button type="button" onClick={() => setSelected(new Set())} className={buttonStyles('ghost')}>
              <X className="size-4" aria-hidden="true" />
              Clear selection
            </button>
          )}
        </div>
        {sheet.isPending && (
          <p role="status" className="text-sm text-gold-300">
            Preparing the sheet…
          </p>
        )}
      </section>

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
                selected={selected}
                onToggle={toggle}
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
