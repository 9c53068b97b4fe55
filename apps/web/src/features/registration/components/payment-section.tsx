import {
  type Category,
  PAYMENT_METHOD_LABELS,
  PAYMENT_METHODS,
  type PaymentMethod,
  paymentAmountFor,
} from '@rally/shared/catalog/registration';
import { Banknote, Landmark, Smartphone } from 'lucide-react';
import { useId } from 'react';
import { ReceiptDropZone, receiptFileProblem } from '../../../components/ui/receipt-drop-zone';
import { FieldError } from '../../../components/ui/text-field';
import { useCurrentPrices } from '../../../lib/editions';
import { formatPeso } from '../../../lib/format';
import { toast } from '../../../lib/toast';
import { type PaymentAccount, usePaymentConfig } from '../api/registration-api';

const METHOD_ICONS = { cash: Banknote, gcash: Smartphone, bank_transfer: Landmark } as const;
const METHOD_NOTES: Record<PaymentMethod, string> = {
  cash: 'Pay at the registration desk',
  gcash: 'Send to our GCash account',
  bank_transfer: 'Deposit or transfer to our bank',
};

interface PaymentSectionProps {
  method: PaymentMethod | '';
  category: Category | '';
  receipt: File | null;
  onMethod: (method: PaymentMethod) => void;
  onReceipt: (file: File | null) => void;
  receiptError?: { message: string; id: string };
}

export function PaymentSection({ method, category, receipt, onMethod, onReceipt, receiptError }: PaymentSectionProps) {
  const prices = useCurrentPrices();
  return (
    <div className="space-y-5">
      <div className="flex flex-wrap items-baseline justify-between gap-2 rounded-lg bg-ink-950 px-4 py-3">
        <span className="text-sm font-bold tracking-wide text-ash uppercase">Amount due</span>
        <span className="font-display text-3xl text-gold-300" data-testid="amount-due">
          {category ? formatPeso(paymentAmountFor(category, prices)) : 'Choose a trial'}
        </span>
      </div>
      <fieldset>
        <legend className="mb-2 text-sm font-bold tracking-wide text-ash uppercase">Payment method</legend>
        <div className="grid gap-3 sm:grid-cols-3">
          {PAYMENT_METHODS.map((m) => {
            const Icon = METHOD_ICONS[m];
            return (
              <label
                key={m}
                className="flex cursor-pointer items-center gap-3 rounded-lg border-2 border-ink-600 bg-ink-850 p-4 hover:border-fire-500 has-[:checked]:border-fire-500 has-[:checked]:bg-ink-800 has-[:focus-visible]:outline-3 has-[:focus-visible]:outline-gold-400"
              >
                <input
                  type="radio"
                  name="paymentMethod"
                  value={m}
                  checked={method === m}
                  onChange={() => onMethod(m)}
                  className="size-5 shrink-0 accent-fire-500"
                />
                <Icon className="size-6 shrink-0 text-fire-400" aria-hidden="true" />
                <span>
                  <span className="block font-display text-xl">{PAYMENT_METHOD_LABELS[m]}</span>
                  <span className="block text-xs text-ash">{METHOD_NOTES[m]}</span>
                </span>
              </label>
            );
          })}
        </div>
      </fieldset>
      {method === 'cash' && (
        <p className="rounded-md border-l-4 border-fire-500 bg-ink-950 px-4 py-3 text-sm text-ash">
          Pay in cash at the registration desk and keep your verification code handy. An administrator verifies your
          payment there.
        </p>
      )}
      {(method === 'gcash' || method === 'bank_transfer') && (
        <>
          <PaymentInstructions method={method} />
          <ReceiptInput receipt={receipt} onReceipt={onReceipt} error={receiptError} />
        </>
      )}
    </div>
  );
}

function PaymentInstructions({ method }: { method: 'gcash' | 'bank_transfer' }) {
  const { data, isPending, isError } = usePaymentConfig();
  const account: PaymentAccount | undefined = data?.[method];
  return (
    <div
      className="rounded-lg border-2 border-dashed border-fire-600 bg-ink-950 p-4"
      data-testid="payment-instructions"
    >
      <h3 className="text-xl text-fire-300">{PAYMENT_METHOD_LABELS[method]} instructions</h3>
      {isPending ? (
        <p className="mt-2 text-sm text-ash">Loading payment details...</p>
      ) : isError || !account ? (
        <p className="mt-2 text-sm text-ash">
          Payment details are unavailable right now. Please contact the organizers before paying.
        </p>
      ) : (
        <>
          <dl className="mt-3 grid grid-cols-[auto_1fr] gap-x-4 gap-y-1.5 text-sm">
            <dt className="text-ash">Account holder</dt>
            <dd className="font-bold text-bone">{account.accountName}</dd>
            <dt className="text-ash">{method === 'gcash' ? 'GCash number' : 'Account number'}</dt>
            <dd className="font-mono font-bold tracking-wider text-bone">{account.accountNumber}</dd>
            {'bankName' in account && account.bankName && (
              <>
                <dt className="text-ash">Bank</dt>
                <dd className="font-bold text-bone">{account.bankName}</dd>
              </>
            )}
          </dl>
          <p className="mt-3 text-sm text-ash">
            Send the exact amount due, then upload a screenshot or photo of your receipt below.
          </p>
        </>
      )}
    </div>
  );
}

function ReceiptInput({
  receipt,
  onReceipt,
  error,
}: {
  receipt: File | null;
  onReceipt: (file: File | null) => void;
  error?: { message: string; id: string };
}) {
  const inputId = useId();
  const hintId = useId();
  const onPick = (file: File) => {
    const problem = receiptFileProblem(file);
    if (problem) {
      toast.error(problem);
      return;
    }
    onReceipt(file);
  };
  return (
    <div>
      <p className="mb-2 text-sm font-bold tracking-wide text-ash uppercase">
        Payment receipt
        <span className="ml-1 text-fire-400" aria-hidden="true">
          *
        </span>
      </p>
      <ReceiptDropZone
        inputId={inputId}
        hintId={hintId}
        file={receipt}
        emptyText="Upload your receipt"
        inputLabel={receipt ? 'Change payment receipt' : 'Payment receipt'}
        onPick={onPick}
        describedBy={error ? `${error.id} ${hintId}` : hintId}
        invalid={!!error}
        required
        testId="receipt-input"
        className={`py-6 ${error ? 'border-ember-500' : 'border-ink-600'}`}
      />
      {error && <FieldError id={error.id}>{error.message}</FieldError>}
      {receipt && (
        <button
          type="button"
          onClick={() => onReceipt(null)}
          className="mt-2 min-h-11 text-sm font-bold text-ash underline underline-offset-4 hover:text-bone"
        >
          Remove receipt
        </button>
      )}
    </div>
  );
}
