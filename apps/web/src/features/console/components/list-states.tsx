import { RefreshCw, TriangleAlert } from 'lucide-react';
import { buttonStyles } from '../../../components/ui/button-styles';
import { Spinner } from '../../../components/ui/spinner';

export function LoadingPanel({ label = 'Loading...' }: { label?: string }) {
  return (
    <div className="flex justify-center py-12">
      <Spinner label={label} />
    </div>
  );
}

/** A failed list: the spec's message and a Retry button. */
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
