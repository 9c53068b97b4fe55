import { CUSTOM_SIZE_MAX, SIZE_CHEST_GUIDE, SIZES, type Size } from '@rally/shared/catalog/registration';
import { useId } from 'react';
import { FieldError, TextField } from './text-field';

interface SizePickerProps {
  legend: string;
  /** Used in the custom field's label, e.g. 'T-shirt'. */
  itemName: string;
  name: string;
  value: Size | '';
  custom: string;
  onChange: (size: Size) => void;
  onCustomChange: (text: string) => void;
  /**
   * Prints each size's chest measurement under it. Registration leaves it off because
   * its form has the sizing guide table beside the pickers, and uses tighter cells.
   */
  showChestGuide?: boolean;
  /** A failed check on the size, with its message's id (a form's error summary links to it). */
  error?: { message: string; id: string };
  /** A failed check on the CUSTOM text. */
  customError?: { message: string; id: string };
}

const optionBase =
  'flex cursor-pointer items-center justify-center rounded-md border-2 border-ink-600 bg-ink-850 font-bold text-bone transition-colors hover:border-fire-500 has-[:checked]:border-fire-500 has-[:checked]:bg-fire-500 has-[:checked]:text-ink-950 has-[:focus-visible]:outline-3 has-[:focus-visible]:outline-gold-400';
const withGuide = { grid: 'gap-2', option: `${optionBase} min-h-12 flex-col px-1 text-sm` };
const compact = { grid: 'gap-1.5 sm:gap-2', option: `${optionBase} min-h-11 px-0.5 text-[0.8rem] sm:text-sm` };

/** One size out of the catalogue as a radio group, with free text for CUSTOM. */
export function SizePicker({
  legend,
  itemName,
  name,
  value,
  custom,
  onChange,
  onCustomChange,
  showChestGuide = false,
  error,
  customError,
}: SizePickerProps) {
  const legendId = useId();
  const layout = showChestGuide ? withGuide : compact;
  return (
    <fieldset
      aria-labelledby={legendId}
      aria-invalid={error ? true : undefined}
      aria-describedby={error?.id}
      className="min-w-0"
    >
      <legend id={legendId} className="mb-2 text-sm font-bold tracking-wide text-ash uppercase">
        {legend}
        <span className="ml-1 text-fire-400" aria-hidden="true">
          *
        </span>
      </legend>
      {/* A column is never narrower than its label: in the form's narrow column on a desktop,
          equal eighths left CUSTOM wider than its box. */}
      <div className={`grid grid-cols-4 sm:grid-cols-[repeat(8,minmax(min-content,1fr))] ${layout.grid}`}>
        {SIZES.map((size) => (
          <label key={size} className={layout.option}>
            <input
              type="radio"
              name={name}
              value={size}
              checked={value === size}
              onChange={() => onChange(size)}
              className="sr-only"
            />
            {size}
            {showChestGuide && size !== 'CUSTOM' && (
              <span className="text-[0.65rem] font-normal opacity-80">{SIZE_CHEST_GUIDE[size]}″</span>
            )}
          </label>
        ))}
      </div>
      {error && <FieldError id={error.id}>{error.message}</FieldError>}
      {value === 'CUSTOM' && (
        <TextField
          className="mt-3"
          label={`Custom ${itemName} size`}
          name={`custom-${name}`}
          required
          maxLength={CUSTOM_SIZE_MAX}
          placeholder="e.g. chest 58 in, long fit"
          value={custom}
          onChange={(e) => onCustomChange(e.target.value)}
          error={customError?.message}
          errorId={customError?.id}
        />
      )}
    </fieldset>
  );
}
