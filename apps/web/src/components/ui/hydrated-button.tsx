import type { ComponentProps } from 'react';
import { useHydrated } from '../../lib/use-hydrated';

/**
 * A button that stays disabled until React owns the page the server drew (see useHydrated):
 * before that a tap would do nothing at all. The switch re-renders this button alone. A
 * screen that read useHydrated itself would render again whole, in one blocking task (a
 * useSyncExternalStore switch cannot be sliced): on a slow phone that was among the longest
 * tasks of My Profile and the public profile after hydration.
 */
export function HydratedButton({ disabled, type = 'button', ...props }: ComponentProps<'button'>) {
  const hydrated = useHydrated();
  return <button type={type} disabled={!hydrated || disabled} {...props} />;
}
