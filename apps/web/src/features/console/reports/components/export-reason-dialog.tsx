// Before an export carrying riders' sensitive data (DESIGN.md §12): the staff member says
// why. The reason goes with the download and is kept on every line of the access log it
// writes, where view_logs and each rider read it.
import { SENSITIVE_KIND_LABELS, type SensitiveKind } from '@rally/shared/catalog/privacy';
import {
  EXPORT_REASON_MAX,
  EXPORT_REASON_MIN,
  EXPORT_REASON_REQUIRED,
  type ExportFormat,
} from '@rally/shared/contracts/exports';
import { ShieldAlert } from 'lucide-react';
import { type FormEvent, useEffect, useId, useState } from 'react';
import { buttonStyles } from '../../../../components/ui/button-styles';
import { inputStyles, labelStyles } from '../../../../components/ui/field-styles';
import { Modal } from '../../../../components/ui/modal';
import { FieldError } from '../../../../components/ui/text-field';

export interface ReasonRequest {
  name: string;
  title: string;
  format: ExportFormat;
  kinds: readonly SensitiveKind[];
}

/** 'birthdates and emergency contacts' */
function kindsInWords(kinds: readonly SensitiveKind[]): string {
  const words = kinds.map((k) => SENSITIVE_KIND_LABELS[k].toLowerCase());
  return words.length <= 1 ? (words[0] ?? '') : `${words.slice(0, -1).join(', ')} and ${words.at(-1)}`;
}

export function ExportReasonDialog({
  request,
  busy,
  serverError,
  onCancel,
  onConfirm,
}: {
  request: ReasonRequest | null;
  busy: boolean;
  /** The server's refusal of the last try, shown under the field. */
  serverError: string | null;
  onCancel: () => void;
  onConfirm: (reason: string) => void;
}) {
  const fieldId = useId();
  const formId = useId();
  const [reason, setReason] = useState('');
  const [error, setError] = useState<string | null>(null);
  useEffect(() => {
    if (request) {
      setReason('');
      setError(null);
    }
  }, [request]);
  useEffect(() => setError(serverError), [serverError]);

  const submit = (event: FormEvent) => {
    event.preventDefault();
    if (reason.trim().length < EXPORT_REASON_MIN) return setError(EXPORT_REASON_REQUIRED);
    setError(null);
    onConfirm(reason.trim());
  };

  return (
    <Modal
      open={request !== null}
      onClose={onCancel}
      dismissible={!busy}
      title="Why this export?"
      footer={
        <div className="flex flex-col-reverse gap-3 sm:flex-row sm:justify-end">
          <button type="button" onClick={onCancel} disabled={busy} className={buttonStyles('ghost')}>
            Cancel
          </button>
          <button type="submit" form={formId} disabled={busy} className={buttonStyles('primary')}>
            {busy ? 'Preparing…' : `Download ${request?.format === 'xlsx' ? 'Excel' : 'CSV'}`}
          </button>
        </div>
      }
    >
      {request && (
        <form id={formId} onSubmit={submit} noValidate className="grid gap-4" data-testid="export-reason-form">
          <p className="flex items-start gap-2 text-ash">
            <ShieldAlert className="mt-0.5 size-5 shrink-0 text-gold-300" aria-hidden="true" />
            <span>
              <strong className="text-bone">{request.title}</strong> holds riders’ {kindsInWords(request.kinds)}. Say
              why you need it: your reason is kept with the download in the access log, and each rider in the file can
              read it in My Profile.
            </span>
          </p>
          <div>
            <label htmlFor={fieldId} className={labelStyles}>
              Reason
            </label>
            <textarea
              id={fieldId}
              value={reason}
              onChange={(e) => setReason(e.target.value)}
              rows={3}
              minLength={EXPORT_REASON_MIN}
              maxLength={EXPORT_REASON_MAX}
              required
              aria-invalid={error ? true : undefined}
              aria-describedby={error ? `${fieldId}-error` : `${fieldId}-hint`}
              placeholder="e.g. Insurer’s list for the March rally"
              className={`${inputStyles} resize-y`}
            />
            {error ? (
              <FieldError id={`${fieldId}-error`}>{error}</FieldError>
            ) : (
              <p id={`${fieldId}-hint`} className="mt-1.5 text-sm text-smoke">
                {EXPORT_REASON_MIN} to {EXPORT_REASON_MAX} characters.
              </p>
            )}
          </div>
        </form>
      )}
    </Modal>
  );
}
