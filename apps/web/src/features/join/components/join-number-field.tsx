import { formatRallyMoment } from '@rally/shared/catalog/editions';
import { LockKeyhole } from 'lucide-react';
import { useEffect, useMemo } from 'react';
import { formatRiderNumber } from '../../../lib/format';
import { useTakenNumbers } from '../../registration/api/registration-api';
import { RiderNumberPicker, type RiderNumberPickerProps } from '../../registration/components/rider-number-picker';

interface JoinNumberFieldProps {
  value: number | null;
  onChange: (value: number | null) => void;
  /** The rider's previous number while the edition holds it for them. */
  held: { number: number; until: string } | null;
  error?: RiderNumberPickerProps['error'];
}

/**
 * The registration's number picker, with the number held for this rider offered first: the
 * taken list shows it as taken to everyone, so here it is taken out of that list.
 */
export function JoinNumberField({ value, onChange, held, error }: JoinNumberFieldProps) {
  const taken = useTakenNumbers();
  const heldNumber = held?.number ?? null;
  const takenSet = useMemo(() => {
    const set = new Set(taken.data ?? []);
    if (heldNumber !== null) set.delete(heldNumber);
    return set;
  }, [taken.data, heldNumber]);

  // A number someone else claimed meanwhile cannot stay selected.
  useEffect(() => {
    if (value !== null && takenSet.has(value)) onChange(null);
  }, [takenSet, value, onChange]);

  return (
    <div className="space-y-4">
      {held && (
        <div
          className="flex flex-col gap-3 rounded-lg border-2 border-gold-400 bg-ink-950 p-4 sm:flex-row sm:items-center"
          data-testid="held-number"
        >
          <LockKeyhole className="hidden size-6 shrink-0 text-gold-300 sm:block" aria-hidden="true" />
          <p className="flex-1 font-bold text-bone">
            Your number <span className="text-gold-300">#{formatRiderNumber(held.number)}</span> is held for you until{' '}
            {formatRallyMoment(held.until)}.
          </p>
          {value !== held.number && (
            <button
              type="button"
              onClick={() => onChange(held.number)}
              className="min-h-11 self-start rounded-md border-2 border-gold-400 px-4 font-display tracking-wider text-gold-300 uppercase hover:bg-gold-400/10 sm:self-auto"
            >
              Take #{formatRiderNumber(held.number)}
            </button>
          )}
        </div>
      )}
      <RiderNumberPicker
        value={value}
        onChange={onChange}
        taken={takenSet}
        loading={taken.isFetching}
        onRefresh={() => void taken.refetch()}
        error={error}
      />
    </div>
  );
}
