import { CircleAlert } from 'lucide-react';
import { useId } from 'react';
import { type ErrorField, errorId } from '../lib/registration-errors';

interface ErrorSummaryProps {
  problems: Array<{ field: ErrorField; message: string }>;
  onSelect: (field: ErrorField) => void;
}

/**
 * Every problem of the form in one list above it, each a link to its field: on a long
 * form on a phone, the rider sees at once how much is left to fix and can jump to each.
 */
export function ErrorSummary({ problems, onSelect }: ErrorSummaryProps) {
  const headingId = useId();
  const count = problems.length;
  return (
    <section
      aria-labelledby={headingId}
      className="rounded-xl border-2 border-ember-500 bg-ink-900 p-4 shadow-lg shadow-black/40 sm:p-6"
      data-testid="error-summary"
    >
      <h2 id={headingId} className="flex items-center gap-2 text-2xl text-ember-400 sm:text-3xl">
        <CircleAlert className="size-6 shrink-0" aria-hidden="true" />
        {count === 1 ? '1 thing to fix' : `${count} things to fix`}
      </h2>
      <ul className="mt-3 space-y-1.5">
        {problems.map(({ field, message }) => (
          <li key={field}>
            <a
              href={`#${errorId(field)}`}
              onClick={(event) => {
                event.preventDefault();
                onSelect(field);
              }}
              className="inline-flex min-h-8 items-center font-bold text-bone underline decoration-ember-400 underline-offset-4 hover:text-fire-300"
            >
              {message}
            </a>
          </li>
        ))}
      </ul>
    </section>
  );
}
