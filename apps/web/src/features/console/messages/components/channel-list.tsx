// Each channel, ON or OFF, where it sends or what it lacks, and its last failure within
// the hour; staff who run the event can send themselves a test on a channel that is on.
import { MESSAGE_CHANNEL_LABELS, type MessageChannel } from '@rally/shared/catalog/messages';
import { can } from '@rally/shared/permissions';
import { useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import { Mail, MessageSquareText, Send, Smartphone, TriangleAlert } from 'lucide-react';
import { buttonStyles } from '../../../../components/ui/button-styles';
import { ApiError } from '../../../../lib/api-client';
import { useAuth } from '../../../../lib/auth';
import { toast } from '../../../../lib/toast';
import { QueryStates } from '../../components/list-states';
import { fetchChannels, messageKeys, sendTestMessage } from '../api/messages-api';

const ICONS = { push: Smartphone, email: Mail, sms: MessageSquareText } as const;

export function OnOffBadge({ on }: { on: boolean }) {
  return (
    <span
      className={`inline-flex items-center rounded-full border px-2 py-0.5 text-[0.7rem] font-bold uppercase tracking-wide ${
        on ? 'border-jade-400 bg-jade-600/20 text-jade-400' : 'border-ink-600 bg-ink-800 text-ash'
      }`}
    >
      {on ? 'On' : 'Off'}
    </span>
  );
}

export function ChannelList() {
  const { user } = useAuth();
  const canTest = can(user?.role, 'manage_event');
  const queryClient = useQueryClient();
  const channels = useQuery({ queryKey: messageKeys.channels, queryFn: fetchChannels });
  const test = useMutation({
    mutationFn: sendTestMessage,
    onSuccess: (message) => {
      toast.success(message);
      // The new rows show in the delivery log; their outcome a moment later.
      queryClient.invalidateQueries({ queryKey: messageKeys.all });
    },
    onError: (error) => toast.error(error instanceof ApiError ? error.message : 'Failed to send the test message'),
  });

  return (
    <QueryStates query={channels} loadingLabel="Loading channels..." errorMessage="Failed to load the channels">
      {(list) => (
        <ul className="grid gap-3 md:grid-cols-3" aria-label="Message channels">
          {list.map((c) => {
            const Icon = ICONS[c.channel as MessageChannel];
            const label = MESSAGE_CHANNEL_LABELS[c.channel as MessageChannel];
            return (
              <li
                key={c.channel}
                className="flex flex-col gap-2 rounded-lg border border-ink-700 bg-ink-850 p-3"
                data-testid={`channel-${c.channel}`}
              >
                <div className="flex items-center justify-between gap-2">
                  <span className="flex items-center gap-2 font-bold text-bone">
                    <Icon className="size-5 text-fire-400" aria-hidden="true" />
                    {label}
                  </span>
                  <OnOffBadge on={c.configured} />
                </div>
                <p className="break-words text-sm text-ash">{c.detail}</p>
                {c.lastFailure && (
                  <p className="flex items-start gap-1.5 break-words text-xs text-ember-400">
                    <TriangleAlert className="mt-0.5 size-3.5 shrink-0" aria-hidden="true" />
                    <span>Last hour: {c.lastFailure}</span>
                  </p>
                )}
                {canTest && c.configured && (
                  <button
                    type="button"
                    className={buttonStyles('secondary', 'md', 'mt-auto w-full')}
                    disabled={test.isPending}
                    onClick={() => test.mutate(c.channel as MessageChannel)}
                  >
                    <Send className="size-4" aria-hidden="true" />
                    Send test
                  </button>
                )}
              </li>
            );
          })}
        </ul>
      )}
    </QueryStates>
  );
}
