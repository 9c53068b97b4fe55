import { CATEGORIES, categoryDisplay, ROLES } from '@rally/shared/catalog';
import { useId } from 'react';
import { inputStyles, labelStyles } from '../../../../components/ui/field-styles';
import { staffRoleLabel } from '../../components/display';
import { SearchField } from '../../components/search-field';

export interface UserFilterValues {
  search: string;
  role: string;
  category: string;
  riderNumber: string;
}

function Select({
  label,
  value,
  onChange,
  options,
}: {
  label: string;
  value: string;
  onChange: (v: string) => void;
  options: ReadonlyArray<readonly [string, string]>;
}) {
  const id = useId();
  return (
    <div>
      <label htmlFor={id} className={labelStyles}>
        {label}
      </label>
      <select id={id} value={value} onChange={(e) => onChange(e.target.value)} className={inputStyles}>
        {options.map(([v, text]) => (
          <option key={v} value={v}>
            {text}
          </option>
        ))}
      </select>
    </div>
  );
}

const RANK_OPTIONS = [['all', 'All ranks'], ...ROLES.map((r) => [r, staffRoleLabel(r)] as const)] as const;
const CATEGORY_OPTIONS = [
  ['all', 'All categories'],
  ...CATEGORIES.map((c) => [c, categoryDisplay(c).name] as const),
  ['not_set', 'Not Set'],
] as const;
const NUMBER_OPTIONS = [
  ['all', 'All riders'],
  ['with', 'With rider #'],
  ['without', 'Without rider #'],
] as const;

export function UsersFilters({
  values,
  onChange,
}: {
  values: UserFilterValues;
  onChange: (next: Partial<UserFilterValues>) => void;
}) {
  return (
    <div className="grid grid-cols-1 gap-3 sm:grid-cols-2 lg:grid-cols-[2fr_1fr_1fr_1fr] lg:items-end">
      <div>
        <span className={labelStyles} aria-hidden="true">
          Search
        </span>
        <SearchField
          label="Search by kit name, full name or email"
          placeholder="Kit name, full name or email"
          value={values.search}
          onChange={(search) => onChange({ search })}
        />
      </div>
      <Select label="Rank" value={values.role} onChange={(role) => onChange({ role })} options={RANK_OPTIONS} />
      <Select
        label="Category"
        value={values.category}
        onChange={(category) => onChange({ category })}
        options={CATEGORY_OPTIONS}
      />
      <Select
        label="Rider number"
        value={values.riderNumber}
        onChange={(riderNumber) => onChange({ riderNumber })}
        options={NUMBER_OPTIONS}
      />
    </div>
  );
}
