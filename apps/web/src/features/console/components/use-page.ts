import { useCallback, useState } from 'react';

/**
 * The page of a filtered console list. `resetting(set)` wraps a filter's setter so a new
 * filter starts at page 1: page 4 of the old results may not exist in the new ones.
 */
export function usePage() {
  const [page, setPage] = useState(1);
  const resetting = useCallback(
    <T>(set: (value: T) => void) =>
      (value: T) => {
        set(value);
        setPage(1);
      },
    [],
  );
  return { page, setPage, resetting };
}
