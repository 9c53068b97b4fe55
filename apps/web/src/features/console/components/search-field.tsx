import { TEXT_LIMITS } from '@rally/shared/contracts/common';
import { Search } from 'lucide-react';
import { useId } from 'react';
import { inputStyles, labelStyles } from '../../../components/ui/field-styles';

interface SearchFieldProps {
  label: string;
  value: string;
  onChange: (value: string) => void;
  placeholder?: string;
  className?: string;
}

export function SearchField({ label, value, onChange, placeholder, className = '' }: SearchFieldProps) {
  const id = useId();
  return (
    <div className={`relative ${className}`}>
      <label htmlFor={id} className="sr-only">
        {label}
      </label>
      <Search
        className="pointer-events-none absolute top-1/2 left-3 size-5 -translate-y-1/2 text-smoke"
        aria-hidden="true"
      />
      <input
        id={id}
        type="search"
        value={value}
        onChange={(e) => onChange(e.target.value)}
        placeholder={placeholder ?? label}
        maxLength={TEXT_LIMITS.search}
        className={`${inputStyles} pl-10`}
      />
    </div>
  );
}

/**
 * A search box under a visible 'Search' caption, so it lines up with the labelled selects
 * of a filter row; the caption is hidden from screen readers, which read the field's label.
 */
export function LabelledSearchField({ className, ...field }: SearchFieldProps) {
  return (
    <div className={className}>
      <span className={labelStyles} aria-hidden="true">
        Search
      </span>
      <SearchField {...field} />
    </div>
  );
}
