import type { FormEvent, ReactNode } from 'react';
import { buttonStyles } from './button-styles';
import { Modal } from './modal';

interface FormModalProps {
  open: boolean;
  onClose: () => void;
  title: string;
  /** The form's id, which the footer's submit button points at. */
  formId: string;
  onSubmit: (event: FormEvent) => void;
  /** While saving, both buttons are disabled and Escape/backdrop cannot close it. */
  saving: boolean;
  submitLabel: string;
  formClassName?: string;
  children: ReactNode;
}

/**
 * A console dialog that edits one record: the form in the body, Cancel and the submit
 * button in the footer. The submit button sits outside the form (the footer stays in
 * view while the body scrolls), so it reaches the form through `form={formId}`.
 */
export function FormModal({
  open,
  onClose,
  title,
  formId,
  onSubmit,
  saving,
  submitLabel,
  formClassName,
  children,
}: FormModalProps) {
  return (
    <Modal
      open={open}
      onClose={onClose}
      dismissible={!saving}
      title={title}
      className="max-w-2xl"
      footer={
        <div className="flex flex-col-reverse gap-3 sm:flex-row sm:justify-end">
          <button type="button" onClick={onClose} disabled={saving} className={buttonStyles('ghost')}>
            Cancel
          </button>
          <button type="submit" form={formId} disabled={saving} className={buttonStyles('primary')}>
            {saving ? 'Saving...' : submitLabel}
          </button>
        </div>
      }
    >
      <form id={formId} onSubmit={onSubmit} noValidate className={formClassName}>
        {children}
      </form>
    </Modal>
  );
}
