import { CUSTOM_SIZE_MAX, SIZES, type Size } from '@rally/shared/catalog';
import { useId } from 'react';
import { TextField } from '../../../components/ui/text-field';

interface SizeChoiceProps {
  label: string;
  /** Lower-case name for the custom field label, e.g. 'T-shirt'. */
  customLabel: string;
  name: string;
  value: Size | '';
  custom: string;
  onChange: (size: Size) => void;
  onCustomChange: (text: string) => void;
}

export function SizeChoice({ label, customLabel, name, value, custom, onChange, onCustomChange }: SizeChoiceProps) {
  const legendId = useId();
  return (
    <fieldset aria-labelledby={legendId} className="min-w-0">
      <legend id={legendId} className="mb-2 text-sm font-bold tracking-wide text-ash uppercase">
        {label}
        <span className="ml-1 text-fire-400" aria-hidden="true">
          *
        </span>
      </legend>
      <div className="grid grid-cols-4 gap-1.5 sm:grid-cols-8 sm:gap-2">
        {SIZES.map((size) => (
          <label
            key={size}
            className="flex min-h-11 cursor-pointer items-center justify-center rounded-md border-2 border-ink-600 bg-ink-850 px-0.5 text-[0.8rem] font-bold sm:text-sm text-bone transition-colors hover:border-fire-500 has-[:checked]:border-fire-500 has-[:checked]:bg-fire-500 has-[:checked]:text-ink-950 has-[:focus-visible]:outline-3 has-[:focus-visible]:outline-gold-400"
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
          </label>
        ))}
      </div>
      {value === 'CUSTOM' && (
        <TextField
          className="mt-3"
          label={`Custom ${customLabel} size`}
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
