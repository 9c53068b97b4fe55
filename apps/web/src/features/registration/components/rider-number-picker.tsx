import {
  RIDER_NUMBER_MAX,
  RIDER_NUMBER_MIN,
  RIDER_NUMBER_RANGES,
  RIDER_NUMBERS_PER_PAGE,
} from '@rally/shared/catalog/rider-number';
import { ChevronLeft, ChevronRight, RefreshCw, Search } from 'lucide-react';
import { useId, useMemo, useState } from 'react';
import { inputStyles } from '../../../components/ui/field-styles';
import { FieldError } from '../../../components/ui/text-field';
import { formatRiderNumber } from '../../../lib/format';

const ALL_NUMBERS = Array.from({ length: RIDER_NUMBER_MAX - RIDER_NUMBER_MIN + 1 }, (_, i) => RIDER_NUMBER_MIN + i);

export interface RiderNumberPickerProps {
  value: number | null;
  onChange: (riderNumber: number) => void;
  taken: ReadonlySet<number>;
  loading: boolean;
  onRefresh: () => void;
  error?: { message: string; id: string };
}

/** The quick-jump range and page that show `value` (the first ones without it). */
export function startOf(value: number | null): { rangeIndex: number; page: number } {
  const rangeIndex = value === null ? -1 : RIDER_NUMBER_RANGES.findIndex((r) => value >= r.from && value <= r.to);
  const range = RIDER_NUMBER_RANGES[rangeIndex];
  if (value === null || !range) return { rangeIndex: 0, page: 0 };
  return { rangeIndex, page: Math.floor((value - range.from) / RIDER_NUMBERS_PER_PAGE) };
}

