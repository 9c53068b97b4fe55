// Making the next edition current cannot be undone: every entry of the current edition
// becomes its read-only history. The organiser types the new edition's name to confirm.
import type { Edition } from '@rally/shared/contracts/editions';
import { useState } from 'react';
import { buttonStyles } from '../../../../components/ui/button-styles';
import { Modal } from '../../../../components/ui/modal';
import { TextField } from '../../../../components/ui/text-field';

export function MakeCurrentDialog({
  edition,
  current,
  pending,
  onConfirm,
  onClose,
}: {
  edition: Edition | null;
  current: Edition | undefined;
  pending: boolean;
  onConfirm: () => void;
  onClose: () => void;
}) {
  const [typed, setTyped] = useState('');
  const matches = !!edition && typed.trim().toLowerCase() === edition.name.trim().toLowerCase();
  const close = () => {
    setTyped('');
    onClose();
  };
  return (
    <Modal
      open={!!edition}
      onClose={close}
      title="Make Current"
      dismissible={!pending}
      footer={
        <div className="flex flex-wrap gap-2">
          <button
            type="button"
            className={buttonStyles('danger')}
            disabled={!matches || pending}
            onClick={onConfirm}
            data-testid="confirm-make-current"
          >
            {pending ? 'Making current...' : `Make ${edition?.name ?? ''} current`}
          </button>
          <button type="button" className={buttonStyles('ghost')} onClick={close} disabled={pending}>
            Cancel
          </button>
        </div>
      }
    >
      {edition && (
        <div className="space-y-4">
          <p className="text-bone">
            Every rider's entry in <strong>{current?.name ?? 'the current edition'}</strong>: numbers, verifications,
            kits, stickers, scans, incidents and results, becomes its read-only history. Riders join{' '}
            <strong>{edition.name}</strong> afresh. Accounts, photos and fires stay.
          </p>
          <p className="font-bold text-ember-400">This cannot be undone.</p>
          <TextField
            label={`Type ${edition.name} to confirm`}
            value={typed}
            autoComplete="off"
            onChange={(e) => setTyped(e.target.value)}
          />
        </div>
      )}
    </Modal>
  );
}
