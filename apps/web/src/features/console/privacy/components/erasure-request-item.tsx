// One erasure request as staff read it: pending ones with the rider, their note and the two
// decisions; decided ones with the decision, who made it and why. An approved request names
// nobody: the account it named is gone.
import type { AdminErasureRequest } from '@rally/shared/contracts/erasure';
import { Check, UserX, X } from 'lucide-react';
import { buttonStyles } from '../../../../components/ui/button-styles';
import { formatDate } from '../../../../lib/format';
import type { ErasureDecision } from './erasure-api';

function Rider({ request }: { request: AdminErasureRequest }) {
  if (!request.rider) {
    return (
      <p className="flex items-center gap-2 font-bold text-ash">
        <UserX className="size-4" aria-hidden="true" />
        Account erased
      </p>
    );
  }
  return (
    <div className="min-w-0">
      <p className="wrap-anywhere font-bold text-bone">
        {request.rider.name}
        {request.rider.riderNumber !== null && (
          <span className="ml-2 font-display text-fire-300">#{request.rider.riderNumber}</span>
        )}
      </p>
      <p className="wrap-anywhere text-sm text-ash">{request.rider.email}</p>
    </div>
  );
}

export function PendingErasureItem({
  request,
  onDecide,
}: {
  request: AdminErasureRequest;
  onDecide: (decision: ErasureDecision) => void;
}) {
  return (
    <li
      className="flex flex-col gap-3 rounded-md border-2 border-gold-400/70 bg-ink-900 p-3"
      data-testid="erasure-pending-item"
    >
      <div className="flex flex-wrap items-start justify-between gap-2">
        <Rider request={request} />
        <p className="text-sm text-ash">Asked {formatDate(request.requestedAt)}</p>
      </div>
      {request.note ? (
        <p className="wrap-anywhere border-l-2 border-ink-600 pl-3 text-bone">“{request.note}”</p>
      ) : (
        <p className="text-sm text-smoke">No note.</p>
      )}
      <div className="flex flex-wrap gap-2">
        <button
          type="button"
          onClick={() => onDecide('approve')}
          className={buttonStyles('danger', 'md', 'flex-1 sm:flex-none')}
        >
          <Check className="size-4" aria-hidden="true" />
          Approve
        </button>
        <button
          type="button"
          onClick={() => onDecide('refuse')}
          className={buttonStyles('secondary', 'md', 'flex-1 sm:flex-none')}
        >
          <X className="size-4" aria-hidden="true" />
          Refuse
        </button>
      </div>
    </li>
  );
}

export function DecidedErasureItem({ request }: { request: AdminErasureRequest }) {
  const approved = request.status === 'approved';
  return (
    <li className="flex flex-col gap-2 rounded-md border border-ink-700 bg-ink-900 p-3">
      <div className="flex flex-wrap items-start justify-between gap-2">
        <Rider request={request} />
        <span
          className={`rounded-full px-2.5 py-0.5 text-xs font-bold tracking-wide uppercase ${
            approved ? 'bg-ember-600 text-white' : 'bg-ink-700 text-bone'
          }`}
        >
          {approved ? 'Approved' : 'Refused'}
        </span>
      </div>
      <p className="text-sm text-ash">
        Asked {formatDate(request.requestedAt)}
        {request.decidedAt && ` · ${approved ? 'erased' : 'refused'} ${formatDate(request.decidedAt)}`}
        {request.decidedByName && ` by ${request.decidedByName}`}
      </p>
      {request.reason && <p className="wrap-anywhere text-sm text-bone">Reason: {request.reason}</p>}
    </li>
  );
}
