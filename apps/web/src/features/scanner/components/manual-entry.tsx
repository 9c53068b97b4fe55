// For the torn or muddy sticker: the number printed on the bike and vest.
import { Keyboard } from 'lucide-react';
import { type FormEvent, useId, useState } from 'react';
import { buttonStyles } from '../../../components/ui/button-styles';
import { unlockAudio } from '../lib/feedback';
import { parseTypedNumber, type RiderToken } from '../lib/rider-token';

export function ManualEntry({ onToken }: { onToken: (token: RiderToken) => void }) {
  const id = useId();
  const [value, setValue] = useState('');
  const [error, setError] = useState<string | null>(null);
  const submit = (event: FormEvent) => {
    event.preventDefault();
    unlockAudio();
    const token = parseTypedNumber(value);
    if (!token) {
      setError('Type the rider number (digits only).');
      return;
    }
    setError(null);
    setValue('');
    onToken(token);
  };
  return (
    <form onSubmit={submit} className="rounded-xl border-2 border-ink-600 bg-ink-900 p-3" noValidate>
      <label
        htmlFor={id}
        className="mb-2 flex items-center gap-2 font-display text-xl tracking-wider text-bone uppercase"
      >
        <Keyboard className="size-6 text-fire-500" aria-hidden="true" />
        Rider number
      </label>
      <div className="flex gap-2">
        <input
          id={id}
          value={value}
          onChange={(e) => setValue(e.target.value)}
          inputMode="numeric"
          autoComplete="off"
          enterKeyHint="done"
          placeholder="e.g. 42"
          aria-describedby={error ? `${id}-error` : undefined}
          className="min-h-14 w-full min-w-0 rounded-md border-2 border-ink-600 bg-ink-950 px-4 font-display text-3xl tracking-wider text-bone placeholder:text-smoke focus:border-fire-500 focus:outline-none"
        />
        <button type="submit" className={buttonStyles('primary', 'lg', 'shrink-0')}>
          Record
        </button>
      </div>
      {error && (
        <p id={`${id}-error`} role="alert" className="mt-2 text-lg font-bold text-ember-400">
          {error}
        </p>
      )}
    </form>
  );
}
