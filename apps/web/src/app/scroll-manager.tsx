import { useEffect } from 'react';
import { useLocation } from 'react-router';

/**
 * What the data router's <ScrollRestoration> would do, for the declarative router: a new
 * page starts at the top, and a #hash link scrolls to its section.
 */
export function ScrollManager() {
  const { pathname, hash } = useLocation();
  // biome-ignore lint/correctness/useExhaustiveDependencies: pathname is the trigger: a new page scrolls to the top
  useEffect(() => {
    if (hash) {
      // Wait a frame so the target section exists after a route change.
      const frame = requestAnimationFrame(() => document.getElementById(hash.slice(1))?.scrollIntoView());
      return () => cancelAnimationFrame(frame);
    }
    window.scrollTo(0, 0);
  }, [pathname, hash]);
  return null;
}
