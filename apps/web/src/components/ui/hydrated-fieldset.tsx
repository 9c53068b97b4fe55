import type { ReactNode } from 'react';
import { useHydrated } from '../../lib/use-hydrated';

/**
 * A fieldset that stays disabled until React owns the page the server drew (see
 * useHydrated). The switch re-renders this element alone: its children were made by the
 * parent, so React keeps them as they are. If the parent read useHydrated itself, the whole
 * form would render again in one blocking task (a useSyncExternalStore switch cannot be
 * sliced), which on a slow phone was /register's longest task after hydration.
 */
export function HydratedFieldset({ className, children }: { className?: string; children: ReactNode }) {
  const hydrated = useHydrated();
  return (
    <fieldset disabled={!hydrated} className={className}>
      {children}
    </fieldset>
  );
}
