import { useEffect, useMemo } from 'react';
import { useTakenNumbers } from '../api/registration-api';
import { RiderNumberPicker, type RiderNumberPickerProps } from './rider-number-picker';

interface RiderNumberFieldProps {
  value: number | null;
  onChange: (value: number | null) => void;
  /** Set once the registration went through: the number just claimed is then taken, and stays. */
  registered: boolean;
  error?: RiderNumberPickerProps['error'];
}

/**
 * The rider number picker with the numbers already taken. The list is asked for here, not by
 * the page: each change of a query re-renders its subscriber in one blocking task, and on a
 * slow phone re-rendering the whole form twice (asking, then the answer) was /register's
 * longest task after hydration.
 */
export function RiderNumberField({ value, onChange, registered, error }: RiderNumberFieldProps) {
  const taken = useTakenNumbers();
  const takenSet = useMemo(() => new Set(taken.data ?? []), [taken.data]);

  // A number someone else claimed meanwhile cannot stay selected.
  useEffect(() => {
    if (value !== null && takenSet.has(value) && !registered) onChange(null);
  }, [takenSet, value, registered, onChange]);

  return (
    <RiderNumberPicker
      value={value}
      onChange={onChange}
      taken={takenSet}
      loading={taken.isFetching}
      onRefresh={() => void taken.refetch()}
      error={error}
    />
  );
}
