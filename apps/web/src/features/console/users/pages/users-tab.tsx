// User Management (spec/staff-console.md §2): verified accounts the viewer may see,
// searched, filtered and paginated on the server.
import type { AdminUser } from '@rally/shared/contracts/users';
import { USERS_PAGE_SIZE } from '@rally/shared/contracts/users';
import { keepPreviousData, useQuery } from '@tanstack/react-query';
import { Users } from 'lucide-react';
import { useState } from 'react';
import { consoleKeys } from '../../api/console-keys';
import { useUserActions } from '../../api/use-user-actions';
import { fetchUsers } from '../../api/users-api';
import { EditWarriorModal } from '../../components/edit-warrior-modal';
import { EmptyPanel, ErrorPanel, LoadingPanel } from '../../components/list-states';
import { PaginationBar } from '../../components/pagination-bar';
import { TabHeading } from '../../components/tab-heading';
import { useDebounced } from '../../components/use-debounced';
import { WarriorDetailsModal } from '../../components/warrior-details-modal';
import { type UserFilterValues, UsersFilters } from '../components/users-filters';
import { UsersTable } from '../components/users-table';

export default function UsersTab() {
  const [filters, setFilters] = useState<UserFilterValues>({
    search: '',
    role: 'all',
    category: 'all',
    riderNumber: 'all',
  });
  const [page, setPage] = useState(1);
  const [viewing, setViewing] = useState<AdminUser | null>(null);
  const [editing, setEditing] = useState<AdminUser | null>(null);
  const search = useDebounced(filters.search.trim());
  const actions = useUserActions();

  const params = { ...filters, search, page };
  const query = useQuery({
    queryKey: consoleKeys.usersList(params),
    queryFn: () => fetchUsers(params, USERS_PAGE_SIZE),
    placeholderData: keepPreviousData,
  });

  const changeFilters = (next: Partial<UserFilterValues>) => {
    setFilters((f) => ({ ...f, ...next }));
    setPage(1);
  };

  return (
    <section>
      <TabHeading title="User Management" icon={Users} />
      <UsersFilters values={filters} onChange={changeFilters} />
      <div className="mt-4">
        {query.isPending ? (
          <LoadingPanel label="Loading warriors..." />
        ) : query.isError ? (
          <ErrorPanel message="Failed to load users" detail={query.error.message} onRetry={() => query.refetch()} />
        ) : (
          <>
            <p className="mb-2 text-sm text-ash" aria-live="polite">
              Showing {query.data.users.length} of {query.data.pagination.total} warriors
            </p>
            {query.data.users.length === 0 ? (
              <EmptyPanel message="No warriors found matching your filters." />
            ) : (
              <UsersTable users={query.data.users} actions={actions} onView={setViewing} onEdit={setEditing} />
            )}
            <PaginationBar
              page={query.data.pagination.page}
              totalPages={query.data.pagination.total_pages}
              onPage={setPage}
              label="User list pages"
            />
          </>
        )}
      </div>
      <WarriorDetailsModal user={viewing} onClose={() => setViewing(null)} />
      <EditWarriorModal user={editing} onClose={() => setEditing(null)} />
    </section>
  );
}
