// Inline kit notes, saved NOTES_AUTOSAVE_MS after the last keystroke. A save
// still pending when the row goes away (page change, refresh) is sent at once.
import { NOTES_AUTOSAVE_MS } from '@rally/shared/catalog/console';
import { KIT_NOTES_MAX } from '@rally/shared/contracts/kit-tracking';
import { useQueryClient } from '@tanstack/react-query';
import { useEffect, useRef, useState } from 'react';
import { toast } from '../../../../lib/toast';
import { usePastEdition } from '../../components/past-edition-context';
import { kitKeys, updateKit } from '../api/kit-tracker-api';

type SaveState = 'idle' | 'pending' | 'saving' | 'saved';

export function NotesCell({ userId, name, notes }: { userId: string; name: string; notes: string | null }) {
  const [value, setValue] = useState(notes ?? '');
  const [state, setState] = useState<SaveState>('idle');
  const timer = useRef<ReturnType<typeof setTimeout> | undefined>(undefined);
  const pending = useRef<string | null>(null);
  const focused = useRef(false);
  const queryClient = useQueryClient();
  const past = usePastEdition() !== null;

  // Take the server's notes when nobody is typing here (e.g. after a refresh).
  useEffect(() => {
    if (!focused.current && pending.current === null) setValue(notes ?? '');
  }, [notes]);

  const save = (text: string) => {
    pending.current = null;
    setState('saving');
    updateKit(userId, { notes: text })
      .then(() => {
        setState('saved');
        // The details modal and "last updated" read the list; the field itself keeps what is typed.
        void queryClient.invalidateQueries({ queryKey: kitKeys.all });
      })
      .catch(() => {
        setState('idle');
        toast.error('Failed to update notes');
      });
  };

  // On unmount only: flush what was typed.
  // biome-ignore lint/correctness/useExhaustiveDependencies: save reads refs and the row's fixed id only
  useEffect(
    () => () => {
      clearTimeout(timer.current);
      if (pending.current !== null) save(pending.current);
    },
    [],
  );

  const onChange = (text: string) => {
    setValue(text);
    pending.current = text;
    setState('pending');
    clearTimeout(timer.current);
    timer.current = setTimeout(() => {
      if (pending.current !== null) save(pending.current);
    }, NOTES_AUTOSAVE_MS);
  };

  return (
    <div className="min-w-36">
      <textarea
        value={value}
        onChange={(e) => onChange(e.target.value)}
        onFocus={() => {
          focused.current = true;
        }}
        onBlur={() => {
          focused.current = false;
        }}
        rows={2}
        maxLength={KIT_NOTES_MAX}
        readOnly={past}
        placeholder={past ? '' : 'Add notes...'}
        aria-label={`Kit notes for ${name}`}
        className="block w-full resize-y rounded-md border border-ink-600 bg-ink-950 px-2 py-1.5 text-sm text-bone placeholder:text-smoke focus:border-fire-500 focus:outline-none focus-visible:outline-none focus:ring-2 focus:ring-fire-500/40"
      />
      <p className="mt-0.5 h-4 text-[0.7rem] text-smoke" aria-live="polite">
        {state === 'saving' ? 'Saving...' : state === 'saved' ? 'Saved' : ''}
      </p>
    </div>
  );
}
