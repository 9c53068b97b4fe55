// The agreement to the rally's terms, with the way to read them: the registration asks for
// it, and so does a returning rider's entry (each year's rally is its own agreement).
import { ScrollText, ShieldCheck } from 'lucide-react';
import { useState } from 'react';
import { FieldError } from '../../../components/ui/text-field';
import { useCurrentNotice } from '../../privacy/api/notice-api';
import { errorId } from '../lib/registration-errors';
import { TermsModal } from './terms-modal';

export function TermsAgreement({
  agreed,
  onAgreed,
  error,
  action = 'registering',
}: {
  agreed: boolean;
  onAgreed: (agreed: boolean) => void;
  error: string | undefined;
  /** The line naming the notice: "By registering you accept..." or "By joining...". */
  action?: 'registering' | 'joining';
}) {
  const [termsOpen, setTermsOpen] = useState(false);
  // The version shown here is the one the form sends as consentVersion (DESIGN.md §12).
  const notice = useCurrentNotice().data;
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
        <p data-testid="notice-line" className="mt-3 flex items-start gap-2 text-sm text-ash">
          <ShieldCheck className="mt-0.5 size-4 shrink-0 text-fire-400" aria-hidden="true" />
          <span>
            By {action} you accept the{' '}
            <a
              href="/privacy"
              target="_blank"
              rel="noopener"
              className="font-bold text-fire-300 underline underline-offset-4 hover:text-fire-400"
            >
              Privacy Notice
            </a>
            {notice ? ` (version ${notice.version}).` : '.'}
          </span>
        </p>
        {error && <FieldError id={errorId('agreedToTerms')}>{error}</FieldError>}
      </div>
      <TermsModal
        open={termsOpen}
        termsText={notice?.terms.text}
        onClose={() => setTermsOpen(false)}
        onAgree={() => {
          onAgreed(true);
          setTermsOpen(false);
        }}
      />
    </>
  );
}
