import { ROLES } from '@rally/shared/catalog/accounts';
import { CATEGORIES, categoryDisplay } from '@rally/shared/catalog/registration';
import type { UsersFilters as UsersListFilters } from '../../api/users-api';
import { staffRoleLabel } from '../../components/display';
import { LabelledSearchField } from '../../components/search-field';
import { SelectField } from '../../components/select-field';

export type UserFilterValues = Omit<UsersListFilters, 'page'>;

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
      <LabelledSearchField
        label="Search by kit name, full name or email"
        placeholder="Kit name, full name or email"
        value={values.search}
        onChange={(search) => onChange({ search })}
      />
      <SelectField label="Rank" value={values.role} onChange={(role) => onChange({ role })} options={RANK_OPTIONS} />
      <SelectField
        label="Category"
        value={values.category}
        onChange={(category) => onChange({ category })}
        options={CATEGORY_OPTIONS}
      />
      <SelectField
        label="Rider number"
        value={values.riderNumber}
        onChange={(riderNumber) => onChange({ riderNumber })}
        options={NUMBER_OPTIONS}
      />
    </div>
  );
}
