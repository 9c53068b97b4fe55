// The delivery log: every message of the outbox, newest first, paged by the server, with
// the provider's answer (a queued id, a refusal) and the tries so far.
import {
  MESSAGE_CHANNEL_LABELS,
  MESSAGE_CHANNELS,
  MESSAGE_STATUS_LABELS,
  MESSAGE_STATUSES,
  MESSAGE_TEMPLATE_LABELS,
  type MessageChannel,
  type MessageStatus,
  type MessageTemplate,
} from '@rally/shared/catalog/messages';
import { can } from '@rally/shared/permissions';
import { keepPreviousData, useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import { RotateCw } from 'lucide-react';
import { useState } from 'react';
import { buttonStyles } from '../../../../components/ui/button-styles';
import { ApiError } from '../../../../lib/api-client';
import { useAuth } from '../../../../lib/auth';
import { toast } from '../../../../lib/toast';
import { ConsoleTable, tdClass } from '../../components/console-table';
import { PagedResults, QueryStates } from '../../components/list-states';
import { SelectField } from '../../components/select-field';
import { usePage } from '../../components/use-page';
import { type DeliveryFilters, fetchDeliveries, messageKeys, resendMessage } from '../api/messages-api';
import { StatusBadge } from './message-status';

const STATUS_OPTIONS: ReadonlyArray<readonly [DeliveryFilters['status'], string]> = [
  ['all', 'All statuses'],
  ...MESSAGE_STATUSES.map((s) => [s, MESSAGE_STATUS_LABELS[s]] as const),
];
const CHANNEL_OPTIONS: ReadonlyArray<readonly [DeliveryFilters['channel'], string]> = [
  ['all', 'All channels'],
  ...MESSAGE_CHANNELS.map((c) => [c, MESSAGE_CHANNEL_LABELS[c]] as const),
];

const when = (iso: string) =>
  new Date(iso).toLocaleString('en-PH', { month: 'short', day: 'numeric', hour: '2-digit', minute: '2-digit' });

const HEADERS = ['Time', 'Channel', 'Template', 'Recipient', 'Status', 'Tries', 'Provider answer'];

export function DeliveryLog() {
  const { user } = useAuth();
  // Resending is running the event's messages; reading the log is not.
  const canResend = can(user?.role, 'manage_event');
  const queryClient = useQueryClient();
  const resend = useMutation({
    mutationFn: resendMessage,
    onSuccess: (message) => toast.success(message),
    onError: (error) => toast.error(error instanceof ApiError ? error.message : 'Failed to resend the message'),
    onSettled: () => queryClient.invalidateQueries({ queryKey: messageKeys.all }),
  });
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
                    {MESSAGE_TEMPLATE_LABELS[m.template as MessageTemplate] ?? m.template}
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
                    {/* One block, so a phone's stacked row puts Resend under the answer, not beside it. */}
                    <div className="grid min-w-0 justify-items-start gap-2">
                      <span>{m.providerAnswer ?? (m.nextAttemptAt ? `Due ${when(m.nextAttemptAt)}` : '—')}</span>
                      {canResend && m.status === 'failed' && (
                        <button
                          type="button"
                          className={buttonStyles('secondary', 'md', 'px-3')}
                          disabled={resend.isPending}
                          onClick={() => resend.mutate(m.id)}
                          data-testid="delivery-resend"
                        >
                          <RotateCw className="size-4" aria-hidden="true" />
                          Resend
                        </button>
                      )}
                    </div>
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
