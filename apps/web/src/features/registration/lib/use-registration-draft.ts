import { useCallback, useEffect, useRef, useState } from 'react';
import { REGISTRATION_DRAFT_SLOT } from '../../../lib/drafts-db';
import { clearDraft, isEmptyDraft, loadDraft, type RegistrationDraft, saveDraft } from './registration-draft';

/** Typing settles for this long before the draft is written (a write per key would be wasteful). */
const SAVE_DELAY_MS = 400;

/**
 * Keeps `draft` on the device as the rider fills the form, and hands back a kept one once
 * on load. Writes are debounced while typing, and made at once when the page is hidden
 * (the moment before the browser may discard it: switching to the payment app, locking
 * the phone) or unloaded.
 */
export function useRegistrationDraft(
  draft: RegistrationDraft,
  onRestore: (draft: RegistrationDraft) => void,
  slot = REGISTRATION_DRAFT_SLOT,
) {
  const latest = useRef(draft);
  latest.current = draft;
  const restore = useRef(onRestore);
  restore.current = onRestore;
  // Nothing is written before the kept draft has been read, or it would be overwritten by the empty form.
  const [ready, setReady] = useState(false);
  const stopped = useRef(false);
  const timer = useRef<ReturnType<typeof setTimeout>>(undefined);
  const [restored, setRestored] = useState(false);

  useEffect(() => {
    let live = true;
    loadDraft(slot)
      .then((kept) => {
        // Whatever the rider already typed in the meantime wins over an older copy.
        if (live && kept && isEmptyDraft(latest.current)) {
          restore.current(kept);
          setRestored(true);
        }
      })
      .catch(() => undefined)
      .finally(() => {
        if (live) setReady(true);
      });
    return () => {
      live = false;
    };
  }, [slot]);

  const flush = useCallback(() => {
    clearTimeout(timer.current);
    if (stopped.current) return;
    void saveDraft(latest.current, slot).catch(() => undefined);
  }, [slot]);

  // biome-ignore lint/correctness/useExhaustiveDependencies: a new draft is what restarts the wait (flush reads it from the ref)
  useEffect(() => {
    if (!ready || stopped.current) return;
    clearTimeout(timer.current);
    timer.current = setTimeout(flush, SAVE_DELAY_MS);
    return () => clearTimeout(timer.current);
  }, [ready, draft, flush]);

  useEffect(() => {
    if (!ready) return;
    const onHide = () => {
      if (document.visibilityState === 'hidden') flush();
    };
    document.addEventListener('visibilitychange', onHide);
    window.addEventListener('pagehide', flush);
    return () => {
      document.removeEventListener('visibilitychange', onHide);
      window.removeEventListener('pagehide', flush);
    };
  }, [ready, flush]);

  /** Registered: no more writes, and the kept copy goes. */
  const finish = useCallback(async () => {
    stopped.current = true;
    clearTimeout(timer.current);
    setRestored(false);
    await clearDraft(slot).catch(() => undefined);
  }, [slot]);

  /** The rider chose to start over: the copy goes, and later typing starts a new one. */
  const discard = useCallback(async () => {
    clearTimeout(timer.current);
    setRestored(false);
    await clearDraft(slot).catch(() => undefined);
  }, [slot]);

  const dismissNotice = useCallback(() => setRestored(false), []);

  return { restored, finish, discard, dismissNotice };
}
