// The verification desk: one pending rider's receipt beside what it must match (name,
// rider number, category, expected amount, method), with Approve / Reject and their
// confirmations right there. On phones the receipt stacks above the data.
import { categoryDisplay, PAYMENT_METHOD_LABELS, type PaymentMethod } from '@rally/shared/catalog/registration';
import type { PendingVerification } from '@rally/shared/contracts/verifications';
import { useQuery } from '@tanstack/react-query';
import { AlertTriangle, Check, History } from 'lucide-react';
import { Modal } from '../../../../components/ui/modal';
import { formatDate, formatPeso } from '../../../../lib/format';
import { useObjectUrl } from '../../../../lib/use-object-url';
import { receiptQuery } from '../../api/file-api';
import { ApproveConfirm, RejectForm } from './decision-forms';
import { type Confirming, DeskFooter } from './desk-footer';
import { ReceiptCheckPanel } from './receipt-check-panel';
import { flagsOf } from './receipt-flags';
import { ReceiptViewer } from './receipt-viewer';

export function receiptName(e: PendingVerification) {
  return `${e.first_name} ${e.last_name}`.trim();
}

export function ReceiptDesk({
  entry,
  position,
  total,
  confirming,
  busy,
  zoom,
  rotation,
  onZoom,
  onRotate,
  onConfirming,
  onDecide,
  onPrevious,
  onNext,
  onShortcuts,
  onClose,
}: {
  entry: PendingVerification | null;
  position: number;
  total: number;
  confirming: Confirming;
  busy: boolean;
  zoom: number;
  rotation: number;
  onZoom: (direction: 1 | -1) => void;
  onRotate: () => void;
  onConfirming: (c: Confirming) => void;
  onDecide: (action: 'verified' | 'rejected', notes: string) => void;
  onPrevious: () => void;
  onNext: () => void;
  onShortcuts: () => void;
  onClose: () => void;
}) {
  const name = entry ? receiptName(entry) : '';
  return (
    <Modal
      open={!!entry}
      // Escape first backs out of a confirmation, then closes the desk.
      onClose={() => (confirming ? onConfirming(null) : onClose())}
      title={entry ? `Payment Receipt - ${name}` : 'Payment Receipt'}
      className="max-w-6xl"
      footer={
        entry && (
          <DeskFooter
            confirming={confirming}
            busy={busy}
            position={position}
            total={total}
            onConfirming={onConfirming}
            onPrevious={onPrevious}
            onNext={onNext}
            onShortcuts={onShortcuts}
            onClose={onClose}
          />
        )
      }
    >
      {entry && (
        <div className="grid gap-4 sm:grid-cols-[minmax(0,1fr)_16rem] lg:grid-cols-[minmax(0,1fr)_20rem]">
          <ReceiptViewer
            key={entry.user_id}
            userId={entry.user_id}
            name={name}
            hasReceipt={entry.has_payment_receipt}
            fileStatus={entry.receipt_check?.fileStatus}
            zoom={zoom}
            rotation={rotation}
            onZoom={onZoom}
            onRotate={onRotate}
          />
          <div className="flex min-w-0 flex-col gap-3">
            {confirming && (
              <Confirmation
                entry={entry}
                confirming={confirming}
                busy={busy}
                onConfirming={onConfirming}
                onDecide={onDecide}
              />
            )}
            <ReceiptCheckPanel entry={entry} flagsInConfirmation={confirming === 'verified'} />
            <MatchPanel entry={entry} />
          </div>
        </div>
      )}
    </Modal>
  );
}

/** The confirmation sits beside the receipt, so the verifier still sees it while deciding. */
function Confirmation({
  entry,
  confirming,
  busy,
  onConfirming,
  onDecide,
}: {
  entry: PendingVerification;
  confirming: 'verified' | 'rejected';
  busy: boolean;
  onConfirming: (c: Confirming) => void;
  onDecide: (action: 'verified' | 'rejected', notes: string) => void;
}) {
  const name = receiptName(entry);
  if (confirming === 'verified') {
    const method = entry.payment_method ? PAYMENT_METHOD_LABELS[entry.payment_method as PaymentMethod] : 'N/A';
    const amount = entry.payment_amount === null ? 'no amount' : formatPeso(entry.payment_amount);
    return (
      <ApproveConfirm
        key={entry.id}
        name={name}
        summary={`${amount} by ${method} · code ${entry.verification_code}`}
        flags={flagsOf(entry.receipt_check)}
        busy={busy}
        onConfirm={() => onDecide('verified', '')}
        onCancel={() => onConfirming(null)}
      />
    );
  }
  return (
    <RejectForm
      key={entry.id}
      name={name}
      busy={busy}
      onConfirm={(notes) => onDecide('rejected', notes)}
      onCancel={() => onConfirming(null)}
    />
  );
}

