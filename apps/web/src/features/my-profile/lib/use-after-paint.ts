import { useEffect, useState } from 'react';

/**
 * False on the first render, true once the browser has painted it. For downloads the first
 * screen does not need (the rider's full-size photo, often over 100 KB): started later, they
 * leave a slow link to the page's code and its first answers.
 */
export function useAfterPaint(): boolean {
  const [painted, setPainted] = useState(false);
  useEffect(() => {
    let timer: ReturnType<typeof setTimeout> | undefined;
    // The frame callback runs just before the paint; the task it queues runs after it.
    const frame = requestAnimationFrame(() => {
      timer = setTimeout(() => setPainted(true), 0);
    });
    return () => {
      cancelAnimationFrame(frame);
      if (timer !== undefined) clearTimeout(timer);
    };
  }, []);
  return painted;
}
