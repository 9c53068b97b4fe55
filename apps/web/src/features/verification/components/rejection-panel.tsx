// What a rejected rider needs on the verification screen: the staff's reason, and a way
// to send a new receipt and go back to the queue without registering again.
import { MAX_UPLOAD_BYTES, UPLOAD_TOO_LARGE_MESSAGE } from '@rally/shared/catalog';
import { FileCheck, MessageSquareWarning, Send, Upload } from 'lucide-react';
import { useId, useState } from 'react';
import { buttonStyles } from '../../../components/ui/button-styles';
import { toast } from '../../../lib/toast';
import { resubmitReceipt } from '../api/my-verification-api';

const RECEIPT_TYPES = ['image/jpeg', 'image/jpg', 'image/png', 'image/gif', 'application/pdf'];
const RECEIPT_EXTENSIONS = /\.(jpe?g|png|gif|pdf)$/i;
const TYPE_MESSAGE = 'Please select an image (JPG, PNG, GIF) or PDF file';

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
      <p className="mt-2 break-words whitespace-pre-line text-bone">
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

  const onFile = (event: React.ChangeEvent<HTMLInputElement>) => {
    const picked = event.target.files?.[0] ?? null;
    event.target.value = '';
    if (!picked) return;
    let message: string | null = null;
    if (!RECEIPT_TYPES.includes(picked.type) && !(picked.type === '' && RECEIPT_EXTENSIONS.test(picked.name))) {
      message = TYPE_MESSAGE;
    } else if (picked.size > MAX_UPLOAD_BYTES) {
      message = UPLOAD_TOO_LARGE_MESSAGE;
    }
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
      toast.success(res.message);
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
      <label
        htmlFor={inputId}
        className="mt-3 flex cursor-pointer flex-col items-center gap-2 rounded-lg border-2 border-dashed border-ink-600 bg-ink-850 px-4 py-5 text-center hover:border-fire-500 has-[:focus-visible]:outline-3 has-[:focus-visible]:outline-gold-400"
      >
        {file ? (
          <FileCheck className="size-8 text-jade-400" aria-hidden="true" />
        ) : (
          <Upload className="size-8 text-fire-400" aria-hidden="true" />
        )}
        <span className="font-bold break-all text-bone">{file ? file.name : 'Choose your new receipt'}</span>
        <span id={hintId} className="text-xs text-ash">
          JPG, PNG, GIF or PDF, up to 10MB
        </span>
        <input
          id={inputId}
          type="file"
          accept=".jpg,.jpeg,.png,.gif,.pdf,image/jpeg,image/png,image/gif,application/pdf"
          onChange={onFile}
          aria-describedby={problem ? `${hintId} ${errorId}` : hintId}
          aria-invalid={problem ? true : undefined}
          className="sr-only"
          data-testid="resubmit-receipt-input"
        />
        <span className="sr-only">New payment receipt</span>
      </label>
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
