import { CircleAlert } from 'lucide-react';
import { type InputHTMLAttributes, type ReactNode, useId } from 'react';
import { inputStyles, labelStyles } from './field-styles';

export interface TextFieldProps extends Omit<InputHTMLAttributes<HTMLInputElement>, 'id'> {
  label: string;
  hint?: ReactNode;
  /** Rendered after the input inside the same positioned box (e.g. a show/hide toggle). */
  trailing?: ReactNode;
  /** What is wrong with the value; marks the input invalid and is read with it. */
  error?: ReactNode;
  /** The error message's id, for a form's error summary to link to. */
  errorId?: string;
}

export function TextField({
  label,
  hint,
  trailing,
  error,
  errorId,
  required,
  className = '',
  ...input
}: TextFieldProps) {
  const id = useId();
  const hintId = `${id}-hint`;
  const messageId = errorId ?? `${id}-error`;
  const describedBy = [error ? messageId : null, hint ? hintId : null].filter(Boolean).join(' ') || undefined;
  return (
    <div className={className}>
      {/* The required mark sits outside the <label> so the label text is exactly the field name. */}
      <div className="mb-1.5 flex items-baseline gap-1">
        <label htmlFor={id} className={labelStyles.replace('mb-1.5 block', 'block')}>
          {label}
        </label>
        {required && (
          <span className="text-sm font-bold text-fire-400" aria-hidden="true">
            *
          </span>
        )}
      </div>
      <div className="relative">
        <input
          id={id}
          required={required}
          aria-invalid={error ? true : undefined}
          aria-describedby={describedBy}
          className={`${inputStyles} ${trailing ? 'pr-12' : ''}`}
          {...input}
        />
        {trailing}
      </div>
      {error && <FieldError id={messageId}>{error}</FieldError>}
      {hint && (
        <p id={hintId} className="mt-1.5 text-sm text-smoke">
          {hint}
        </p>
      )}
    </div>
  );
}

/** The message under a field that failed a check. */
export function FieldError({ id, children }: { id: string; children: ReactNode }) {
  return (
    <p id={id} className="mt-1.5 flex items-start gap-1.5 text-sm font-bold text-ember-400">
      <CircleAlert className="mt-0.5 size-4 shrink-0" aria-hidden="true" />
      <span>{children}</span>
    </p>
  );
}
