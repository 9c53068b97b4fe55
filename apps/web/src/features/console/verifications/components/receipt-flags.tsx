// The receipt's flags, written out where the verifier looks: each says what it found and
// what it matched. They inform and never decide; Approve shows them once more and asks once.
// Bold, large and gold on black, the console's warning colour, so a phone in the sun still
// shows them.
import type { ReceiptCheck, ReceiptFlag } from '@rally/shared/contracts/receipts';
import { FileCheck2, TriangleAlert } from 'lucide-react';
import { useId } from 'react';
import { formatDate } from '../../../../lib/format';

export function flagsOf(check: ReceiptCheck | null | undefined): ReceiptFlag[] {
  return check?.flags ?? [];
}

export function FlagList({ flags, className = '' }: { flags: ReceiptFlag[]; className?: string }) {
  const titleId = useId();
  if (flags.length === 0) return null;
  return (
    <section
      aria-labelledby={titleId}
      className={`rounded-md border-2 border-gold-400 bg-ink-950 p-3 ${className}`}
      data-testid="receipt-flags"
    >
      <h4 id={titleId} className="flex items-center gap-2 text-base font-bold tracking-wide text-gold-300 uppercase">
        <TriangleAlert className="size-5 shrink-0" aria-hidden="true" />
        {flags.length === 1 ? '1 flag' : `${flags.length} flags`}: check before approving
      </h4>
      <ul className="mt-2 flex flex-col gap-2">
        {flags.map((flag) => (
          <li
            // Two flags of one kind differ by what they matched, which the message names.
            key={`${flag.kind}:${flag.message}`}
            data-flag-kind={flag.kind}
            className="wrap-anywhere border-l-4 border-gold-400 pl-2 text-base leading-snug font-bold text-bone"
          >
            {flag.message}
          </li>
        ))}
      </ul>
    </section>
  );
}

export function InStatementBadge({ check }: { check: ReceiptCheck | null | undefined }) {
  const found = check?.inStatement;
  if (!found) return null;
  const when = found.paidAt ? `, paid ${formatDate(found.paidAt)}` : '';
  return (
    <span
      className="inline-flex items-center gap-1 rounded-full border-2 border-jade-500 bg-ink-950 px-2.5 py-0.5 text-sm font-bold whitespace-nowrap text-jade-400"
      title={`Statement line ${found.line}${when}`}
      data-testid="in-statement"
    >
      <FileCheck2 className="size-4 shrink-0" aria-hidden="true" />
      In statement
    </span>
  );
}

/** The row's short form: how many flags, so the list shows at a glance which receipts need a look. */
export function FlagCount({ flags }: { flags: ReceiptFlag[] }) {
  if (flags.length === 0) return null;
  return (
    <span
      className="inline-flex items-center gap-1 rounded-full border-2 border-gold-400 bg-ink-950 px-2.5 py-0.5 text-sm font-bold whitespace-nowrap text-gold-300"
      title={flags.map((f) => f.message).join('\n')}
      data-testid="flag-count"
    >
      <TriangleAlert className="size-4 shrink-0" aria-hidden="true" />
      {flags.length === 1 ? '1 flag' : `${flags.length} flags`}
    </span>
  );
}
