// Approving or refusing an erasure request, always with a reason. Approving erases the
// account at once, so its dialog says so in so many words.
import { type AdminErasureRequest, ERASURE_REASON_MAX, ERASURE_REASON_MIN } from '@rally/shared/contracts/erasure';
import { TriangleAlert } from 'lucide-react';
import { type FormEvent, useId, useState } from 'react';
import { buttonStyles } from '../../../../components/ui/button-styles';
import { Modal } from '../../../../components/ui/modal';
import type { ErasureDecision } from './erasure-api';

export function ErasureDecisionDialog({
  request,
  decision,
  busy,
  onClose,
  onConfirm,
}: {
  request: AdminErasureRequest;
  decision: ErasureDecision;
  busy: boolean;
  onClose: () => void;
  onConfirm: (reason: string) => void;
}) {
  const [reason, setReason] = useState('');
  const [problem, setProblem] = useState<string | null>(null);
  const formId = useId();
  const reasonId = useId();
  const errorId = useId();
  const approving = decision === 'approve';
  const who = request.rider?.name ?? 'this account';

  const submit = (event: FormEvent) => {
    event.preventDefault();
    const text = reason.trim();
    if (text.length < ERASURE_REASON_MIN) {
      setProblem(
        `Give a reason of at least ${ERASURE_REASON_MIN} characters${approving ? '' : ': the rider reads it'}.`,
      );
      return;
    }
    onConfirm(text);
  };

  return (
    <Modal
      open
      onClose={onClose}
      dismissible={!busy}
      title={approving ? `Erase ${who}?` : `Refuse ${who}’s request?`}
      footer={
        <div className="flex flex-col-reverse gap-3 sm:flex-row sm:justify-end">
          <button type="button" onClick={onClose} disabled={busy} className={buttonStyles('ghost')}>
            Cancel
          </button>
          <button
            type="submit"
            form={formId}
            disabled={busy}
            className={buttonStyles(approving ? 'danger' : 'primary')}
            data-testid="erasure-decision-submit"
          >
            {busy ? 'Working...' : approving ? 'Erase the account' : 'Refuse the request'}
          </button>
        </div>
      }
    >
      <form id={formId} onSubmit={submit} noValidate className="space-y-4">
        {approving ? (
          <p
            role="alert"
            className="flex items-start gap-2 rounded-md border-2 border-ember-500 bg-ember-700/10 p-3 font-bold text-bone"
          >
            <TriangleAlert className="mt-0.5 size-5 shrink-0 text-ember-400" aria-hidden="true" />
            This erases the account now and cannot be undone.
          </p>
        ) : (
          <p className="text-ash">The rider reads your reason in My Profile and may ask again.</p>
        )}
        {request.rider && (
          <p className="wrap-anywhere text-sm text-ash">
            {request.rider.name} · {request.rider.email}
            {request.rider.riderNumber !== null ? ` · #${request.rider.riderNumber}` : ''}
          </p>
        )}
        <div>
          <label htmlFor={reasonId} className="mb-1.5 block text-sm font-bold tracking-wide text-ash uppercase">
            Reason (required)
          </label>
          <textarea
            id={reasonId}
            value={reason}
            rows={3}
            maxLength={ERASURE_REASON_MAX}
            aria-invalid={problem ? true : undefined}
            aria-describedby={problem ? errorId : undefined}
            onChange={(e) => {
              setProblem(null);
              setReason(e.target.value);
            }}
            placeholder={
              approving
                ? 'e.g. Asked by the rider; nothing kept beyond what the law requires'
                : 'e.g. A payment dispute on your entry is still open'
            }
            className="block w-full rounded-md border-2 border-ink-600 bg-ink-900 px-3 py-2 text-bone placeholder:text-smoke focus:border-fire-500 focus:ring-2 focus:ring-fire-500/40 focus:outline-none aria-[invalid=true]:border-ember-500"
          />
          {problem && (
            <p id={errorId} role="alert" className="mt-1 text-sm font-bold text-ember-400">
              {problem}
            </p>
          )}
        </div>
      </form>
    </Modal>
  );
}
