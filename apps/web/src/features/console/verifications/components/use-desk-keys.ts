// Keyboard shortcuts of the verification desk, listened for on the window so they work
// from the list and from inside the open receipt alike. They never fire while the user
// types in a field, nor with Ctrl/Alt/Meta held (browser and screen-reader commands).
import { useEffect, useRef } from 'react';

export interface DeskKeyActions {
  next: () => void;
  previous: () => void;
  open: () => void;
  approve: () => void;
  reject: () => void;
  zoom: (direction: 1 | -1) => void;
  rotate: () => void;
  resetView: () => void;
  shortcuts: () => void;
}

function isTyping(target: EventTarget | null): boolean {
  if (!(target instanceof HTMLElement)) return false;
  if (target.isContentEditable) return true;
  if (target instanceof HTMLTextAreaElement || target instanceof HTMLSelectElement) return true;
  return target instanceof HTMLInputElement && !['checkbox', 'radio', 'button', 'submit'].includes(target.type);
}

/** Enter opens the receipt only when it would not also press a focused control. */
function isControl(target: EventTarget | null): boolean {
  return target instanceof HTMLElement && !!target.closest('button, a[href], summary, [role="button"]');
}

export function useDeskKeys(
  actions: DeskKeyActions,
  state: { enabled: boolean; deskOpen: boolean; confirming: boolean },
) {
  // The latest actions, read when a key arrives, so the listener is attached once.
  const ref = useRef({ actions, state });
  ref.current = { actions, state };

  useEffect(() => {
    const onKey = (event: KeyboardEvent) => {
      const { actions: a, state: s } = ref.current;
      if (!s.enabled || event.defaultPrevented) return;
      if (event.ctrlKey || event.metaKey || event.altKey) return;
      if (isTyping(event.target)) return;
      // A confirmation owns its keys (Enter confirms, digits pick reasons, Escape cancels).
      if (s.confirming) return;
      const key = event.key;
      let handled = true;
      if (key === '?') a.shortcuts();
      else if (key === 'j' || (s.deskOpen && (key === 'ArrowDown' || key === 'ArrowRight'))) a.next();
      else if (key === 'k' || (s.deskOpen && (key === 'ArrowUp' || key === 'ArrowLeft'))) a.previous();
      else if (key === 'o' || (key === 'Enter' && !s.deskOpen && !isControl(event.target))) a.open();
      else if (key === 'a') a.approve();
      else if (key === 'r') a.reject();
      else if (key === 'R') a.rotate();
      else if (s.deskOpen && (key === '+' || key === '=')) a.zoom(1);
      else if (s.deskOpen && (key === '-' || key === '_')) a.zoom(-1);
      else if (s.deskOpen && key === '0') a.resetView();
      else handled = false;
      if (handled) event.preventDefault();
    };
    window.addEventListener('keydown', onKey);
    return () => window.removeEventListener('keydown', onKey);
  }, []);
}
