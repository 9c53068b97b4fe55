// The rider's followers (DESIGN.md §10): who follows by email (masked) or by a browser, and
// a Remove for each. Mounted in My Profile by the screen that owns it.
import { useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import { Bell, Mail, TriangleAlert, Users } from 'lucide-react';
import { useState } from 'react';
import { buttonStyles } from '../../components/ui/button-styles';
import { Modal } from '../../components/ui/modal';
import { Spinner } from '../../components/ui/spinner';
import { ApiError } from '../../lib/api-client';
import { toast } from '../../lib/toast';
import { type FollowerView, fetchMyFollowers, followKeys, removeFollower } from '../follow/api/follow-api';
import { TabMessage } from './components/tab-state';

function since(at: string): string {
  return new Date(at).toLocaleDateString('en-PH', { month: 'short', day: 'numeric', year: 'numeric' });
}

export function FollowersList() {
  const queryClient = useQueryClient();
  const query = useQuery({ queryKey: followKeys.mine, queryFn: fetchMyFollowers });
  const [removing, setRemoving] = useState<FollowerView | null>(null);
  const remove = useMutation({
    mutationFn: (id: string) => removeFollower(id),
    onSuccess: (_answer, id) => {
      queryClient.setQueryData<FollowerView[]>(followKeys.mine, (list) => list?.filter((f) => f.id !== id));
      setRemoving(null);
      toast.success('Follower removed');
    },
    onError: (error) => {
      // Already gone (removed from another phone, or unsubscribed): the list is stale.
      if (error instanceof ApiError && error.status === 404) {
        setRemoving(null);
        void queryClient.invalidateQueries({ queryKey: followKeys.mine });
        return;
      }
      toast.error(error instanceof ApiError ? error.message : 'Failed to remove the follower. Try again.');
    },
  });

  if (query.isPending) return <Spinner label="Loading followers..." className="py-10" />;
  if (query.isError)
    return (
      <TabMessage
        tone="error"
        icon={<TriangleAlert className="size-12 text-ember-400" aria-hidden="true" />}
        title="Failed to load followers"
        onRetry={() => query.refetch()}
      />
    );
  const followers = query.data;
  if (followers.length === 0)
    return (
      <TabMessage icon={<Users className="size-12 text-smoke" aria-hidden="true" />} title="No followers yet">
        No one follows you yet. Share your public profile so family can follow your ride.
      </TabMessage>
    );

  return (
    <>
      <ul className="divide-y divide-ink-700 rounded-lg border border-ink-700" data-testid="followers-list">
        {followers.map((f) => {
          const Icon = f.channel === 'email' ? Mail : Bell;
          return (
            <li key={f.id} className="flex items-start gap-3 py-3 pr-2 pl-3 sm:px-4">
              <Icon className="mt-0.5 size-5 shrink-0 text-fire-400" aria-hidden="true" />
              {/* On a narrow phone Remove goes under the text rather than squeezing the address. */}
              <div className="flex min-w-0 flex-1 flex-wrap items-center justify-between gap-x-3">
                <div className="min-w-[11rem] flex-1">
                  <p className="font-bold break-words text-bone">{f.label}</p>
                  <p className="text-sm text-smoke">
                    {f.channel === 'email' ? 'Email' : 'Notifications'} · since {since(f.createdAt)}
                    {!f.confirmed && <span className="text-gold-300"> · waiting for the email's confirmation</span>}
                  </p>
                </div>
                <button
                  type="button"
                  onClick={() => setRemoving(f)}
                  className={buttonStyles('ghost', 'md', '-ml-2 shrink-0 px-2 text-ember-400 sm:ml-0 sm:px-4')}
                >
                  Remove
                </button>
              </div>
            </li>
          );
        })}
      </ul>
      <Modal
        open={removing !== null}
        onClose={() => setRemoving(null)}
        dismissible={!remove.isPending}
        title="Remove follower?"
        footer={
          <div className="flex flex-col-reverse gap-3 sm:flex-row sm:justify-end">
            <button
              type="button"
              onClick={() => setRemoving(null)}
              disabled={remove.isPending}
              className={buttonStyles('ghost')}
            >
              Cancel
            </button>
            <button
              type="button"
              onClick={() => removing && remove.mutate(removing.id)}
              disabled={remove.isPending}
              className={buttonStyles('danger')}
            >
              {remove.isPending ? 'Removing...' : 'Remove'}
            </button>
          </div>
        }
      >
        <p className="text-ash">
          <span className="font-bold text-bone">{removing?.label}</span> will get no more news of your ride. They can
          follow you again from your public profile.
        </p>
      </Modal>
    </>
  );
}
