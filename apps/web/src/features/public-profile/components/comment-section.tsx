import { COMMENTS_PAGE_SIZE } from '@rally/shared/catalog/web-client';
import type { Comment } from '@rally/shared/contracts/profiles';
import { useInfiniteQuery, useMutation, useQueryClient } from '@tanstack/react-query';
import { LogIn, MessageSquareHeart, Send } from 'lucide-react';
import { type FormEvent, useId, useState } from 'react';
import { Link } from 'react-router';
import { buttonStyles } from '../../../components/ui/button-styles';
import { inputStyles, labelStyles } from '../../../components/ui/field-styles';
import { Spinner } from '../../../components/ui/spinner';
import { ApiError } from '../../../lib/api-client';
import { formatRelativeTime } from '../../../lib/format';
import { toast } from '../../../lib/toast';
import { fetchComments, postComment, profileKeys } from '../api/profile-api';
import { demoComments } from '../lib/demo-profile';
import { ProfileAvatar } from './profile-avatar';
import { RoleBadge } from './rider-badges';

interface CommentSectionProps {
  profileId: string;
  isDemo: boolean;
  /** The visitor, when signed in. */
  viewerId: string | null;
  /** What the visitor would be named as the author of a demo comment. */
  viewerName: string;
  onCommentAdded: () => void;
}

export function CommentSection({ profileId, isDemo, viewerId, viewerName, onCommentAdded }: CommentSectionProps) {
  const queryClient = useQueryClient();
  const [localComments, setLocalComments] = useState<Comment[]>(() => (isDemo ? demoComments() : []));

  const query = useInfiniteQuery({
    queryKey: profileKeys.comments(profileId),
    queryFn: ({ pageParam }) => fetchComments(profileId, pageParam, COMMENTS_PAGE_SIZE),
    initialPageParam: 0,
    getNextPageParam: (last) => {
      const next = last.offset + last.comments.length;
      return next < last.total ? next : undefined;
    },
    enabled: !isDemo,
  });

  const mutation = useMutation({
    mutationFn: (text: string) => postComment(profileId, text),
    onSuccess: () => {
      toast.success('Comment added! Your support has been sent. 🔥');
      onCommentAdded();
      return queryClient.invalidateQueries({ queryKey: profileKeys.comments(profileId) });
    },
    onError: (error) => {
      // The server's word is clearer for refusals the rider can act on (e.g. not yet verified).
      const known = error instanceof ApiError && [403, 404].includes(error.status);
      toast.error(known ? error.message : 'Failed to add comment. Please try again.');
    },
  });

  const isOwn = viewerId !== null && viewerId === profileId;
  const comments = isDemo ? localComments : (query.data?.pages.flatMap((p) => p.comments) ?? []);
  const total = isDemo ? localComments.length : (query.data?.pages[0]?.total ?? 0);

  const submit = async (text: string) => {
    if (!viewerId) {
      toast.error('Please log in to add comments');
      return false;
    }
    if (isOwn) {
      toast.error('You cannot comment on your own profile');
      return false;
    }
    if (isDemo) {
      setLocalComments((list) => [
        {
          id: `local-${Date.now()}`,
          authorId: viewerId,
          author: viewerName,
          authorRank: 'participant',
          text,
          timestamp: new Date().toISOString(),
        },
        ...list,
      ]);
      onCommentAdded();
      return true;
    }
    try {
      await mutation.mutateAsync(text);
      return true;
    } catch {
      return false;
    }
  };

  return (
    <section aria-labelledby="warrior-support" className="rounded-xl border border-ink-700 bg-ink-900 p-4 sm:p-6">
      <div className="flex items-center justify-between gap-3">
        <h2 id="warrior-support" className="flex items-center gap-2 text-2xl text-fire-300 sm:text-3xl">
          <MessageSquareHeart className="size-7 text-fire-400" aria-hidden="true" />
          Warrior Support
        </h2>
        <span className="shrink-0 whitespace-nowrap rounded-full bg-ink-800 px-3 py-1 text-sm font-bold text-ash">
          {total} {total === 1 ? 'message' : 'messages'}
        </span>
      </div>

      <div className="mt-4">
        {!viewerId ? (
          <div className="flex flex-col items-start gap-3 rounded-lg border border-dashed border-ink-600 bg-ink-850 p-4 sm:flex-row sm:items-center sm:justify-between">
            <p className="text-ash">Please log in to add comments</p>
            <Link to="/login" className={buttonStyles('secondary', 'md')}>
              <LogIn className="size-5" aria-hidden="true" />
              Log in
            </Link>
          </div>
        ) : isOwn ? (
          <p role="note" className="rounded-lg border border-dashed border-ink-600 bg-ink-850 p-4 text-ash">
            You cannot comment on your own profile
          </p>
        ) : (
          <CommentForm busy={mutation.isPending} onSubmit={submit} />
        )}
      </div>

      <div className="mt-5">
        {!isDemo && query.isPending ? (
          <Spinner label="Loading support messages..." className="py-8" />
        ) : !isDemo && query.isError ? (
          <div role="alert" className="py-6 text-center text-ash">
            <p>Failed to load comments.</p>
            <button type="button" onClick={() => query.refetch()} className={buttonStyles('secondary', 'md', 'mt-3')}>
              Retry
            </button>
          </div>
        ) : comments.length === 0 ? (
          <p className="py-8 text-center text-ash">No support messages yet. Be the first to cheer this warrior on!</p>
        ) : (
          <section
            aria-label="Support messages"
            // Focusable so keyboard users can scroll the list too.
            // biome-ignore lint/a11y/noNoninteractiveTabindex: a scrollable region must be reachable by keyboard
            tabIndex={0}
            className="max-h-[32rem] overflow-y-auto rounded-lg pr-1"
          >
            <ul className="space-y-3">
              {comments.map((c) => (
                <CommentItem key={c.id} comment={c} />
              ))}
            </ul>
            {!isDemo && query.hasNextPage && (
              <div className="mt-3 text-center">
                <button
                  type="button"
                  onClick={() => query.fetchNextPage()}
                  disabled={query.isFetchingNextPage}
                  className={buttonStyles('ghost', 'md')}
                >
                  {query.isFetchingNextPage ? 'Loading...' : 'Load older messages'}
                </button>
              </div>
            )}
          </section>
        )}
      </div>
    </section>
  );
}

