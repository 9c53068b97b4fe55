// User Management: verified accounts the viewer may see,
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
import { PagedResults, QueryStates } from '../../components/list-states';
import { TabHeading } from '../../components/tab-heading';
import { useDebounced } from '../../components/use-debounced';
import { usePage } from '../../components/use-page';
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
  const { page, setPage, resetting } = usePage();
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

  const changeFilters = resetting((next: Partial<UserFilterValues>) => setFilters((f) => ({ ...f, ...next })));

  return (
    <section>
      <TabHeading title="User Management" icon={Users} />
      <UsersFilters values={filters} onChange={changeFilters} />
      <div className="mt-4">
        <QueryStates query={query} loadingLabel="Loading warriors..." errorMessage="Failed to load users">
          {(data) => (
            <PagedResults
              shown={data.users.length}
              total={data.pagination.total}
              noun="warriors"
              emptyMessage="No warriors found matching your filters."
              pagination={{
                page: data.pagination.page,
                totalPages: data.pagination.total_pages,
                onPage: setPage,
                label: 'User list pages',
              }}
            >
              <UsersTable users={data.users} actions={actions} onView={setViewing} onEdit={setEditing} />
            </PagedResults>
          )}
        </QueryStates>
      </div>
      <WarriorDetailsModal user={viewing} onClose={() => setViewing(null)} />
      <EditWarriorModal user={editing} onClose={() => setEditing(null)} />
    </section>
  );
}
