import { CUSTOM_SIZE_MAX, SIZE_CHEST_GUIDE, SIZES, type Size } from '@rally/shared/catalog';
import { useId } from 'react';
import { TextField } from '../../../components/ui/text-field';

interface SizePickerProps {
  legend: string;
  /** Used in the custom field's label, e.g. 'T-shirt'. */
  itemName: string;
  name: string;
  value: Size | '';
  custom: string;
  onChange: (size: Size) => void;
  onCustomChange: (text: string) => void;
}

/** One size out of the catalogue as a radio group, with free text for CUSTOM. */
export function SizePicker({ legend, itemName, name, value, custom, onChange, onCustomChange }: SizePickerProps) {
  const legendId = useId();
  return (
    <fieldset aria-labelledby={legendId} className="min-w-0">
      <legend id={legendId} className="mb-2 text-sm font-bold tracking-wide text-ash uppercase">
        {legend}
        <span className="ml-1 text-fire-400" aria-hidden="true">
          *
        </span>
      </legend>
      <div className="grid grid-cols-4 gap-2 sm:grid-cols-8">
        {SIZES.map((size) => (
          <label
            key={size}
            className="flex min-h-12 cursor-pointer flex-col items-center justify-center rounded-md border-2 border-ink-600 bg-ink-850 px-1 text-sm font-bold text-bone transition-colors hover:border-fire-500 has-[:checked]:border-fire-500 has-[:checked]:bg-fire-500 has-[:checked]:text-ink-950 has-[:focus-visible]:outline-3 has-[:focus-visible]:outline-gold-400"
          >
            <input
              type="radio"
              name={name}
              value={size}
              checked={value === size}
              onChange={() => onChange(size)}
              className="sr-only"
            />
            {size}
            {size !== 'CUSTOM' && (
              <span className="text-[0.65rem] font-normal opacity-80">{SIZE_CHEST_GUIDE[size]}″</span>
            )}
          </label>
        ))}
      </div>
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
        />
      )}
    </fieldset>
  );
}
