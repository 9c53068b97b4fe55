// The agreement to the rally's terms, with the way to read them: the registration asks for
// it, and so does a returning rider's entry (each year's rally is its own agreement).
import { ScrollText } from 'lucide-react';
import { useState } from 'react';
import { FieldError } from '../../../components/ui/text-field';
import { errorId } from '../lib/registration-errors';
import { TermsModal } from './terms-modal';

export function TermsAgreement({
  agreed,
  onAgreed,
  error,
}: {
  agreed: boolean;
  onAgreed: (agreed: boolean) => void;
  error: string | undefined;
}) {
  const [termsOpen, setTermsOpen] = useState(false);
  return (
    <>
      <div className="rounded-xl border border-ink-700 bg-ink-900 p-4 sm:p-6">
        <div className="flex flex-col gap-3 sm:flex-row sm:items-center sm:justify-between">
          <label className="flex cursor-pointer items-start gap-3 text-bone">
            <input
              type="checkbox"
              name="agreedToTerms"
              aria-invalid={error ? true : undefined}
              aria-describedby={error ? errorId('agreedToTerms') : undefined}
              checked={agreed}
              onChange={(e) => onAgreed(e.target.checked)}
              className="mt-0.5 size-6 shrink-0 accent-fire-500"
            />
            <span>I have read and agree to the Terms and Conditions of the rally.</span>
          </label>
          <button
            type="button"
            onClick={() => setTermsOpen(true)}
            className="inline-flex min-h-11 shrink-0 items-center gap-2 self-start rounded-md px-2 font-bold text-fire-300 underline underline-offset-4 hover:text-fire-400 sm:self-auto"
          >
            <ScrollText className="size-5" aria-hidden="true" />
            Read Terms and Conditions
          </button>
        </div>
        {error && <FieldError id={errorId('agreedToTerms')}>{error}</FieldError>}
      </div>
      <TermsModal
        open={termsOpen}
        onClose={() => setTermsOpen(false)}
        onAgree={() => {
          onAgreed(true);
          setTermsOpen(false);
        }}
      />
    </>
  );
}
