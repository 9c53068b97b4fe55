// The payment receipt picker of registration and of a rejected rider's resubmission: a
// large dashed tap target (the file input itself is visually hidden inside its label),
// with the receipt rules checked on the phone before anything is sent.
import { MAX_UPLOAD_BYTES, UPLOAD_TOO_LARGE_MESSAGE } from '@rally/shared/catalog/registration';
import { FileCheck, Upload } from 'lucide-react';
import type { ChangeEvent } from 'react';

const RECEIPT_TYPES = ['image/jpeg', 'image/jpg', 'image/png', 'image/gif', 'application/pdf'];
// Some Android file pickers give no type: the name decides then.
const RECEIPT_EXTENSIONS = /\.(jpe?g|png|gif|pdf)$/i;
export const RECEIPT_TYPE_MESSAGE = 'Please select an image (JPG, PNG, GIF) or PDF file';

/** Why a picked file cannot be a receipt (its type or size), or null when it can. */
export function receiptFileProblem(file: File): string | null {
  if (!RECEIPT_TYPES.includes(file.type) && !(file.type === '' && RECEIPT_EXTENSIONS.test(file.name))) {
    return RECEIPT_TYPE_MESSAGE;
  }
  return file.size > MAX_UPLOAD_BYTES ? UPLOAD_TOO_LARGE_MESSAGE : null;
}

export function ReceiptDropZone({
  inputId,
  hintId,
  file,
  emptyText,
  inputLabel,
  onPick,
  describedBy,
  invalid,
  required,
  testId,
  className,
}: {
  inputId: string;
  hintId: string;
  file: File | null;
  /** The call to action while no file is picked. */
  emptyText: string;
  /** The input's name for screen readers. */
  inputLabel: string;
  /** The file picked (the input is cleared, so picking the same file again fires again). */
  onPick: (file: File) => void;
  describedBy: string;
  invalid: boolean;
  required?: boolean;
  testId: string;
  /** Spacing and border colour. */
  className: string;
}) {
  const onChange = (event: ChangeEvent<HTMLInputElement>) => {
    const picked = event.target.files?.[0] ?? null;
    event.target.value = '';
    if (picked) onPick(picked);
  };
  return (
    <label
      htmlFor={inputId}
      className={`flex cursor-pointer flex-col items-center gap-2 rounded-lg border-2 border-dashed bg-ink-850 px-4 text-center hover:border-fire-500 has-[:focus-visible]:outline-3 has-[:focus-visible]:outline-gold-400 ${className}`}
    >
      {file ? (
        <FileCheck className="size-8 text-jade-400" aria-hidden="true" />
      ) : (
        <Upload className="size-8 text-fire-400" aria-hidden="true" />
      )}
      <span className="font-bold break-all text-bone">{file ? file.name : emptyText}</span>
      <span id={hintId} className="text-xs text-ash">
        JPG, PNG, GIF or PDF, up to 10MB
      </span>
      <input
        id={inputId}
        type="file"
        accept=".jpg,.jpeg,.png,.gif,.pdf,image/jpeg,image/png,image/gif,application/pdf"
        onChange={onChange}
        aria-describedby={describedBy}
        aria-invalid={invalid ? true : undefined}
        required={required}
        className="sr-only"
        data-testid={testId}
      />
      <span className="sr-only">{inputLabel}</span>
    </label>
  );
}
