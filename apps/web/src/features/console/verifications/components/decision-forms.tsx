// The confirmations of the verification desk. Each takes focus on its confirm button so
// Enter confirms and Escape (handled by the dialog) cancels; the reject form offers the
// common reasons one key or tap away and free text, sent together as the call's notes.

import type { ReceiptFlag } from '@rally/shared/contracts/receipts';
import { VERIFICATION_NOTES_MAX } from '@rally/shared/contracts/verifications';
import { Check, TriangleAlert, X } from 'lucide-react';
import { useEffect, useId, useRef, useState } from 'react';
import { buttonStyles } from '../../../../components/ui/button-styles';

export const REJECT_REASONS = [
  'Receipt unreadable',
  'Amount does not match',
  'Reference number missing',
  'Wrong account',
  'Duplicate receipt',
] as const;

/** The notes a rejection sends: the chosen reasons, then the verifier's own words. */
export function rejectionNotes(reasons: readonly string[], text: string): string {
  const chosen = REJECT_REASONS.filter((r) => reasons.includes(r));
  return [chosen.join('; '), text.trim()].filter(Boolean).join('. ');
}

const isTextField = (el: EventTarget | null) =>
  el instanceof HTMLTextAreaElement || (el instanceof HTMLInputElement && el.type !== 'checkbox');

/**
 * A receipt with flags is approved only after they are shown here, in the one confirmation
 * Approve always asks: "Approve anyway?" instead of "Approve {name}?", never a second dialog.
 */
export function ApproveConfirm({
  name,
  summary,
  flags = [],
  busy,
  onConfirm,
  onCancel,
}: {
  name: string;
  summary: string;
  flags?: ReceiptFlag[];
  busy: boolean;
  onConfirm: () => void;
  onCancel: () => void;
}) {
  const confirmRef = useRef<HTMLButtonElement>(null);
  const titleId = useId();
  useEffect(() => confirmRef.current?.focus(), []);
  const flagged = flags.length > 0;
  return (
    <section
      aria-labelledby={titleId}
      className={`flex flex-col gap-3 rounded-md border-2 bg-ink-950 p-3 ${flagged ? 'border-gold-400' : 'border-jade-500'}`}
      data-testid="approve-confirm"
      data-flagged={flagged || undefined}
    >
      <div>
        <h3 id={titleId} className={`text-lg ${flagged ? 'text-gold-300' : 'text-jade-400'}`}>
          {flagged ? `Approve ${name} anyway?` : `Approve ${name}?`}
        </h3>
        <p className="text-sm text-ash">{summary}</p>
      </div>
      {flagged && (
        <ul className="flex flex-col gap-1.5" aria-label="Flags on this receipt">
          {flags.map((flag) => (
            <li
              key={`${flag.kind}:${flag.message}`}
              data-flag-kind={flag.kind}
              className="wrap-anywhere flex items-start gap-1.5 text-base leading-snug font-bold text-bone"
            >
              <TriangleAlert className="mt-0.5 size-4 shrink-0 text-gold-300" aria-hidden="true" />
              {flag.message}
            </li>
          ))}
        </ul>
      )}
      <div className="flex flex-wrap gap-2">
        <button
          ref={confirmRef}
          type="button"
          disabled={busy}
          onClick={onConfirm}
          className="inline-flex min-h-11 flex-1 items-center justify-center gap-2 whitespace-nowrap rounded-md bg-jade-600 px-4 font-bold text-ink-950 hover:bg-jade-400 disabled:opacity-60 sm:flex-none"
        >
          <Check className="size-5" aria-hidden="true" />
          {busy ? 'Working...' : flagged ? 'Approve anyway' : 'Yes, approve'}
          <kbd className="hidden rounded bg-ink-950/30 px-1.5 text-xs sm:inline">Enter</kbd>
        </button>
        <button type="button" onClick={onCancel} className={buttonStyles('ghost', 'md', 'min-h-11')}>
          Cancel
          <kbd className="hidden rounded bg-ink-800 px-1.5 text-xs sm:inline">Esc</kbd>
        </button>
      </div>
    </section>
  );
}

