import { SUCCESS_DIALOG_MS } from '@rally/shared/catalog/web-client';
import { PartyPopper } from 'lucide-react';
import { useEffect } from 'react';
import { Modal } from '../../../components/ui/modal';

/** The success celebration after a size submission; it closes itself after 4 seconds. */
export function CelebrationDialog({
  open,
  title,
  message,
  onClose,
}: {
  open: boolean;
  title: string;
  message: string;
  onClose: () => void;
}) {
  useEffect(() => {
    if (!open) return;
    const timer = setTimeout(onClose, SUCCESS_DIALOG_MS);
    return () => clearTimeout(timer);
  }, [open, onClose]);

  return (
    <Modal open={open} onClose={onClose} title={title} className="max-w-sm">
      <div className="flex flex-col items-center py-4 text-center">
        <PartyPopper className="size-16 animate-bounce text-gold-400" aria-hidden="true" />
        <p className="mt-4 text-lg text-bone">{message}</p>
        <p className="mt-2 text-sm text-smoke">It is saved for your rider kit. 🔥</p>
      </div>
    </Modal>
  );
}
