import type { ResetLinkResult } from '@rally/shared/contracts/password-resets';
import { Copy, ExternalLink } from 'lucide-react';
import { useId } from 'react';
import { buttonStyles } from '../../../../components/ui/button-styles';
import { inputStyles, labelStyles } from '../../../../components/ui/field-styles';
import { Modal } from '../../../../components/ui/modal';
import { toast } from '../../../../lib/toast';
import { CloseFooter } from '../../components/detail-field';

export interface GeneratedReset extends ResetLinkResult {
  fullName: string;
  email: string;
}

async function copy(text: string) {
  try {
    await navigator.clipboard.writeText(text);
  } catch {
    // Older browsers and insecure origins: fall back to a selected textarea.
    const area = document.createElement('textarea');
    area.value = text;
    document.body.append(area);
    area.select();
    document.execCommand('copy');
    area.remove();
  }
  toast.success('Reset link copied to clipboard!');
}

export function ResetLinkModal({ reset, onClose }: { reset: GeneratedReset | null; onClose: () => void }) {
  const id = useId();
  return (
    <Modal open={!!reset} onClose={onClose} title="Password Reset Generated" footer={<CloseFooter onClose={onClose} />}>
      {reset && (
        <div className="flex flex-col gap-4">
          <p className="text-bone">
            A password reset link was generated for <strong>{reset.fullName}</strong> ({reset.email}).
          </p>
          <div>
            <label htmlFor={id} className={labelStyles}>
              Reset link (expires in 1 hour)
            </label>
            <input
              id={id}
              readOnly
              value={reset.resetUrl}
              className={`${inputStyles} font-mono text-sm`}
              onFocus={(e) => e.target.select()}
            />
          </div>
          <div className="flex flex-wrap gap-2">
            <button type="button" className={buttonStyles('primary')} onClick={() => void copy(reset.resetUrl)}>
              <Copy className="size-4" aria-hidden="true" />
              Copy link
            </button>
            <a href={reset.resetUrl} target="_blank" rel="noreferrer noopener" className={buttonStyles('secondary')}>
              <ExternalLink className="size-4" aria-hidden="true" />
              Open link
            </a>
          </div>
          <ul className="list-disc space-y-1 pl-5 text-sm text-ash">
            <li>Share this link with the rider securely (in person or a private message).</li>
            <li>It expires on {new Date(reset.expiresAt).toLocaleString('en-PH')}.</li>
            <li>It can be used once only.</li>
          </ul>
        </div>
      )}
    </Modal>
  );
}