function Field({ label, children, wide }: { label: string; children: React.ReactNode; wide?: boolean }) {
  return (
    <div className={`min-w-0 ${wide ? 'col-span-2 sm:col-span-1' : ''}`}>
      <dt className="text-xs font-bold tracking-wide text-smoke uppercase">{label}</dt>
      <dd className="wrap-anywhere text-bone">{children}</dd>
    </div>
  );
}

function MatchPanel({ entry }: { entry: PendingVerification }) {
  const method = entry.payment_method
    ? (PAYMENT_METHOD_LABELS[entry.payment_method as PaymentMethod] ?? entry.payment_method)
    : 'N/A';
  const category = entry.category ? categoryDisplay(entry.category).name : 'Not set';
  const mismatch =
    entry.expected_amount !== null && entry.payment_amount !== null && entry.expected_amount !== entry.payment_amount;
  return (
    <div className="flex min-w-0 flex-col gap-3">
      <dl className="grid grid-cols-2 gap-3 rounded-md border border-ink-700 bg-ink-850 p-3 sm:grid-cols-1">
        <Field label="Name" wide>
          <span className="font-bold">{receiptName(entry)}</span>
          {entry.kit_name && <span className="block text-sm text-ash">“{entry.kit_name}”</span>}
        </Field>
        <Field label="Rider #">
          {entry.rider_number === null ? 'None' : <span className="font-bold">#{entry.rider_number}</span>}
        </Field>
        <Field label="Category">{category}</Field>
        <Field label="Payment Method">{method}</Field>
        <Field label="Amount">
          <span className="text-lg font-bold text-gold-300">
            {entry.payment_amount === null ? 'N/A' : formatPeso(entry.payment_amount)}
          </span>
        </Field>
        <Field label="Expected" wide>
          {entry.expected_amount === null ? (
            'No category price'
          ) : mismatch ? (
            <span className="inline-flex items-center gap-1 font-bold text-ember-400">
              <AlertTriangle className="size-4 shrink-0" aria-hidden="true" />
              {formatPeso(entry.expected_amount)} for {category}
            </span>
          ) : (
            <span className="inline-flex items-center gap-1 text-jade-400">
              <Check className="size-4 shrink-0" aria-hidden="true" />
              Matches the {category} price
            </span>
          )}
        </Field>
        <Field label="Code" wide>
          <span className="font-mono text-gold-300">{entry.verification_code}</span>
        </Field>
      </dl>
      {entry.previous_notes && (
        <div className="rounded-md border border-ember-600 bg-ink-950 p-3 text-sm">
          <p className="text-xs font-bold tracking-wide text-ember-400 uppercase">Previous decision notes</p>
          <p className="wrap-anywhere text-bone">{entry.previous_notes}</p>
        </div>
      )}
      {entry.previous_receipts.length > 0 && (
        <div className="rounded-md border border-ink-700 bg-ink-950 p-3 text-sm">
          <p className="flex items-center gap-1 text-xs font-bold tracking-wide text-smoke uppercase">
            <History className="size-4" aria-hidden="true" />
            Earlier receipts ({entry.previous_receipts.length})
          </p>
          <ul className="mt-1 flex flex-col gap-1">
            {entry.previous_receipts.map((r) => (
              <li key={r.id}>
                <PreviousReceiptLink id={r.id} when={r.superseded_at} />
              </li>
            ))}
          </ul>
        </div>
      )}
    </div>
  );
}

function PreviousReceiptLink({ id, when }: { id: string; when: string }) {
  const query = useQuery(receiptQuery(id));
  const url = useObjectUrl(query.data);
  const label = `Receipt replaced ${formatDate(when)}`;
  if (query.isError) return <span className="text-ember-400">{label}: not available</span>;
  if (!url) return <span className="text-ash">{label}...</span>;
  return (
    <a href={url} target="_blank" rel="noopener noreferrer" className="font-bold text-fire-300 underline">
      {label}
    </a>
  );
}
