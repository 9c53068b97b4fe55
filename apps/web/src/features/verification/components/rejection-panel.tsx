import { MessageSquareWarning, Send } from 'lucide-react';
import { useId, useState } from 'react';
import { buttonStyles } from '../../../components/ui/button-styles';
import { ReceiptDropZone, receiptFileProblem } from '../../../components/ui/receipt-drop-zone';
import { toast } from '../../../lib/toast';
import { resubmitReceipt } from '../api/my-verification-api';

export function RejectionReason({ notes }: { notes: string | null }) {
  return (
    <section
      aria-labelledby="rejection-reason-heading"
      className="mt-6 rounded-lg border-2 border-ember-500 bg-ink-950 p-4"
      data-testid="rejection-reason"
    >
      <h2 id="rejection-reason-heading" className="flex items-center gap-2 text-xl text-ember-400">
        <MessageSquareWarning className="size-5" aria-hidden="true" />
        Why it was rejected
      </h2>
      <p className="mt-2 wrap-anywhere whitespace-pre-line text-bone">
        {notes || 'No reason was given. Contact support with your verification code.'}
      </p>
    </section>
  );
}

export function ResubmitReceipt({ onSent }: { onSent: () => Promise<void> }) {
  const inputId = useId();
  const hintId = useId();
  const errorId = useId();
  const [file, setFile] = useState<File | null>(null);
  const [problem, setProblem] = useState<string | null>(null);
  const [progress, setProgress] = useState<number | null>(null);

  const onPick = (picked: File) => {
    const message = receiptFileProblem(picked);
    setProblem(message);
    if (message) {
      toast.error(message);
      setFile(null);
      return;
    }
    setFile(picked);
  };

  const onSend = async () => {
    if (!file) {
      setProblem('Choose a new receipt first');
      return;
    }
    setProgress(0);
    try {
      const res = await resubmitReceipt(file, setProgress);
      // The document leaves `message` optional; the server always sends this one.
      toast.success(res.message ?? 'New receipt sent; your verification is pending again');
      setFile(null);
      await onSent();
    } catch (error) {
      const message = error instanceof Error && error.message ? error.message : 'Failed to send the receipt';
      setProblem(message);
      toast.error(message);
    } finally {
      setProgress(null);
    }
  };

  const sending = progress !== null;
  return (
    <section aria-labelledby="resubmit-heading" className="mt-6 rounded-lg bg-ink-950 p-4">
      <h2 id="resubmit-heading" className="text-xl text-fire-300">
        Send a new receipt
      </h2>
      <p className="mt-1 text-sm text-ash">
        Fix what was wrong and upload the receipt again. Your registration goes back to the queue; nothing else needs
        retyping.
      </p>
      <ReceiptDropZone
        inputId={inputId}
        hintId={hintId}
        file={file}
        emptyText="Choose your new receipt"
        inputLabel="New payment receipt"
        onPick={onPick}
        describedBy={problem ? `${hintId} ${errorId}` : hintId}
        invalid={!!problem}
        testId="resubmit-receipt-input"
        className="mt-3 border-ink-600 py-5"
      />
      {problem && (
        <p id={errorId} role="alert" className="mt-2 text-sm font-bold text-ember-400">
          {problem}
        </p>
      )}
      <button
        type="button"
        onClick={() => void onSend()}
        disabled={sending}
        className={buttonStyles('primary', 'md', 'mt-3 w-full')}
      >
        <Send className="size-5" aria-hidden="true" />
        {sending ? `Sending... ${progress}%` : 'Send new receipt'}
      </button>
    </section>
  );
}
