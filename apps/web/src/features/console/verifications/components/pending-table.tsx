import type { VerificationAction } from '@rally/shared/catalog/accounts';
import { PAYMENT_METHOD_LABELS, type PaymentMethod } from '@rally/shared/catalog/registration';
import type { PendingVerification } from '@rally/shared/contracts/verifications';
import { Check, Receipt, X } from 'lucide-react';
import { useState } from 'react';
import { buttonStyles } from '../../../../components/ui/button-styles';
import { formatPeso, formatRelativeTime } from '../../../../lib/format';
import { ProfileAvatar } from '../../../public-profile/components/profile-avatar';
import { ConsoleTable } from '../../components/console-table';
import { usePastEdition } from '../../components/past-edition-context';
import { FlagCount, flagsOf, InStatementBadge } from './receipt-flags';

const td = 'px-2.5 py-3 align-top';

export function PendingTable({
  entries,
  selectedCode,
  busyCode,
  onDecide,
  onReceipt,
}: {
  entries: PendingVerification[];
  /** The rider the desk's keyboard cursor is on (j/k). */
  selectedCode: string | null;
  busyCode: string | null;
  onDecide: (entry: PendingVerification, action: VerificationAction, notes: string) => void;
  onReceipt: (entry: PendingVerification) => void;
}) {
  // A past edition's queue is history: nothing there is decided any more.
  const past = usePastEdition() !== null;
  return (
    <ConsoleTable
      headers={['Warrior', 'Code', 'Payment Method', 'Receipt', 'Submitted', 'Approve/Reject']}
      minWidth="sm:min-w-[900px]"
      className="relative"
      stackOnPhone
    >
      {entries.map((entry) => (
        <PendingRow
          key={entry.id}
          entry={entry}
          selected={selectedCode === entry.verification_code}
          busy={busyCode === entry.verification_code}
          disabled={busyCode !== null || past}
          onDecide={onDecide}
          onReceipt={onReceipt}
        />
      ))}
    </ConsoleTable>
  );
}

function PendingRow({
  entry,
  selected,
  busy,
  disabled,
  onDecide,
  onReceipt,
}: {
  entry: PendingVerification;
  selected: boolean;
  busy: boolean;
  disabled: boolean;
  onDecide: (entry: PendingVerification, action: VerificationAction, notes: string) => void;
  onReceipt: (entry: PendingVerification) => void;
}) {
  const [notes, setNotes] = useState('');
  const name = entry.kit_name || entry.full_name;
  const method = entry.payment_method ? PAYMENT_METHOD_LABELS[entry.payment_method as PaymentMethod] : 'N/A';
  return (
    <tr
      // Kept clear of the sticky header and an SOS bar when the keys scroll it into view.
      className={`scroll-mt-20 scroll-mb-(--alarm-inset) bg-ink-900 ${selected ? 'outline-3 -outline-offset-3 outline-gold-400' : ''}`}
      data-verification-code={entry.verification_code}
      data-selected={selected || undefined}
    >
      <td className={td}>
        <div className="flex items-center gap-3">
          <ProfileAvatar userId={entry.user_id} name={name} className="size-10" />
          <div className="min-w-0">
            <p className="font-bold text-bone">
              {entry.kit_name || entry.first_name}
              {selected && <span className="sr-only"> (selected)</span>}
            </p>
            <p className="text-ash">{entry.full_name}</p>
            <p className="max-w-[10rem] truncate text-xs text-smoke" title={entry.email}>
              {entry.email}
            </p>
          </div>
        </div>
      </td>
      <td data-label="Code" className={`${td} whitespace-nowrap font-mono text-gold-300`}>
        {entry.verification_code}
      </td>
      <td data-label="Payment" className={td}>
        <div>
          <p className="text-bone">{method}</p>
          {entry.payment_amount !== null && <p className="text-xs text-smoke">{formatPeso(entry.payment_amount)}</p>}
        </div>
      </td>
      <td data-label="Receipt" className={td}>
        {entry.has_payment_receipt ? (
          <div className="flex flex-wrap items-center gap-2">
            <button
              type="button"
              className={buttonStyles('secondary', 'md', 'min-h-9 whitespace-nowrap px-2 text-sm')}
              onClick={() => onReceipt(entry)}
            >
              <Receipt className="size-4" aria-hidden="true" />
              View Receipt
            </button>
            <FlagCount flags={flagsOf(entry.receipt_check)} />
            <InStatementBadge check={entry.receipt_check} />
          </div>
        ) : (
          <span className="text-smoke">No receipt</span>
        )}
      </td>
      <td data-label="Submitted" className={`${td} whitespace-nowrap text-ash`}>
        <time dateTime={entry.created_at}>{formatRelativeTime(entry.created_at)}</time>
      </td>
      <td className={td}>
        <div className="flex min-w-52 flex-1 flex-col gap-2">
          <label className="sr-only" htmlFor={`notes-${entry.id}`}>
            Notes for {name} (optional)
          </label>
          <input
            id={`notes-${entry.id}`}
            value={notes}
            maxLength={1000}
            onChange={(e) => setNotes(e.target.value)}
            placeholder="Notes (optional)"
            className="min-h-9 rounded-md border border-ink-600 bg-ink-950 px-2 text-sm text-bone placeholder:text-smoke focus:border-fire-500 focus:outline-none"
          />
          <div className="flex gap-2">
            <button
              type="button"
              disabled={disabled}
              onClick={() => onDecide(entry, 'verified', notes)}
              aria-label={`Approve ${name}`}
              className="inline-flex min-h-9 flex-1 items-center justify-center gap-1 whitespace-nowrap rounded-md bg-jade-600 px-2 text-sm font-bold text-ink-950 hover:bg-jade-400 disabled:opacity-60"
            >
              <Check className="size-4" aria-hidden="true" />
              {busy ? 'Working...' : 'Approve'}
            </button>
            <button
              type="button"
              disabled={disabled}
              onClick={() => onDecide(entry, 'rejected', notes)}
              aria-label={`Reject ${name}`}
              className="inline-flex min-h-9 flex-1 items-center justify-center gap-1 whitespace-nowrap rounded-md bg-ember-600 px-2 text-sm font-bold text-white hover:bg-ember-500 disabled:opacity-60"
            >
              <X className="size-4" aria-hidden="true" />
              Reject
            </button>
          </div>
        </div>
      </td>
    </tr>
  );
}
