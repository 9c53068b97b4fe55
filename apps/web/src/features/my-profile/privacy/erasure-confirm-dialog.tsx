// The last step before asking: held down, so a stray tap sends nothing.
import { Modal } from '../../../components/ui/modal';
import { HoldToConfirmButton } from '../components/hold-to-confirm-button';

export function ErasureConfirmDialog({
  open,
  busy,
  onClose,
  onConfirm,
}: {
  open: boolean;
  busy: boolean;
  onClose: () => void;
  onConfirm: () => void;
}) {
  return (
    <Modal open={open} onClose={onClose} dismissible={!busy} title="Erase your account?">
      <div className="space-y-4">
        <p className="text-bone">
          The organisers will review your request. Once they approve it, your account is erased and cannot be brought
          back: you would register again as a new rider.
        </p>
        <p className="text-sm text-ash">You can withdraw the request until they decide.</p>
        <HoldToConfirmButton
          onConfirm={onConfirm}
          disabled={busy}
          testId="erasure-hold"
          hint="Press and hold for 1.5 seconds to send"
          className="min-h-14 w-full rounded-md bg-ember-600 px-6 py-3 font-display text-xl tracking-wider text-white uppercase hover:bg-ember-500 disabled:opacity-60"
        >
          {busy ? 'Sending...' : 'Hold to send my request'}
        </HoldToConfirmButton>
        <button
          type="button"
          onClick={onClose}
          disabled={busy}
          className="w-full rounded-md py-2 text-ash hover:text-bone"
        >
          Cancel
        </button>
      </div>
    </Modal>
  );
}