export function RiderNumberPicker({ value, onChange, taken, loading, onRefresh, error }: RiderNumberPickerProps) {
  const searchId = useId();
  // Opens where the number already chosen is (a kept draft, a returning rider's held number).
  const [start] = useState(() => startOf(value));
  const [rangeIndex, setRangeIndex] = useState(start.rangeIndex);
  const [search, setSearch] = useState('');
  const [availableOnly, setAvailableOnly] = useState(false);
  const [page, setPage] = useState(start.page);

  const query = search.trim();
  // A search looks through all numbers; otherwise the quick-jump range limits the list.
  const numbers = useMemo(() => {
    const range = RIDER_NUMBER_RANGES[rangeIndex];
    return ALL_NUMBERS.filter(
      (n) =>
        (query ? String(n).includes(query) : range !== undefined && n >= range.from && n <= range.to) &&
        (!availableOnly || !taken.has(n)),
    );
  }, [rangeIndex, query, availableOnly, taken]);

  const pageCount = Math.max(1, Math.ceil(numbers.length / RIDER_NUMBERS_PER_PAGE));
  const currentPage = Math.min(page, pageCount - 1);
  const shown = numbers.slice(currentPage * RIDER_NUMBERS_PER_PAGE, (currentPage + 1) * RIDER_NUMBERS_PER_PAGE);
  const availableCount = ALL_NUMBERS.length - ALL_NUMBERS.filter((n) => taken.has(n)).length;

  return (
    <div className="space-y-4">
      <div className="flex flex-wrap items-center justify-between gap-3 rounded-lg bg-ink-950 px-4 py-3">
        <p className="text-sm text-ash">
          Your number:{' '}
          <span className="font-display text-3xl text-fire-400" data-testid="selected-rider-number">
            {value === null ? 'NONE' : `#${formatRiderNumber(value)}`}
          </span>
        </p>
        <p className="text-sm text-ash">
          <span className="font-bold text-bone">{availableCount}</span> of {ALL_NUMBERS.length} available
        </p>
      </div>
      {error && <FieldError id={error.id}>{error.message}</FieldError>}

      <fieldset>
        <legend className="mb-2 text-sm font-bold tracking-wide text-ash uppercase">Jump to range</legend>
        <div className="grid grid-cols-3 gap-2 sm:grid-cols-5 lg:grid-cols-10">
          {RIDER_NUMBER_RANGES.map((range, i) => (
            <button
              key={range.label}
              type="button"
              aria-pressed={!query && i === rangeIndex}
              onClick={() => {
                setRangeIndex(i);
                setSearch('');
                setPage(0);
              }}
              className={`min-h-10 rounded-md border px-1 text-sm font-bold transition-colors ${
                !query && i === rangeIndex
                  ? 'border-fire-500 bg-fire-500 text-ink-950'
                  : 'border-ink-600 bg-ink-850 text-ash hover:border-fire-500 hover:text-bone'
              }`}
            >
              {range.label}
            </button>
          ))}
        </div>
      </fieldset>

      <div className="flex flex-col gap-3 sm:flex-row sm:items-end">
        <div className="flex-1">
          <label htmlFor={searchId} className="mb-1.5 block text-sm font-bold tracking-wide text-ash uppercase">
            Search numbers
          </label>
          <div className="relative">
            <Search className="pointer-events-none absolute top-3.5 left-3 size-5 text-smoke" aria-hidden="true" />
            <input
              id={searchId}
              type="search"
              inputMode="numeric"
              placeholder="e.g. 7 finds 7, 17, 70..."
              value={search}
              onChange={(e) => {
                setSearch(e.target.value.replace(/\D/g, '').slice(0, 4));
                setPage(0);
              }}
              className={`${inputStyles} pl-10`}
            />
          </div>
        </div>
        <label className="flex min-h-12 cursor-pointer items-center gap-2 rounded-md border-2 border-ink-600 px-3 text-sm font-bold text-ash">
          <input
            type="checkbox"
            checked={availableOnly}
            onChange={(e) => {
              setAvailableOnly(e.target.checked);
              setPage(0);
            }}
            className="size-5 accent-fire-500"
          />
          Available only
        </label>
        <button
          type="button"
          onClick={onRefresh}
          disabled={loading}
          className="inline-flex min-h-12 items-center justify-center gap-2 rounded-md border-2 border-ink-600 px-3 text-sm font-bold text-ash hover:border-fire-500 hover:text-bone disabled:opacity-60"
        >
          <RefreshCw className={`size-4 ${loading ? 'animate-spin' : ''}`} aria-hidden="true" />
          Refresh
        </button>
      </div>

      <ul className="flex flex-wrap gap-x-4 gap-y-1 text-xs text-ash" aria-label="Number legend">
        <li className="flex items-center gap-1.5">
          <span className="size-3 rounded-sm bg-fire-500" aria-hidden="true" /> Selected
        </li>
        <li className="flex items-center gap-1.5">
          <span className="size-3 rounded-sm border border-ink-600 bg-ink-800" aria-hidden="true" /> Available
        </li>
        <li className="flex items-center gap-1.5">
          <span className="size-3 rounded-sm bg-ember-700" aria-hidden="true" /> Taken
        </li>
      </ul>

      {shown.length === 0 ? (
        <p className="rounded-md bg-ink-950 px-4 py-6 text-center text-ash">No numbers match. Try another search.</p>
      ) : (
        <fieldset
          className="grid grid-cols-5 gap-1.5 sm:grid-cols-10"
          aria-invalid={error ? true : undefined}
          aria-describedby={error?.id}
        >
          <legend className="sr-only">Rider numbers</legend>
          {shown.map((n) => {
            const isTaken = taken.has(n);
            const selected = n === value;
            return (
              <button
                key={n}
                type="button"
                disabled={isTaken}
                aria-pressed={selected}
                data-rider-number={n}
                onClick={() => onChange(n)}
                className={`relative min-h-11 rounded-md border font-mono text-sm font-bold transition-colors ${
                  selected
                    ? 'border-gold-400 bg-fire-500 text-ink-950'
                    : isTaken
                      ? 'cursor-not-allowed border-ember-700 bg-ember-700/40 text-ash line-through'
                      : 'border-ink-600 bg-ink-800 text-bone hover:border-fire-500 hover:bg-ink-700'
                }`}
              >
                {/* The name is the number as shown ("007"), so a rider who says or types what
                    they see finds the button (WCAG 2.5.3); "taken" is heard, the strike-through seen. */}
                {formatRiderNumber(n)}
                {isTaken && <span className="sr-only">taken</span>}
              </button>
            );
          })}
        </fieldset>
      )}

      <nav aria-label="Rider number pages" className="flex items-center justify-between gap-2">
        <button
          type="button"
          onClick={() => setPage(currentPage - 1)}
          disabled={currentPage === 0}
          className="inline-flex min-h-11 items-center gap-1 rounded-md px-3 text-sm font-bold text-ash hover:bg-ink-800 hover:text-bone disabled:opacity-40"
        >
          <ChevronLeft className="size-4" aria-hidden="true" /> Prev
        </button>
        <p className="text-sm text-ash" aria-live="polite">
          Page {currentPage + 1} of {pageCount}
        </p>
        <button
          type="button"
          onClick={() => setPage(currentPage + 1)}
          disabled={currentPage >= pageCount - 1}
          className="inline-flex min-h-11 items-center gap-1 rounded-md px-3 text-sm font-bold text-ash hover:bg-ink-800 hover:text-bone disabled:opacity-40"
        >
          Next <ChevronRight className="size-4" aria-hidden="true" />
        </button>
      </nav>
    </div>
  );
}
