import { History, X } from 'lucide-react';

/** Says that the form was filled from the copy kept on this phone, and offers a clean start. */
export function DraftNotice({ onStartOver, onDismiss }: { onStartOver: () => void; onDismiss: () => void }) {
  return (
    <div
      role="status"
      className="flex flex-col gap-3 rounded-xl border-2 border-gold-400 bg-ink-900 p-4 sm:flex-row sm:items-center"
      data-testid="draft-notice"
    >
      <History className="hidden size-7 shrink-0 text-gold-300 sm:block" aria-hidden="true" />
      <p className="flex-1 text-bone">
        <span className="font-bold text-gold-300">We restored your unfinished registration.</span> Everything you
        entered on this phone is back, except your password: please type it again.
      </p>
      <div className="flex items-center gap-2 self-end sm:self-auto">
        <button
          type="button"
          onClick={onStartOver}
          className="min-h-11 rounded-md border-2 border-gold-400 px-4 font-display tracking-wider text-gold-300 uppercase hover:bg-gold-400/10"
        >
          Start over
        </button>
        <button
          type="button"
          onClick={onDismiss}
          aria-label="Dismiss notice"
          className="flex size-11 items-center justify-center rounded-md text-ash hover:bg-ink-800 hover:text-bone"
        >
          <X className="size-5" aria-hidden="true" />
        </button>
      </div>
    </div>
  );
}
