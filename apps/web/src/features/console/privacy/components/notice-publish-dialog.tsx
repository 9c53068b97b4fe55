// Publishing a new version asks every rider again: said before it is done.
import { buttonStyles } from '../../../../components/ui/button-styles';
import { Modal } from '../../../../components/ui/modal';

export function NoticePublishDialog({
  open,
  version,
  busy,
  onClose,
  onConfirm,
}: {
  open: boolean;
  version: number;
  busy: boolean;
  onClose: () => void;
  onConfirm: () => void;
}) {
  return (
    <Modal
      open={open}
      onClose={onClose}
      title={`Publish version ${version}?`}
      dismissible={!busy}
      footer={
        <div className="flex flex-col-reverse gap-3 sm:flex-row sm:justify-end">
          <button type="button" onClick={onClose} disabled={busy} className={buttonStyles('ghost')}>
            Cancel
          </button>
          <button type="button" onClick={onConfirm} disabled={busy} className={buttonStyles('primary')}>
            {busy ? 'Publishing...' : `Publish version ${version}`}
          </button>
        </div>
      }
    >
      <p className="text-bone">Every rider will be asked to accept it at their next sign-in.</p>
      <p className="mt-2 text-sm text-ash">
        Until they do, they see the new notice before anything else. The earlier versions stay readable.
      </p>
    </Modal>
  );
}
