import type { UseQueryResult } from '@tanstack/react-query';
import { type LucideIcon, RefreshCw, TriangleAlert } from 'lucide-react';
import type { ComponentProps, ReactNode } from 'react';
import { buttonStyles } from '../../../components/ui/button-styles';
import { Spinner } from '../../../components/ui/spinner';
import { PaginationBar } from './pagination-bar';

export function LoadingPanel({ label = 'Loading...' }: { label?: string }) {
  return (
    <div className="flex justify-center py-12">
      <Spinner label={label} />
    </div>
  );
}

/** A failed list: the tab's failure message and a Retry button. */
export function ErrorPanel({
  message,
  detail,
  onRetry,
  retryLabel = 'Retry',
}: {
  message: string;
  detail?: string;
  onRetry: () => void;
  retryLabel?: string;
}) {
  return (
    <div
      role="alert"
      className="flex flex-col items-center gap-3 rounded-lg border border-ember-600 bg-ember-700/10 px-4 py-8 text-center"
    >
      <TriangleAlert className="size-8 text-ember-400" aria-hidden="true" />
      <p className="font-bold text-bone">{message}</p>
      {detail && detail !== message && <p className="text-sm text-ash">{detail}</p>}
      <button type="button" onClick={onRetry} className={buttonStyles('secondary')}>
        <RefreshCw className="size-4" aria-hidden="true" />
        {retryLabel}
      </button>
    </div>
  );
}

export function EmptyPanel({ message }: { message: string }) {
  return <p className="rounded-lg border border-dashed border-ink-600 px-4 py-10 text-center text-ash">{message}</p>;
}

/** A list query's loading and failed states; `children` renders the loaded data. */
export function QueryStates<T>({
  query,
  loadingLabel,
  errorMessage,
  retryLabel,
  children,
}: {
  query: UseQueryResult<T>;
  loadingLabel: string;
  errorMessage: string;
  retryLabel?: string;
  children: (data: T) => ReactNode;
}) {
  if (query.isPending) return <LoadingPanel label={loadingLabel} />;
  if (query.isError) {
    return (
      <ErrorPanel
        message={errorMessage}
        detail={query.error.message}
        onRetry={() => query.refetch()}
        retryLabel={retryLabel}
      />
    );
  }
  return children(query.data);
}

export function ShowingCount({
  shown,
  total,
  noun,
  icon: Icon,
}: {
  shown: number;
  total: number;
  noun: string;
  icon?: LucideIcon;
}) {
  return (
    <p className={`mb-2 text-sm text-ash${Icon ? ' flex items-center gap-2' : ''}`} aria-live="polite">
      {Icon && <Icon className="size-4" aria-hidden="true" />}
      Showing {shown} of {total} {noun}
    </p>
  );
}

/**
 * One loaded page of a server-paged list: how many are shown, the rows or an empty
 * message, and the page controls (which hide themselves on a single page).
 */
export function PagedResults({
  shown,
  total,
  noun,
  countIcon,
  emptyMessage,
  pagination,
  children,
}: {
  shown: number;
  total: number;
  noun: string;
  countIcon?: LucideIcon;
  emptyMessage: string;
  pagination: ComponentProps<typeof PaginationBar>;
  children: ReactNode;
}) {
  return (
    <>
      <ShowingCount shown={shown} total={total} noun={noun} icon={countIcon} />
      {shown === 0 ? <EmptyPanel message={emptyMessage} /> : children}
      <PaginationBar {...pagination} />
    </>
  );
}
