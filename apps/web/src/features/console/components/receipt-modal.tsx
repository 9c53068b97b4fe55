// Payment Receipt: loading, image shown, error, or none available. Images show inline; a PDF opens from a link in the browser's
// own viewer (a new tab) or downloads, never framed inside the console: Chromium's PDF
// viewer does not run in a sandboxed frame, and the CSP allows no frames at all.
import { PAYMENT_METHOD_LABELS, type PaymentMethod } from '@rally/shared/catalog/registration';
import { useQuery } from '@tanstack/react-query';
import { useState } from 'react';
import { buttonStyles } from '../../../components/ui/button-styles';
import { Modal } from '../../../components/ui/modal';
import { Spinner } from '../../../components/ui/spinner';
import { formatPeso } from '../../../lib/format';
import { useObjectUrl } from '../../../lib/use-object-url';
import { MissingFileError, receiptQuery } from '../api/file-api';
import { PdfReceiptLink, ReceiptDownloadLink } from './receipt-download-link';

export interface ReceiptSubject {
  userId: string;
  firstName: string;
  lastName: string;
  email: string;
  paymentMethod: string | null;
  paymentAmount: number | null;
  hasReceipt: boolean;
}

export function ReceiptModal({ subject, onClose }: { subject: ReceiptSubject | null; onClose: () => void }) {
  return (
    <Modal
      open={!!subject}
      onClose={onClose}
      title={subject ? `Payment Receipt - ${subject.firstName} ${subject.lastName}` : 'Payment Receipt'}
      className="max-w-2xl"
      footer={
        <div className="flex justify-end">
          <button type="button" onClick={onClose} className={buttonStyles('secondary')}>
            Close
          </button>
        </div>
      }
    >
      {subject && <ReceiptBody key={subject.userId} subject={subject} />}
    </Modal>
  );
}

function ReceiptBody({ subject }: { subject: ReceiptSubject }) {
  const query = useQuery({ ...receiptQuery(subject.userId), enabled: subject.hasReceipt });
  const blob = query.data ?? null;
  const url = useObjectUrl(blob);
  const [imageFailed, setImageFailed] = useState(false);

  const method = subject.paymentMethod
    ? (PAYMENT_METHOD_LABELS[subject.paymentMethod as PaymentMethod] ?? subject.paymentMethod)
    : 'N/A';
  const isPdf = blob?.type === 'application/pdf';

  return (
    <div className="flex flex-col gap-4">
      <dl className="grid grid-cols-1 gap-3 rounded-md border border-ink-700 bg-ink-850 p-3 sm:grid-cols-2">
        <div>
          <dt className="text-xs font-bold uppercase tracking-wide text-smoke">Name</dt>
          <dd>
            {subject.firstName} {subject.lastName}
          </dd>
        </div>
        <div className="min-w-0">
          <dt className="text-xs font-bold uppercase tracking-wide text-smoke">Email</dt>
          <dd className="wrap-anywhere">{subject.email}</dd>
        </div>
        <div>
          <dt className="text-xs font-bold uppercase tracking-wide text-smoke">Payment Method</dt>
          <dd>{method}</dd>
        </div>
        <div>
          <dt className="text-xs font-bold uppercase tracking-wide text-smoke">Amount</dt>
          <dd className="font-bold text-gold-300">
            {subject.paymentAmount === null ? 'N/A' : formatPeso(subject.paymentAmount)}
          </dd>
        </div>
      </dl>

      <div className="flex min-h-48 items-center justify-center rounded-md border border-ink-700 bg-ink-950 p-2">
        {!subject.hasReceipt || query.error instanceof MissingFileError ? (
          <p className="text-ash">No payment receipt available</p>
        ) : query.isPending ? (
          <Spinner label="Loading receipt..." />
        ) : query.isError ? (
          <p role="alert" className="text-ember-400">
            {query.error.message || 'Failed to load payment receipt image'}
          </p>
        ) : !url ? (
          <Spinner label="Loading receipt..." />
        ) : isPdf ? (
          <PdfReceiptLink url={url} />
        ) : imageFailed ? (
          <p role="alert" className="text-ember-400">
            Failed to display receipt image
          </p>
        ) : (
          <img
            src={url}
            alt={`Payment receipt of ${subject.firstName} ${subject.lastName}`}
            className="max-h-[60dvh] w-auto max-w-full rounded object-contain"
            onError={() => setImageFailed(true)}
          />
        )}
      </div>
      {url && (
        <ReceiptDownloadLink
          url={url}
          blob={blob}
          name={`${subject.firstName}-${subject.lastName}`}
          className="self-start px-3"
        />
      )}
    </div>
  );
}
