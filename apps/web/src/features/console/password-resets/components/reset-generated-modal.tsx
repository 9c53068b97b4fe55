import type { ResetLinkResult } from '@rally/shared/contracts/password-resets';
import { CircleCheck, Copy, ExternalLink } from 'lucide-react';
import { useId, useRef } from 'react';
import { buttonStyles } from '../../../../components/ui/button-styles';
import { inputStyles, labelStyles } from '../../../../components/ui/field-styles';
import { Modal } from '../../../../components/ui/modal';
import { toast } from '../../../../lib/toast';
import { CloseFooter } from '../../components/detail-field';

export function ResetGeneratedModal({ result, onClose }: { result: ResetLinkResult | null; onClose: () => void }) {
  const inputId = useId();
  const input = useRef<HTMLInputElement>(null);

  const copy = async () => {
    if (!result) return;
    try {
      await navigator.clipboard.writeText(result.resetUrl);
    } catch {
      // Older browsers and non-secure origins: copy from the selected field instead.
      input.current?.select();
      document.execCommand('copy');
    }
    toast.success('Reset link copied to clipboard!');
  };

  const expires = result
    ? new Date(result.expiresAt).toLocaleString('en-PH', { dateStyle: 'medium', timeStyle: 'short' })
    : '';

  return (
    <Modal
      open={result !== null}
      onClose={onClose}
      title="Password Reset Generated"
      className="max-w-xl"
      footer={<CloseFooter onClose={onClose} />}
    >
      {result && (
        <div className="space-y-4">
          <p className="flex items-start gap-2 rounded-md border border-jade-400 bg-jade-600/15 px-3 py-2 text-bone">
            <CircleCheck className="mt-0.5 size-5 shrink-0 text-jade-400" aria-hidden="true" />
            <span>
              A password reset link has been generated for <strong>{result.user.fullName}</strong> ({result.user.email}
              ).
            </span>
          </p>
          <div>
            <label htmlFor={inputId} className={labelStyles}>
              Reset link (expires in 1 hour)
            </label>
            <input
              ref={input}
              id={inputId}
              readOnly
              value={result.resetUrl}
              onFocus={(e) => e.target.select()}
              className={`${inputStyles} font-mono text-sm`}
              data-testid="reset-link"
            />
            <div className="mt-3 flex flex-col gap-2 sm:flex-row">
              <button type="button" onClick={copy} className={buttonStyles('primary')}>
                <Copy className="size-4" aria-hidden="true" />
                Copy Link
              </button>
              <button
                type="button"
                onClick={() => window.open(result.resetUrl, '_blank', 'noopener,noreferrer')}
                className={buttonStyles('secondary')}
              >
                <ExternalLink className="size-4" aria-hidden="true" />
                Open Link
              </button>
            </div>
          </div>
          <ul className="list-disc space-y-1 rounded-md border border-ink-700 bg-ink-850 py-3 pr-3 pl-8 text-sm text-ash">
            <li>Share this link securely, with the rider only (a direct message, never a group chat).</li>
            <li>
              The link expires on <strong className="text-bone">{expires}</strong>.
            </li>
            <li>The link can be used once only.</li>
          </ul>
        </div>
      )}
    </Modal>
  );
}
