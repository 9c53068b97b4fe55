// How a message stands (queued, sent, failed), the same in the delivery log and in an
// incident's timeline.
import { MESSAGE_STATUS_LABELS, type MessageStatus } from '@rally/shared/catalog/messages';

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
      {MESSAGE_STATUS_LABELS[status]}
    </span>
  );
}
