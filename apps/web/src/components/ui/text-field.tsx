import { type InputHTMLAttributes, type ReactNode, useId } from 'react';
import { inputStyles, labelStyles } from './field-styles';

interface TextFieldProps extends Omit<InputHTMLAttributes<HTMLInputElement>, 'id'> {
  label: string;
  hint?: ReactNode;
  /** Rendered after the input inside the same positioned box (e.g. a show/hide toggle). */
  trailing?: ReactNode;
}

export function TextField({ label, hint, trailing, required, className = '', ...input }: TextFieldProps) {
  const id = useId();
  const hintId = `${id}-hint`;
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
          aria-describedby={hint ? hintId : undefined}
          className={`${inputStyles} ${trailing ? 'pr-12' : ''}`}
          {...input}
        />
        {trailing}
      </div>
      {hint && (
        <p id={hintId} className="mt-1.5 text-sm text-smoke">
          {hint}
        </p>
      )}
    </div>
  );
}
