// One optional purpose of the Privacy tab: its title and what it means, where it stands now
// (the rider's choice, or the rally's default when they never chose), and its switch.
import { CONSENT_PURPOSE_LABELS, type ConsentPurpose } from '@rally/shared/catalog/privacy';
import { useId } from 'react';
import { formatDate } from '../../../lib/format';

export function ConsentSwitch({
  purpose,
  given,
  chosen,
  at,
  screenText,
  busy,
  disabled,
  onChange,
}: {
  purpose: ConsentPurpose;
  given: boolean;
  chosen: boolean;
  at: string | null;
  screenText: string | null;
  busy: boolean;
  disabled: boolean;
  onChange: (given: boolean) => void;
}) {
  const id = useId();
  const { title, detail } = CONSENT_PURPOSE_LABELS[purpose];
  const state = busy
    ? 'Saving...'
    : chosen
      ? `${given ? 'On' : 'Off'}${at ? ` since ${formatDate(at)}` : ''}${screenText ? ` ${screenText}` : ''}`
      : `${given ? 'On' : 'Off'} (default: you have not chosen)`;
  return (
    <div
      data-testid={`consent-${purpose}`}
      className="flex items-center gap-3 rounded-lg border border-ink-700 bg-ink-850 px-4 py-3"
    >
      <div className="min-w-0 flex-1">
        <p id={`${id}-label`} className="font-display text-lg tracking-wide text-bone">
          {title}
        </p>
        <p id={`${id}-hint`} className="text-sm text-ash">
          {detail}
        </p>
        <p
          id={`${id}-state`}
          data-testid="consent-state"
          className={`mt-1 text-sm font-bold ${given ? 'text-jade-400' : 'text-smoke'}`}
        >
          {state}
        </p>
      </div>
      <button
        type="button"
        role="switch"
        aria-checked={given}
        aria-labelledby={`${id}-label`}
        aria-describedby={`${id}-hint ${id}-state`}
        disabled={disabled}
        onClick={() => onChange(!given)}
        className="flex min-h-11 min-w-14 shrink-0 items-center justify-center rounded-full disabled:cursor-not-allowed disabled:opacity-60"
      >
        <span
          aria-hidden="true"
          className={`flex h-7 w-12 items-center rounded-full border-2 px-0.5 transition-colors ${
            given ? 'justify-end border-fire-500 bg-fire-500' : 'justify-start border-ink-600 bg-ink-800'
          }`}
        >
          <span className={`size-5 rounded-full ${given ? 'bg-ink-950' : 'bg-ash'}`} />
        </span>
      </button>
    </div>
  );
}
