import { useSyncExternalStore } from 'react';

const WIDE = '(min-width: 640px)';

/** True from 640 px: the board renders one layout (cards below, a table above), never both. */
export function useWide(): boolean {
  return useSyncExternalStore(
    (onChange) => {
      const media = window.matchMedia(WIDE);
      media.addEventListener('change', onChange);
      return () => media.removeEventListener('change', onChange);
    },
    () => window.matchMedia(WIDE).matches,
    () => true,
  );
}
