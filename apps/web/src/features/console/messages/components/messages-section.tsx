// The Settings tab's Messages section (DESIGN.md §10): which channels are on, a test per
// channel, and the delivery log.
import { useIsFetching, useQueryClient } from '@tanstack/react-query';
import { BellRing } from 'lucide-react';
import { RefreshButton } from '../../components/refresh-button';
import { messageKeys } from '../api/messages-api';
import { ChannelList } from './channel-list';
import { DeliveryLog } from './delivery-log';

export function MessagesSection() {
  const queryClient = useQueryClient();
  const fetching = useIsFetching({ queryKey: messageKeys.all }) > 0;
  return (
    <section aria-labelledby="messages-heading" className="rounded-xl border border-ink-700 bg-ink-900 p-4 sm:p-6">
      <div className="mb-4 flex flex-wrap items-center justify-between gap-2">
        <h3 id="messages-heading" className="flex items-center gap-2 text-2xl text-bone">
          <BellRing className="size-6 text-fire-400" aria-hidden="true" />
          Messages
        </h3>
        <RefreshButton
          fetching={fetching}
          onRefresh={() => queryClient.invalidateQueries({ queryKey: messageKeys.all })}
        />
      </div>
      <ChannelList />
      <h4 className="mb-2 mt-6 text-lg text-bone">Delivery log</h4>
      <DeliveryLog />
    </section>
  );
}
