import { RefreshCw } from 'lucide-react';
import { buttonStyles } from '../../../components/ui/button-styles';

/** A tab heading's Refresh action; it spins and is disabled while the list refetches. */
export function RefreshButton({ fetching, onRefresh }: { fetching: boolean; onRefresh: () => void }) {
  return (
    <button type="button" onClick={onRefresh} disabled={fetching} className={buttonStyles('secondary')}>
      <RefreshCw className={`size-4 ${fetching ? 'animate-spin' : ''}`} aria-hidden="true" />
      Refresh
    </button>
  );
}