export function RejectForm({
  name,
  busy,
  onConfirm,
  onCancel,
}: {
  name: string;
  busy: boolean;
  onConfirm: (notes: string) => void;
  onCancel: () => void;
}) {
  const [reasons, setReasons] = useState<string[]>([]);
  const [text, setText] = useState('');
  const [problem, setProblem] = useState<string | null>(null);
  const confirmRef = useRef<HTMLButtonElement>(null);
  const titleId = useId();
  const textId = useId();
  const errorId = useId();
  useEffect(() => confirmRef.current?.focus(), []);

  const toggle = (reason: string) => {
    setProblem(null);
    setReasons((now) => (now.includes(reason) ? now.filter((r) => r !== reason) : [...now, reason]));
  };
  const submit = () => {
    const notes = rejectionNotes(reasons, text);
    if (!notes) {
      setProblem('Choose a reason or type one: the rider is shown it.');
      return;
    }
    onConfirm(notes.slice(0, VERIFICATION_NOTES_MAX));
  };

  return (
    <form
      aria-labelledby={titleId}
      className="flex flex-col gap-3 rounded-md border-2 border-ember-500 bg-ink-950 p-3"
      data-testid="reject-form"
      onSubmit={(e) => {
        e.preventDefault();
        submit();
      }}
      onKeyDown={(e) => {
        if (e.ctrlKey || e.metaKey || e.altKey) {
          // Ctrl+Enter sends from inside the text box too.
          if (e.key === 'Enter' && (e.ctrlKey || e.metaKey)) {
            e.preventDefault();
            submit();
          }
          return;
        }
        if (isTextField(e.target)) return;
        const reason = /^[1-9]$/.test(e.key) ? REJECT_REASONS[Number(e.key) - 1] : undefined;
        if (reason) {
          e.preventDefault();
          toggle(reason);
        } else if (e.key === 'Enter' && !(e.target instanceof HTMLElement && e.target.dataset.cancel)) {
          // Enter confirms from anywhere in the form, a just-tapped reason chip included.
          e.preventDefault();
          submit();
        }
      }}
    >
      <div>
        <h3 id={titleId} className="text-lg text-ember-400">
          Reject {name}?
        </h3>
        <p className="text-sm text-ash">The rider sees the reason on their verification screen.</p>
      </div>
      <fieldset>
        <legend className="mb-2 text-xs font-bold tracking-wide text-smoke uppercase">Reason</legend>
        <div className="flex flex-wrap gap-2">
          {REJECT_REASONS.map((reason, i) => {
            const on = reasons.includes(reason);
            return (
              <button
                key={reason}
                type="button"
                aria-pressed={on}
                aria-keyshortcuts={String(i + 1)}
                onClick={() => toggle(reason)}
                className={`inline-flex min-h-10 items-center gap-1.5 rounded-full border-2 px-3 text-sm font-bold ${
                  on
                    ? 'border-ember-400 bg-ember-600 text-white'
                    : 'border-ink-600 bg-ink-850 text-bone hover:border-ember-400'
                }`}
              >
                <kbd className="rounded bg-ink-950/60 px-1 text-xs">{i + 1}</kbd>
                {reason}
              </button>
            );
          })}
        </div>
      </fieldset>
      <div>
        <label htmlFor={textId} className="mb-1 block text-xs font-bold tracking-wide text-smoke uppercase">
          Details (optional)
        </label>
        <textarea
          id={textId}
          value={text}
          rows={2}
          maxLength={VERIFICATION_NOTES_MAX}
          onChange={(e) => {
            setProblem(null);
            setText(e.target.value);
          }}
          aria-describedby={problem ? errorId : undefined}
          placeholder="e.g. Paid ₱2,500, the Lakan price is ₱2,700"
          className="w-full rounded-md border border-ink-600 bg-ink-900 px-2 py-1.5 text-sm text-bone placeholder:text-smoke focus:border-fire-500 focus:outline-none"
        />
      </div>
      {problem && (
        <p id={errorId} role="alert" className="text-sm font-bold text-ember-400">
          {problem}
        </p>
      )}
      <div className="flex flex-wrap gap-2">
        <button
          ref={confirmRef}
          type="submit"
          disabled={busy}
          className="inline-flex min-h-11 flex-1 items-center justify-center gap-2 whitespace-nowrap rounded-md bg-ember-600 px-4 font-bold text-white hover:bg-ember-500 disabled:opacity-60 sm:flex-none"
        >
          <X className="size-5" aria-hidden="true" />
          {busy ? 'Working...' : 'Reject rider'}
          <kbd className="hidden rounded bg-ink-950/30 px-1.5 text-xs sm:inline">Enter</kbd>
        </button>
        <button type="button" data-cancel="true" onClick={onCancel} className={buttonStyles('ghost', 'md', 'min-h-11')}>
          Cancel
          <kbd className="hidden rounded bg-ink-800 px-1.5 text-xs sm:inline">Esc</kbd>
        </button>
      </div>
    </form>
  );
}
