// Turning live tracking on from the Privacy tab: the tracking consent's own text first, as
// the pass's tracking card shows it, and its version sent with the consent (DESIGN.md §11).
import { TRACKING_CONSENT_VERSION } from '@rally/shared/catalog/tracking';
import { useState } from 'react';
import { buttonStyles } from '../../../components/ui/button-styles';
import { Modal } from '../../../components/ui/modal';
import { TrackingConsent } from '../tracking/tracking-consent';

export function ConsentTrackingDialog({
  open,
  busy,
  onClose,
  onAgree,
}: {
  open: boolean;
  busy: boolean;
  onClose: () => void;
  onAgree: (version: string) => void;
}) {
  const [agreed, setAgreed] = useState(false);
  const close = () => {
    setAgreed(false);
    onClose();
  };
  return (
    <Modal
      open={open}
      onClose={close}
      title="Live tracking"
      dismissible={!busy}
      footer={
        <div className="flex flex-col-reverse gap-3 sm:flex-row sm:justify-end">
          <button type="button" onClick={close} disabled={busy} className={buttonStyles('ghost')}>
            Cancel
          </button>
          <button
            type="button"
            disabled={!agreed || busy}
            onClick={() => onAgree(TRACKING_CONSENT_VERSION)}
            className={buttonStyles('primary')}
          >
            {busy ? 'Turning on...' : 'Turn on tracking'}
          </button>
        </div>
      }
    >
      <div className="grid gap-4">
        <TrackingConsent agreed={agreed} onAgreed={setAgreed} boxClassName="bg-ink-850" />
      </div>
    </Modal>
  );
}
