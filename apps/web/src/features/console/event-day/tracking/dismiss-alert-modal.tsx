// Dismissing a tracker alert: staff say why the rider is fine ("fuel stop"), picked from
// quick choices or typed. The reason is required and kept with the incident; a dismissed stop
// does not alert again until the rider moves.
import { DISMISS_REASON_EXAMPLES } from '@rally/shared/catalog/tracking';
import type { TrackedRider } from '@rally/shared/contracts/tracking';
import { type FormEvent, useId, useState } from 'react';
import { buttonStyles } from '../../../../components/ui/button-styles';
import { inputStyles, labelStyles } from '../../../../components/ui/field-styles';
import { Modal } from '../../../../components/ui/modal';
import { riderName, riderTag } from './tracking-display';

const KIND_LABEL = { stopped: 'Stopped', off_route: 'Off route' } as const;

export function DismissAlertModal({
  rider,
  busy,
  problem,
  onDismiss,
  onClose,
}: {
  rider: TrackedRider | null;
  busy: boolean;
  problem: string | null;
  onDismiss: (reason: string) => void;
  onClose: () => void;
}) {
  const alert = rider?.alert ?? null;
  return (
    <Modal
      open={rider !== null && alert !== null}
      onClose={onClose}
      dismissible={!busy}
      title={rider && alert ? `Dismiss: ${riderTag(rider)} ${KIND_LABEL[alert.kind]}` : ''}
    >
      {/* Keyed by the alert: each one starts with an empty reason. */}
      {rider && alert && (
        <DismissForm
          key={alert.incidentId}
          rider={rider}
          busy={busy}
          problem={problem}
          onDismiss={onDismiss}
          onClose={onClose}
        />
      )}
    </Modal>
  );
}

function DismissForm({
  rider,
  busy,
  problem,
  onDismiss,
  onClose,
}: {
  rider: TrackedRider;
  busy: boolean;
  problem: string | null;
  onDismiss: (reason: string) => void;
  onClose: () => void;
}) {
  const [reason, setReason] = useState('');
  const [tooShort, setTooShort] = useState(false);
  const inputId = useId();
  const problemId = useId();

  const submit = (event: FormEvent) => {
    event.preventDefault();
    if (reason.trim().length < 2) {
      setTooShort(true);
      return;
    }
    onDismiss(reason.trim());
  };
  const shown = tooShort ? 'Say why: a reason is required (e.g. "fuel stop")' : problem;

  return (
    <form onSubmit={submit} noValidate className="grid gap-4" data-testid="dismiss-alert">
      <p className="text-ash">
        <strong className="text-bone">
          {riderTag(rider)} {riderName(rider)}
        </strong>{' '}
        is no worry? Say why. The alert closes; a stopped rider alerts again only after moving on.
      </p>
      <fieldset className="grid gap-2">
        <legend className={labelStyles}>Quick reasons</legend>
        <div className="flex flex-wrap gap-2">
          {DISMISS_REASON_EXAMPLES.map((example) => (
            <button
              key={example}
              type="button"
              aria-pressed={reason === example}
              onClick={() => {
                setReason(example);
                setTooShort(false);
              }}
              className="min-h-11 rounded-full border-2 border-ink-600 px-3 py-1 font-bold text-bone hover:border-fire-500 aria-pressed:border-fire-500 aria-pressed:bg-fire-500/15"
            >
              {example}
            </button>
          ))}
        </div>
      </fieldset>
      <div>
        <label htmlFor={inputId} className={labelStyles}>
          Reason
        </label>
        <input
          id={inputId}
          value={reason}
          maxLength={200}
          onChange={(e) => {
            setReason(e.target.value);
            setTooShort(false);
          }}
          placeholder="e.g. Lunch in Malaybalay"
          aria-invalid={shown ? true : undefined}
          aria-describedby={shown ? problemId : undefined}
          className={inputStyles}
        />
      </div>
      {shown && (
        <p id={problemId} role="alert" className="font-bold text-ember-400">
          {shown}
        </p>
      )}
      <div className="flex flex-col-reverse gap-2 sm:flex-row sm:justify-end">
        <button type="button" className={buttonStyles('ghost')} onClick={onClose} disabled={busy}>
          Cancel
        </button>
        <button type="submit" className={buttonStyles('primary')} disabled={busy}>
          {busy ? 'Dismissing...' : 'Dismiss alert'}
        </button>
      </div>
    </form>
  );
}
