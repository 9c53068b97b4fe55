import { History } from 'lucide-react';
import { buttonStyles } from '../../../components/ui/button-styles';

/** The form came back from the copy kept on this phone; "Start over" returns to last year's details. */
export function RestoredEntryNotice({ onStartOver, onDismiss }: { onStartOver: () => void; onDismiss: () => void }) {
  return (
    <div role="status" className="rounded-xl border-2 border-gold-400 bg-ink-900 p-4" data-testid="draft-notice">
      <p className="flex items-start gap-3 text-bone">
        <History className="size-6 shrink-0 text-gold-300" aria-hidden="true" />
        <span>
          <span className="font-bold text-gold-300">We restored your unfinished entry.</span> What you changed on this
          phone is back.
        </span>
      </p>
      <p className="mt-3 flex flex-wrap justify-end gap-2">
        <button type="button" onClick={onDismiss} className={buttonStyles('ghost')}>
          OK
        </button>
        <button type="button" onClick={onStartOver} className={buttonStyles('secondary')}>
          Start over
        </button>
      </p>
    </div>
  );
}
