// A burst of events (a marshal's phone syncing 500 scans, a valley of riders flushing their
// buffers) asks for many re-reads at once: they are gathered for a quarter second so the
// queries refetch once, not once per event.
import { type QueryKey, useQueryClient } from '@tanstack/react-query';
import { useCallback, useEffect, useRef } from 'react';

const GATHER_MS = 250;

/** A function that marks `queryKey`'s queries stale, at most once per quarter second. */
export function useGatheredInvalidate(queryKey: QueryKey): () => void {
  const queryClient = useQueryClient();
  const timer = useRef<ReturnType<typeof setTimeout> | null>(null);
  const key = JSON.stringify(queryKey);
  const invalidate = useCallback(() => {
    if (timer.current) return;
    timer.current = setTimeout(() => {
      timer.current = null;
      void queryClient.invalidateQueries({ queryKey: JSON.parse(key) as QueryKey });
    }, GATHER_MS);
  }, [queryClient, key]);
  useEffect(
    () => () => {
      if (timer.current) clearTimeout(timer.current);
    },
    [],
  );
  return invalidate;
}
