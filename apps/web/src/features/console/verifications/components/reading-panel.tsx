// What was read off the receipt, beside it at the desk: reference, amount, date and time,
// recipient, each marked when the reader was unsure. Staff type in what could not be read
// or correct what was misread (PATCH .../reading); the form keeps what was typed until the
// server accepts it, and shows the server's refusal beside the field it names.
import { fromRallyLocalInput, toRallyLocalInput } from '@rally/shared/catalog/editions';
import type { ReadingPatchBody, ReceiptCheck, ReceiptReading } from '@rally/shared/contracts/receipts';
import { useMutation, useQueryClient } from '@tanstack/react-query';
import { CircleHelp, Pencil, ScanText } from 'lucide-react';
import { useEffect, useId, useRef, useState } from 'react';
import { buttonStyles } from '../../../../components/ui/button-styles';
import { inputStyles } from '../../../../components/ui/field-styles';
import { ApiError } from '../../../../lib/api-client';
import { formatDate } from '../../../../lib/format';
import { toast } from '../../../../lib/toast';
import { consoleKeys } from '../../api/console-keys';
import { patchReading } from '../api/receipts-api';
import { formatPesoCentavos, isLowConfidence, showPaidAt, showReference } from './receipt-display';

type FieldName = keyof ReadingPatchBody;
const FIELDS: readonly FieldName[] = ['referenceNumber', 'amount', 'paidAt', 'recipient'];

export function ReadingPanel({
  verificationId,
  check,
  canEdit,
}: {
  verificationId: string;
  check: ReceiptCheck;
  canEdit: boolean;
}) {
  const [editing, setEditing] = useState(false);
  const titleId = useId();
  const { reading } = check;
  return (
    <section
      aria-labelledby={titleId}
      className="rounded-md border border-ink-700 bg-ink-850 p-3"
      data-testid="receipt-reading"
      data-reading-status={reading.status}
    >
      <div className="mb-2 flex flex-wrap items-center justify-between gap-2">
        <h4 id={titleId} className="flex items-center gap-1.5 text-xs font-bold tracking-wide text-smoke uppercase">
          <ScanText className="size-4" aria-hidden="true" />
          Read from the receipt
        </h4>
        {/* Open while the reader is still at it too: what staff type is never overwritten by it. */}
        {canEdit && !editing && (
          <button
            type="button"
            onClick={() => setEditing(true)}
            className={buttonStyles('secondary', 'md', 'min-h-9 px-2 text-sm')}
          >
            <Pencil className="size-4" aria-hidden="true" />
            {reading.status === 'read' || reading.correctedAt ? 'Edit' : 'Type it in'}
          </button>
        )}
      </div>
      {editing ? (
        <ReadingForm verificationId={verificationId} reading={reading} onDone={() => setEditing(false)} />
      ) : (
        <ReadingView reading={reading} fileStatus={check.fileStatus} />
      )}
    </section>
  );
}

function ReadingView({ reading, fileStatus }: { reading: ReceiptReading; fileStatus: ReceiptCheck['fileStatus'] }) {
  if (reading.status === 'pending') {
    return <p className="text-ash">{fileStatus === 'failed' ? 'Not read: the upload failed.' : 'Not read yet'}</p>;
  }
  const unreadable = reading.status === 'unreadable' && !reading.correctedAt;
  const reference = showReference(reading.referenceNumber);
  const paidAt = showPaidAt(reading.paidAt);
  return (
    <>
      {unreadable && (
        <p className="mb-2 font-bold text-gold-300" role="note">
          Could not read this receipt — type what it says
        </p>
      )}
      <dl className="grid grid-cols-2 gap-x-3 gap-y-2 sm:grid-cols-1">
        <ReadField label="Reference" confidence={reading.confidence.referenceNumber} wide>
          {reference && <span className="font-mono text-lg font-bold text-gold-300">{reference}</span>}
        </ReadField>
        <ReadField label="Amount" confidence={reading.confidence.amount}>
          {reading.amount !== null && <span className="font-bold">{formatPesoCentavos(reading.amount)}</span>}
        </ReadField>
        <ReadField label="Paid (Manila)" confidence={reading.confidence.paidAt}>
          {paidAt}
        </ReadField>
        <ReadField label="Recipient" confidence={reading.confidence.recipient} wide>
          {reading.recipient}
        </ReadField>
      </dl>
      {reading.correctedAt && (
        <p className="mt-2 text-xs text-ash">Typed in by staff on {formatDate(reading.correctedAt)}</p>
      )}
    </>
  );
}

function ReadField({
  label,
  confidence,
  wide,
  children,
}: {
  label: string;
  confidence: number | null;
  wide?: boolean;
  children: React.ReactNode;
}) {
  const empty = children === null || children === undefined || children === false;
  const low = !empty && isLowConfidence(confidence);
  return (
    <div className={`min-w-0 ${wide ? 'col-span-2 sm:col-span-1' : ''}`} data-low-confidence={low || undefined}>
      <dt className="text-xs font-bold tracking-wide text-smoke uppercase">{label}</dt>
      <dd className="wrap-anywhere text-bone">
        {empty ? <span className="text-smoke">Not read</span> : children}
        {low && (
          <span
            className="ml-1.5 inline-flex items-center gap-0.5 rounded bg-gold-400 px-1.5 align-middle text-xs font-bold text-ink-950"
            title="Read with low confidence: check it against the image"
          >
            <CircleHelp className="size-3.5" aria-hidden="true" />
            Unsure
          </span>
        )}
      </dd>
    </div>
  );
}

