// SMS PIN, for staff who scan (qr_scan): the PIN that ends a text of scans sent when the
// scanner has no data (`CP3 42 57 PIN 4821`). A sender's number can be forged, so without it a
// text's scans are only kept for review (DESIGN.md §10). Set here, stored hashed, never shown.
import { SMS_PIN_PATTERN, SMS_PIN_RULE } from '@rally/shared/catalog/messages';
import { MessageSquareLock } from 'lucide-react';
import { type FormEvent, useId, useState } from 'react';
import { buttonStyles } from '../../../components/ui/button-styles';
import { inputStyles, labelStyles } from '../../../components/ui/field-styles';
import { call, client } from '../../../lib/api-client';
import { useOnline } from '../../../lib/offline/use-online';

/** What the PIN field says is wrong, in words for people ("pin must be ..." is the API's). */
const PIN_PROBLEM = 'Your PIN must be 4 to 8 digits.';

export function SmsPinForm() {
  const online = useOnline();
  const [pin, setPin] = useState('');
  const [busy, setBusy] = useState(false);
  const [problem, setProblem] = useState<string | null>(null);
  const [saved, setSaved] = useState(false);
  const inputId = useId();
  const hintId = useId();
  const problemId = useId();

  const onSubmit = async (event: FormEvent) => {
    event.preventDefault();
    if (busy) return;
    setSaved(false);
    if (!SMS_PIN_PATTERN.test(pin)) {
      setProblem(PIN_PROBLEM);
      return;
    }
    setBusy(true);
    setProblem(null);
    try {
      await call(client.PUT('/api/my/sms-pin', { body: { pin } }));
      // Shown nowhere after: the field empties and only says it is set.
      setPin('');
      setSaved(true);
    } catch (error) {
      const message = error instanceof Error ? error.message : '';
      setProblem(message === SMS_PIN_RULE ? PIN_PROBLEM : message || 'Failed to save your PIN. Try again.');
    } finally {
      setBusy(false);
    }
  };

  return (
    <section aria-labelledby="sms-pin-heading" data-testid="sms-pin" className="grid gap-3">
      <div>
        <h2 id="sms-pin-heading" className="flex items-center gap-2 text-2xl text-fire-300">
          <MessageSquareLock className="size-7 text-fire-400" aria-hidden="true" />
          SMS PIN
        </h2>
        <p id={hintId} className="mt-1 text-sm text-ash">
          No data at your station? Text scans to the rally’s SMS line ending with your PIN, e.g.{' '}
          <span className="font-mono text-bone">CP3 42 57 PIN 4821</span>. Without it they wait for review. 4 to 8
          digits; nobody can see it after you save it.
        </p>
      </div>
      <form onSubmit={onSubmit} noValidate className="flex flex-col gap-3 sm:flex-row sm:items-end">
        <div className="min-w-0 sm:w-56">
          <label htmlFor={inputId} className={labelStyles}>
            New PIN
          </label>
          <input
            id={inputId}
            name="smsPin"
            type="password"
            inputMode="numeric"
            autoComplete="off"
            maxLength={8}
            value={pin}
            onChange={(e) => {
              setPin(e.target.value.replace(/\D/g, ''));
              setProblem(null);
              setSaved(false);
            }}
            aria-invalid={problem ? true : undefined}
            aria-describedby={problem ? `${hintId} ${problemId}` : hintId}
            className={inputStyles}
          />
        </div>
        <button type="submit" disabled={busy || !online} className={buttonStyles('primary', 'md')}>
          {busy ? 'Saving...' : 'Save PIN'}
        </button>
      </form>
      {problem && (
        <p id={problemId} role="alert" className="text-sm font-bold text-ember-400">
          {problem}
        </p>
      )}
      {saved && (
        <p role="status" className="text-sm font-bold text-jade-400">
          Your SMS PIN is set.
        </p>
      )}
      {!online && <p className="text-sm text-ash">You are offline: set your PIN once you have a signal.</p>}
    </section>
  );
}
