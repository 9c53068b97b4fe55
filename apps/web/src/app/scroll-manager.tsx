import { useEffect, useRef } from 'react';
import { useLocation } from 'react-router';

/**
 * What the data router's <ScrollRestoration> would do, for the declarative router: a new
 * page starts at the top, and a #hash link scrolls to its section.
 */
export function ScrollManager() {
  const { pathname, hash } = useLocation();
  const firstRun = useRef(true);
  // biome-ignore lint/correctness/useExhaustiveDependencies: pathname is the trigger: a new page scrolls to the top
  useEffect(() => {
    const initial = firstRun.current;
    firstRun.current = false;
    if (hash) {
      // Wait a frame so the target section exists after a route change.
      const frame = requestAnimationFrame(() => document.getElementById(hash.slice(1))?.scrollIntoView());
      return () => cancelAnimationFrame(frame);
    }
    // On the first load the browser has placed the page itself (at the top, or where a reload
    // left it); the prerendered landing page may even have been scrolled before it hydrated.
    if (!initial) window.scrollTo(0, 0);
  }, [pathname, hash]);
  return null;
}