type Draft = Record<FieldName, string>;

function draftOf(reading: ReceiptReading): Draft {
  return {
    referenceNumber: showReference(reading.referenceNumber) ?? '',
    amount: reading.amount === null ? '' : String(reading.amount),
    paidAt: toRallyLocalInput(reading.paidAt),
    recipient: reading.recipient ?? '',
  };
}

/** The draft as the API takes it; an amount that is not a number is refused here, as the API would. */
function bodyOf(draft: Draft): { body: ReadingPatchBody } | { field: FieldName; message: string } {
  const amountText = draft.amount.replace(/[₱,\s]/g, '');
  const amount = amountText === '' ? null : Number(amountText);
  if (amount !== null && !Number.isFinite(amount)) return { field: 'amount', message: 'amount must be a number' };
  return {
    body: {
      referenceNumber: draft.referenceNumber.trim() || null,
      amount,
      paidAt: fromRallyLocalInput(draft.paidAt),
      recipient: draft.recipient.trim() || null,
    },
  };
}

/** The API's 400 names the field first ("amount cannot be negative"). */
function fieldOfMessage(message: string): FieldName | null {
  const first = message.split(/\s/)[0] as FieldName;
  return FIELDS.includes(first) ? first : null;
}

const LABELS: Record<FieldName, string> = {
  referenceNumber: 'Reference number',
  amount: 'Amount (₱)',
  paidAt: 'Paid on (Manila time)',
  recipient: 'Recipient',
};

function ReadingForm({
  verificationId,
  reading,
  onDone,
}: {
  verificationId: string;
  reading: ReceiptReading;
  onDone: () => void;
}) {
  const queryClient = useQueryClient();
  const [draft, setDraft] = useState<Draft>(() => draftOf(reading));
  const [errors, setErrors] = useState<Partial<Record<FieldName, string>>>({});
  const [problem, setProblem] = useState<string | null>(null);
  const firstRef = useRef<HTMLInputElement>(null);
  const formId = useId();
  useEffect(() => firstRef.current?.focus(), []);

  const save = useMutation({
    mutationFn: (body: ReadingPatchBody) => patchReading(verificationId, body),
    onSuccess: () => {
      toast.success('Receipt reading saved');
      void queryClient.invalidateQueries({ queryKey: consoleKeys.verifications });
      onDone();
    },
    onError: (error) => {
      const field = error instanceof ApiError && error.status === 400 ? fieldOfMessage(error.message) : null;
      if (field) setErrors({ [field]: error.message });
      else setProblem(error.message || 'Failed to save the reading. Please try again.');
    },
  });

  const set = (field: FieldName, value: string) => {
    setDraft((d) => ({ ...d, [field]: value }));
    setErrors((e) => ({ ...e, [field]: undefined }));
    setProblem(null);
  };

  return (
    <form
      className="flex flex-col gap-3"
      data-testid="reading-form"
      onSubmit={(e) => {
        e.preventDefault();
        const parsed = bodyOf(draft);
        if ('field' in parsed) {
          setErrors({ [parsed.field]: parsed.message });
          return;
        }
        save.mutate(parsed.body);
      }}
    >
      {FIELDS.map((field, i) => {
        const id = `${formId}-${field}`;
        const error = errors[field];
        return (
          <div key={field}>
            <label htmlFor={id} className="mb-1 block text-xs font-bold tracking-wide text-smoke uppercase">
              {LABELS[field]}
            </label>
            <input
              ref={i === 0 ? firstRef : undefined}
              id={id}
              name={field}
              type={field === 'paidAt' ? 'datetime-local' : 'text'}
              inputMode={field === 'referenceNumber' ? 'numeric' : field === 'amount' ? 'decimal' : undefined}
              autoComplete="off"
              value={draft[field]}
              onChange={(e) => set(field, e.target.value)}
              aria-invalid={error ? true : undefined}
              aria-describedby={error ? `${id}-error` : undefined}
              placeholder={field === 'referenceNumber' ? '1001 543 610110' : field === 'amount' ? '1500.00' : undefined}
              className={`${inputStyles} min-h-11`}
            />
            {error && (
              <p id={`${id}-error`} className="mt-1 text-sm font-bold text-ember-400">
                {error}
              </p>
            )}
          </div>
        );
      })}
      {problem && (
        <p role="alert" className="text-sm font-bold text-ember-400">
          {problem}
        </p>
      )}
      <div className="flex flex-wrap gap-2">
        <button type="submit" disabled={save.isPending} className={buttonStyles('primary', 'md', 'min-h-11 flex-1')}>
          {save.isPending ? 'Saving...' : 'Save reading'}
        </button>
        <button type="button" onClick={onDone} className={buttonStyles('ghost', 'md', 'min-h-11')}>
          Cancel
        </button>
      </div>
    </form>
  );
}
