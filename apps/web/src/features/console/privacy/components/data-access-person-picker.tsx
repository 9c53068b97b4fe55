// Picks one rider or one staff member for the access log or the breach kit: a search by
// name or email against GET /api/admin/data-access/people, which answers names and emails
// only (looking someone up here is not a read of their sensitive data).
import { useQuery } from '@tanstack/react-query';
import { UserRound, X } from 'lucide-react';
import { useId, useState } from 'react';
import { labelStyles } from '../../../../components/ui/field-styles';
import { SearchField } from '../../components/search-field';
import { useDebounced } from '../../components/use-debounced';
import { type DataAccessPerson, dataAccessKeys, findPeople, type PeopleKind } from './data-access-api';

export function DataAccessPersonPicker({
  who,
  label,
  value,
  onChange,
}: {
  who: PeopleKind;
  label: string;
  value: DataAccessPerson | null;
  onChange: (person: DataAccessPerson | null) => void;
}) {
  const [search, setSearch] = useState('');
  const settled = useDebounced(search.trim());
  const listId = useId();
  const people = useQuery({
    queryKey: dataAccessKeys.people(who, settled),
    queryFn: () => findPeople(who, settled),
    enabled: value === null && settled.length >= 2,
  });

  if (value) {
    return (
      <div>
        <span className={labelStyles}>{label}</span>
        <div
          data-testid="data-access-picked"
          className="flex min-h-12 items-center gap-2 rounded-md border-2 border-fire-600 bg-ink-900 px-3 py-1.5"
        >
          <UserRound className="size-5 shrink-0 text-fire-400" aria-hidden="true" />
          <div className="min-w-0 flex-1">
            <p className="font-bold wrap-anywhere text-bone">{value.name}</p>
            <p className="text-xs wrap-anywhere text-ash">{value.email}</p>
          </div>
          <button
            type="button"
            onClick={() => {
              onChange(null);
              setSearch('');
            }}
            aria-label={`Clear ${value.name}`}
            className="rounded p-2 text-ash hover:bg-ink-800 hover:text-bone"
          >
            <X className="size-5" aria-hidden="true" />
          </button>
        </div>
      </div>
    );
  }

  const results = people.data ?? [];
  return (
    <div>
      <span className={labelStyles} aria-hidden="true">
        {label}
      </span>
      <SearchField
        label={label}
        value={search}
        onChange={setSearch}
        placeholder={who === 'riders' ? 'Rider’s name or email' : 'Staff member’s name or email'}
      />
      {settled.length >= 2 && (
        <div id={listId} className="mt-1 rounded-md border border-ink-700 bg-ink-900" aria-live="polite">
          {people.isPending ? (
            <p className="px-3 py-2 text-sm text-ash">Searching...</p>
          ) : people.isError ? (
            <p className="px-3 py-2 text-sm text-ember-400">The search failed: {people.error.message}</p>
          ) : results.length === 0 ? (
            <p className="px-3 py-2 text-sm text-ash">
              No {who === 'riders' ? 'rider' : 'staff member'} matches “{settled}”.
            </p>
          ) : (
            <ul className="divide-y divide-ink-700">
              {results.map((p) => (
                <li key={p.id}>
                  <button
                    type="button"
                    data-testid="data-access-person"
                    onClick={() => onChange(p)}
                    className="block w-full px-3 py-2 text-left hover:bg-ink-800 focus-visible:bg-ink-800"
                  >
                    <span className="block font-bold wrap-anywhere text-bone">{p.name}</span>
                    <span className="block text-xs wrap-anywhere text-ash">{p.email}</span>
                  </button>
                </li>
              ))}
            </ul>
          )}
        </div>
      )}
    </div>
  );
}
