// Password Reset Management: staff issue one-hour, single-use
// reset links for the accounts they may see, and follow what became of them.
import type { ResetLinkResult, ResetUser } from '@rally/shared/contracts/password-resets';
import { keepPreviousData, useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import { Eraser, KeyRound, Link2 } from 'lucide-react';
import { useState } from 'react';
import { buttonStyles } from '../../../../components/ui/button-styles';
import { toast } from '../../../../lib/toast';
import { QueryStates } from '../../components/list-states';
import { PaginationBar } from '../../components/pagination-bar';
import { SearchField } from '../../components/search-field';
import { RankBadge } from '../../components/staff-badges';
import { TabHeading } from '../../components/tab-heading';
import { useDebounced } from '../../components/use-debounced';
import { usePage } from '../../components/use-page';
import { cleanupResetLinks, fetchResetUsers, generateResetLink, resetKeys } from '../api/password-resets-api';
import { ResetGeneratedModal } from '../components/reset-generated-modal';
import { ResetHistory } from '../components/reset-history';

function initialOf(u: ResetUser): string {
  const source = u.kit_name?.trim() || `${u.first_name} ${u.last_name}`.trim();
  return source ? source.charAt(0).toUpperCase() : '?';
}

export default function PasswordResetsTab() {
  const queryClient = useQueryClient();
  const [searchText, setSearchText] = useState('');
  const { page, setPage, resetting } = usePage();
  const [result, setResult] = useState<ResetLinkResult | null>(null);
  const search = useDebounced(searchText.trim());

  const users = useQuery({
    queryKey: resetKeys.users(search, page),
    queryFn: () => fetchResetUsers(search, page),
    placeholderData: keepPreviousData,
  });

  const generate = useMutation({
    mutationFn: generateResetLink,
    onSuccess: (link) => setResult(link),
    onError: () => toast.error('Failed to generate password reset link'),
    onSettled: () => queryClient.invalidateQueries({ queryKey: resetKeys.history }),
  });

  const cleanup = useMutation({
    mutationFn: cleanupResetLinks,
    onSuccess: (r) => toast.success(r.message ?? `Removed ${r.deleted} expired reset links`),
    onError: () => toast.error('Failed to clean up expired reset links'),
    onSettled: () => queryClient.invalidateQueries({ queryKey: resetKeys.history }),
  });

  return (
    <section>
      <TabHeading
        title="Password Reset Management"
        icon={KeyRound}
        actions={
          <button
            type="button"
            onClick={() => cleanup.mutate()}
            disabled={cleanup.isPending}
            className={buttonStyles('secondary')}
          >
            <Eraser className="size-4" aria-hidden="true" />
            {cleanup.isPending ? 'Cleaning...' : 'Clean Up Expired Links'}
          </button>
        }
      />
      <div className="grid grid-cols-1 gap-5 xl:grid-cols-[minmax(0,3fr)_minmax(0,2fr)]">
        <section className="rounded-lg border border-ink-700 bg-ink-900 p-4" aria-labelledby="reset-users">
          <h3 id="reset-users" className="mb-3 text-xl text-bone">
            Users
          </h3>
          <SearchField
            label="Search users by name, email or kit name"
            placeholder="Name, email or kit name"
            value={searchText}
            onChange={resetting(setSearchText)}
          />
          <div className="mt-3">
            <QueryStates query={users} loadingLabel="Loading users..." errorMessage="Failed to load users">
              {(data) =>
                data.users.length === 0 ? (
                  <div className="rounded-lg border border-dashed border-ink-600 px-4 py-10 text-center">
                    {search ? (
                      <>
                        <p className="font-bold text-bone">No users found matching your search</p>
                        <p className="mt-1 text-sm text-ash">Try adjusting your search terms</p>
                      </>
                    ) : (
                      <p className="text-ash">No users available</p>
                    )}
                  </div>
                ) : (
                  <>
                    <ul className="divide-y divide-ink-700">
                      {data.users.map((u) => (
                        <li
                          key={u.id}
                          className="flex flex-wrap items-center gap-3 py-3"
                          data-testid="reset-user"
                          data-user-id={u.id}
                        >
                          <span
                            aria-hidden="true"
                            className="flex size-11 shrink-0 items-center justify-center rounded-full bg-fire-500 font-display text-xl text-ink-950"
                          >
                            {initialOf(u)}
                          </span>
                          <div className="min-w-0 flex-1">
                            <p className="truncate font-bold text-bone">{`${u.first_name} ${u.last_name}`.trim()}</p>
                            <p className="truncate text-sm text-ash">{u.email}</p>
                            <div className="mt-1 flex flex-wrap items-center gap-2 text-xs text-smoke">
                              <RankBadge role={u.role} />
                              <span>Kit name: {u.kit_name?.trim() || 'Not Set'}</span>
                            </div>
                          </div>
                          <button
                            type="button"
                            onClick={() => generate.mutate(u.id)}
                            disabled={generate.isPending}
                            className={buttonStyles('primary', 'md', 'w-full sm:w-auto')}
                          >
                            <Link2 className="size-4" aria-hidden="true" />
                            {generate.isPending && generate.variables === u.id
                              ? 'Generating...'
                              : 'Generate Reset Link'}
                          </button>
                        </li>
                      ))}
                    </ul>
                    <PaginationBar
                      page={data.pagination.page}
                      totalPages={data.pagination.total_pages}
                      onPage={setPage}
                      label="User pages"
                    />
                  </>
                )
              }
            </QueryStates>
          </div>
        </section>
        <ResetHistory />
      </div>
      <ResetGeneratedModal result={result} onClose={() => setResult(null)} />
    </section>
  );
}
