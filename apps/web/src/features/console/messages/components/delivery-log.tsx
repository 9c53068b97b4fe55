// The delivery log: every message of the outbox, newest first, paged by the server, with
// the provider's answer (a queued id, a refusal) and the tries so far.
import {
  MESSAGE_CHANNEL_LABELS,
  MESSAGE_CHANNELS,
  MESSAGE_STATUSES,
  type MessageChannel,
  type MessageStatus,
} from '@rally/shared/catalog/messages';
import { keepPreviousData, useQuery } from '@tanstack/react-query';
import { useState } from 'react';
import { ConsoleTable, tdClass } from '../../components/console-table';
import { PagedResults, QueryStates } from '../../components/list-states';
import { SelectField } from '../../components/select-field';
import { usePage } from '../../components/use-page';
import { type DeliveryFilters, fetchDeliveries, messageKeys } from '../api/messages-api';

const STATUS_OPTIONS: ReadonlyArray<readonly [DeliveryFilters['status'], string]> = [
  ['all', 'All statuses'],
  ...MESSAGE_STATUSES.map((s) => [s, s[0]?.toUpperCase() + s.slice(1)] as const),
];
const CHANNEL_OPTIONS: ReadonlyArray<readonly [DeliveryFilters['channel'], string]> = [
  ['all', 'All channels'],
  ...MESSAGE_CHANNELS.map((c) => [c, MESSAGE_CHANNEL_LABELS[c]] as const),
];

const STATUS_STYLES: Record<MessageStatus, string> = {
  pending: 'border-gold-400 bg-gold-500/15 text-gold-300',
  sent: 'border-jade-400 bg-jade-600/20 text-jade-400',
  failed: 'border-ember-500 bg-ember-700/20 text-ember-400',
};

export function StatusBadge({ status }: { status: MessageStatus }) {
  return (
    <span
      className={`inline-flex items-center whitespace-nowrap rounded-full border px-2 py-0.5 text-[0.7rem] font-bold uppercase tracking-wide ${STATUS_STYLES[status]}`}
    >
      {status}
    </span>
  );
}

/** registration_received -> Registration received */
const templateLabel = (template: string) => {
  const words = template.replace(/_/g, ' ');
  return words.charAt(0).toUpperCase() + words.slice(1);
};

const when = (iso: string) =>
  new Date(iso).toLocaleString('en-PH', { month: 'short', day: 'numeric', hour: '2-digit', minute: '2-digit' });

const HEADERS = ['Time', 'Channel', 'Template', 'Recipient', 'Status', 'Tries', 'Provider answer'];

export function DeliveryLog() {
  const [status, setStatus] = useState<DeliveryFilters['status']>('all');
  const [channel, setChannel] = useState<DeliveryFilters['channel']>('all');
  const { page, setPage, resetting } = usePage();
  const filters: DeliveryFilters = { status, channel };
  const log = useQuery({
    queryKey: messageKeys.log(filters, page),
    queryFn: () => fetchDeliveries(filters, page),
    placeholderData: keepPreviousData,
    // A message going out now (a test just queued) shows its outcome without a reload;
    // one waiting minutes for a retry does not keep the page polling.
    refetchInterval: (query) =>
      query.state.data?.messages.some(
        (m) => m.status === 'pending' && m.nextAttemptAt && Date.parse(m.nextAttemptAt) < Date.now() + 60_000,
      )
        ? 3000
        : false,
  });

  return (
    <div>
      <div className="mb-3 grid grid-cols-2 gap-3 sm:max-w-md">
        <SelectField label="Status" value={status} onChange={resetting(setStatus)} options={STATUS_OPTIONS} />
        <SelectField label="Channel" value={channel} onChange={resetting(setChannel)} options={CHANNEL_OPTIONS} />
      </div>
      <QueryStates
        query={log}
        loadingLabel="Loading the delivery log..."
        errorMessage="Failed to load the delivery log"
      >
        {(data) => (
          <PagedResults
            shown={data.messages.length}
            total={data.pagination.total}
            noun="messages"
            emptyMessage="No messages yet"
            pagination={{
              page: data.pagination.page,
              totalPages: data.pagination.total_pages,
              onPage: setPage,
              label: 'Delivery log pages',
            }}
          >
            <ConsoleTable headers={HEADERS} minWidth="sm:min-w-[880px]" stackOnPhone>
              {data.messages.map((m) => (
                <tr key={m.id} data-testid="delivery-row">
                  <td className={`${tdClass} whitespace-nowrap text-ash`} data-label="Time">
                    <time dateTime={m.createdAt}>{when(m.createdAt)}</time>
                  </td>
                  <td className={`${tdClass} text-bone`} data-label="Channel">
                    {MESSAGE_CHANNEL_LABELS[m.channel as MessageChannel]}
                  </td>
                  <td className={`${tdClass} text-bone`} data-label="Template">
                    {templateLabel(m.template)}
                  </td>
                  <td className={`${tdClass} break-all text-bone`} data-label="Recipient">
                    {m.recipient}
                  </td>
                  <td className={tdClass} data-label="Status">
                    <StatusBadge status={m.status as MessageStatus} />
                  </td>
                  <td className={`${tdClass} tabular-nums text-ash`} data-label="Tries">
                    {m.attempts}
                  </td>
                  <td className={`${tdClass} max-w-xs break-words text-xs text-ash`} data-label="Answer">
                    {m.providerAnswer ?? (m.nextAttemptAt ? `Due ${when(m.nextAttemptAt)}` : '—')}
                  </td>
                </tr>
              ))}
            </ConsoleTable>
          </PagedResults>
        )}
      </QueryStates>
    </div>
  );
}
