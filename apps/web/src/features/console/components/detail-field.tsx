import type { ReactNode } from 'react';
import { buttonStyles } from '../../../components/ui/button-styles';

/** One labelled value inside a details modal's <dl>. */
export function DetailField({ label, children }: { label: string; children: ReactNode }) {
  return (
    <div>
      <dt className="text-xs font-bold uppercase tracking-wide text-smoke">{label}</dt>
      <dd className="mt-0.5 wrap-anywhere text-bone">{children}</dd>
    </div>
  );
}

/** The footer of a read-only modal, whose only action is to close it. */
export function CloseFooter({ onClose }: { onClose: () => void }) {
  return (
    <div className="flex justify-end">
      <button type="button" onClick={onClose} className={buttonStyles('secondary')}>
        Close
      </button>
    </div>
  );
}
