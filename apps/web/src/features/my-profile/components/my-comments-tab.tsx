import { useInfiniteQuery } from '@tanstack/react-query';
import { MessageSquareDashed, TriangleAlert } from 'lucide-react';
import { useEffect } from 'react';
import { Link } from 'react-router';
import { buttonStyles } from '../../../components/ui/button-styles';
import { Spinner } from '../../../components/ui/spinner';
import { formatRelativeTime } from '../../../lib/format';
import { toast } from '../../../lib/toast';
import { ProfileAvatar } from '../../public-profile/components/profile-avatar';
import { RoleBadge } from '../../public-profile/components/rider-badges';
import { fetchMyComments, myKeys } from '../api/my-profile-api';
import { TabMessage } from './tab-state';

/** The support messages this rider left on other warriors' profiles. */
export function MyCommentsTab() {
  const query = useInfiniteQuery({
    queryKey: myKeys.comments,
    queryFn: ({ pageParam }) => fetchMyComments(pageParam),
    initialPageParam: 0,
    getNextPageParam: (last) => {
      const next = last.offset + last.comments.length;
      return next < last.total ? next : undefined;
    },
  });

  useEffect(() => {
    if (query.isError) toast.error('Failed to load your comments');
  }, [query.isError]);

  if (query.isPending) return <Spinner label="Loading your comments..." className="py-12" />;
  if (query.isError) {
    return (
      <TabMessage
        tone="error"
        icon={<TriangleAlert className="size-12 text-ember-400" aria-hidden="true" />}
        title="Failed to load your comments"
        onRetry={() => query.refetch()}
      />
    );
  }
  const comments = query.data.pages.flatMap((p) => p.comments);
  const total = query.data.pages[0]?.total ?? 0;
  if (comments.length === 0) {
    return (
      <TabMessage
        icon={<MessageSquareDashed className="size-12 text-smoke" aria-hidden="true" />}
        title="No Comments Yet"
      >
        Visit a fellow warrior's profile and leave them a support message.
      </TabMessage>
    );
  }
  return (
    <div>
      <h2 className="text-2xl text-fire-300">Your Support Messages</h2>
      <p className="mt-1 text-sm text-ash">
        {total} {total === 1 ? 'message' : 'messages'} sent to fellow warriors
      </p>
      <ul className="mt-4 space-y-3">
        {comments.map((c) => {
          const name = c.commentedOnUserKitName?.trim() || c.commentedOnUser;
          return (
            <li key={c.id} className="flex gap-3 rounded-lg border border-ink-700 bg-ink-850 p-3">
              <Link
                to={`/user/${c.commentedOnUserId}`}
                className="shrink-0 rounded-full"
                aria-label={`Profile of ${name}`}
              >
                <ProfileAvatar userId={c.commentedOnUserId} name={name} className="size-10" />
              </Link>
              <div className="min-w-0 flex-1">
                <p className="text-xs font-bold uppercase tracking-wide text-smoke">To</p>
                <div className="flex flex-wrap items-center gap-x-2 gap-y-1">
                  <Link
                    to={`/user/${c.commentedOnUserId}`}
                    className="font-bold text-fire-300 underline-offset-4 hover:underline"
                  >
                    {c.commentedOnUser}
                  </Link>
                  {c.commentedOnUserKitName && <span className="text-sm text-ash">“{c.commentedOnUserKitName}”</span>}
                  <RoleBadge role={c.commentedOnUserRank} size="sm" />
                  <time dateTime={c.timestamp} className="ml-auto text-xs text-smoke">
                    {formatRelativeTime(c.timestamp)}
                  </time>
                </div>
                <p className="mt-1 whitespace-pre-line wrap-anywhere text-ash">{c.text}</p>
              </div>
            </li>
          );
        })}
      </ul>
      {query.hasNextPage && (
        <div className="mt-4 text-center">
          <button
            type="button"
            onClick={() => query.fetchNextPage()}
            disabled={query.isFetchingNextPage}
            className={buttonStyles('ghost', 'md')}
          >
            {query.isFetchingNextPage ? 'Loading...' : 'Load more'}
          </button>
        </div>
      )}
    </div>
  );
}
