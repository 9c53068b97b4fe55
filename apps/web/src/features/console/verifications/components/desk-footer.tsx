// The desk's footer: walking the queue, and Approve / Reject, which open their confirmations.
import { Check, ChevronLeft, ChevronRight, Keyboard, X } from 'lucide-react';
import { buttonStyles } from '../../../../components/ui/button-styles';
import { usePastEdition } from '../../components/past-edition-context';

export type Confirming = 'verified' | 'rejected' | null;

export function DeskFooter({
  confirming,
  busy,
  position,
  total,
  onConfirming,
  onPrevious,
  onNext,
  onShortcuts,
  onClose,
}: {
  confirming: Confirming;
  busy: boolean;
  position: number;
  total: number;
  onConfirming: (c: Confirming) => void;
  onPrevious: () => void;
  onNext: () => void;
  onShortcuts: () => void;
  onClose: () => void;
}) {
  // A past edition's queue is history: nothing there is decided any more.
  const past = usePastEdition() !== null;
  return (
    <div className="flex flex-col gap-3 sm:flex-row sm:items-center sm:justify-between">
      <div className="flex items-center gap-2">
        <button
          type="button"
          onClick={onPrevious}
          className={buttonStyles('secondary', 'md', 'min-h-11 px-3')}
          aria-label="Previous rider"
          aria-keyshortcuts="k"
        >
          <ChevronLeft className="size-5" aria-hidden="true" />
        </button>
        <span className="text-sm whitespace-nowrap text-ash" data-testid="desk-position">
          {position} of {total}
        </span>
        <button
          type="button"
          onClick={onNext}
          className={buttonStyles('secondary', 'md', 'min-h-11 px-3')}
          aria-label="Next rider"
          aria-keyshortcuts="j"
        >
          <ChevronRight className="size-5" aria-hidden="true" />
        </button>
        <button
          type="button"
          onClick={onShortcuts}
          className={buttonStyles('ghost', 'md', 'min-h-11 px-3')}
          aria-label="Keyboard shortcuts"
          aria-keyshortcuts="?"
        >
          <Keyboard className="size-5" aria-hidden="true" />
        </button>
      </div>
      <div className="flex flex-wrap gap-2">
        <button
          type="button"
          disabled={busy || past}
          aria-expanded={confirming === 'verified'}
          onClick={() => onConfirming('verified')}
          aria-keyshortcuts="a"
          className="inline-flex min-h-11 flex-1 items-center justify-center gap-2 rounded-md bg-jade-600 px-4 font-bold text-ink-950 hover:bg-jade-400 disabled:opacity-60 sm:flex-none"
        >
          <Check className="size-5" aria-hidden="true" />
          Approve
        </button>
        <button
          type="button"
          disabled={busy || past}
          aria-expanded={confirming === 'rejected'}
          onClick={() => onConfirming('rejected')}
          aria-keyshortcuts="r"
          className="inline-flex min-h-11 flex-1 items-center justify-center gap-2 rounded-md bg-ember-600 px-4 font-bold text-white hover:bg-ember-500 disabled:opacity-60 sm:flex-none"
        >
          <X className="size-5" aria-hidden="true" />
          Reject
        </button>
        {/* Phones close from the header's X; the footer keeps its room for the decisions. */}
        <div className="hidden sm:block">
          <button type="button" onClick={onClose} className={buttonStyles('secondary', 'md', 'min-h-11')}>
            Close
          </button>
        </div>
      </div>
    </div>
  );
}