function CommentForm({ busy, onSubmit }: { busy: boolean; onSubmit: (text: string) => Promise<boolean> }) {
  const [text, setText] = useState('');
  const id = useId();
  const blank = text.trim() === '';

  const handle = async (event: FormEvent) => {
    event.preventDefault();
    if (blank || busy) return;
    if (await onSubmit(text.trim())) setText('');
  };

  return (
    <form onSubmit={handle} aria-label="Add a support message">
      <label htmlFor={id} className={labelStyles}>
        Your support message
      </label>
      <textarea
        id={id}
        name="comment"
        rows={3}
        value={text}
        onChange={(e) => setText(e.target.value)}
        placeholder="Cheer this warrior on..."
        className={`${inputStyles} resize-y`}
      />
      <div className="mt-2 flex items-center justify-between gap-3">
        <span className="text-xs text-smoke">{text.length === 1 ? '1 character' : `${text.length} characters`}</span>
        <button type="submit" disabled={blank || busy} className={buttonStyles('primary', 'md')}>
          <Send className="size-5" aria-hidden="true" />
          {busy ? 'Sending...' : 'Send'}
        </button>
      </div>
    </form>
  );
}

function CommentItem({ comment }: { comment: Comment }) {
  const isDemoAuthor = comment.authorId.startsWith('demo');
  return (
    <li className="flex gap-3 rounded-lg border border-ink-700 bg-ink-850 p-3">
      {isDemoAuthor ? (
        <ProfileAvatar userId={null} name={comment.author} hasImage={false} className="size-10" />
      ) : (
        <Link
          to={`/user/${comment.authorId}`}
          className="shrink-0 rounded-full"
          aria-label={`Profile of ${comment.author}`}
        >
          <ProfileAvatar userId={comment.authorId} name={comment.author} className="size-10" />
        </Link>
      )}
      <div className="min-w-0 flex-1">
        <div className="flex flex-wrap items-center gap-x-2 gap-y-1">
          <span className="font-bold text-bone">{comment.author}</span>
          <RoleBadge role={comment.authorRank} size="sm" />
          <time dateTime={comment.timestamp} className="ml-auto text-xs text-smoke">
            {formatRelativeTime(comment.timestamp)}
          </time>
        </div>
        <p className="mt-1 whitespace-pre-line wrap-anywhere text-ash">{comment.text}</p>
      </div>
    </li>
  );
}
