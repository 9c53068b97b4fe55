// The tracking consent as a rider reads and ticks it: the pass's tracking card and the
// privacy section's switch show the same text and the same box (one consent, one wording).
import { TRACKING_CONSENT_TEXT } from '@rally/shared/catalog/tracking';
import { MapPinned } from 'lucide-react';
import { useId } from 'react';

export function TrackingConsent({
  agreed,
  onAgreed,
  boxClassName = 'bg-ink-900',
}: {
  agreed: boolean;
  onAgreed: (agreed: boolean) => void;
  /** The box's background, against what it sits on. */
  boxClassName?: string;
}) {
  const checkId = useId();
  return (
    <>
      <ul className="grid gap-2 text-bone" data-testid="tracking-consent">
        {TRACKING_CONSENT_TEXT.map((line) => (
          <li key={line} className="flex gap-2">
            <MapPinned className="mt-0.5 size-5 shrink-0 text-jade-400" aria-hidden="true" />
            <span>{line}</span>
          </li>
        ))}
      </ul>
      <label
        htmlFor={checkId}
        className={`flex cursor-pointer items-start gap-3 rounded-lg border-2 border-ink-600 ${boxClassName} p-3 font-bold text-bone has-checked:border-jade-400`}
      >
        <input
          id={checkId}
          type="checkbox"
          checked={agreed}
          onChange={(e) => onAgreed(e.target.checked)}
          className="mt-0.5 size-6 shrink-0 accent-jade-600"
        />
        I have read this and agree: send my position to the rally while I ride.
      </label>
    </>
  );
}
