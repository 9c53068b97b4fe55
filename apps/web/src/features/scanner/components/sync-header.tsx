// The state a marshal must trust: is the phone online, how many scans wait on it, and when
// the server last took them.
import { CloudOff, RefreshCw, Wifi } from 'lucide-react';
import type { SyncStatus } from '../../../lib/offline/scan-sync';

function clock(iso: string | null): string {
  if (!iso) return 'never';
  return new Date(iso).toLocaleTimeString([], { hour: '2-digit', minute: '2-digit', second: '2-digit' });
}

export function SyncHeader({
  online,
  status,
  onSync,
  rosterSize,
}: {
  online: boolean;
  status: SyncStatus;
  onSync: () => void;
  rosterSize: number;
}) {
  const syncing = status.state.kind === 'syncing';
  const { pending } = status;
  return (
    <div className="flex flex-wrap items-center gap-2 text-sm font-bold sm:text-base" data-testid="sync-header">
      <span
        data-testid="online-state"
        className={`inline-flex items-center gap-1.5 rounded-md px-2.5 py-1.5 uppercase ${
          online ? 'bg-jade-400 text-ink-950' : 'bg-ember-700 text-white'
        }`}
      >
        {online ? <Wifi className="size-5" aria-hidden="true" /> : <CloudOff className="size-5" aria-hidden="true" />}
        {online ? 'Online' : 'Offline'}
      </span>
      <span
        data-testid="pending-count"
        data-pending={pending ?? undefined}
        className={`rounded-md px-2.5 py-1.5 ${(pending ?? 0) > 0 ? 'bg-gold-400 text-ink-950' : 'bg-ink-800 text-bone'}`}
      >
        {/* Counted from IndexedDB a moment after the page opens; till then no figure at all. */}
        {pending === null ? 'Counting queue…' : `${pending} pending`}
        {/* Says the queue is on its way, so a marshal does not walk off mid-send. */}
        {syncing && (pending ?? 0) > 0 ? ' · sending' : ''}
      </span>
      <button
        type="button"
        onClick={onSync}
        disabled={!online || syncing}
        className="ml-auto inline-flex min-h-11 items-center gap-1.5 rounded-md border-2 border-fire-500 px-3 text-fire-300 uppercase hover:bg-fire-500/10 disabled:opacity-50 sm:ml-0"
      >
        <RefreshCw className={`size-5 ${syncing ? 'animate-spin' : ''}`} aria-hidden="true" />
        Sync
      </button>
      <p className="basis-full text-sm font-normal text-ash sm:basis-auto sm:text-base">
        <span data-testid="last-sync">{`Last sync ${clock(status.lastSyncAt)}`}</span>
        {` · ${rosterSize} riders on device`}
      </p>
      {status.state.kind === 'waiting' && status.state.error !== 'Offline' && (
        <span className="text-sm text-ember-400">{`Retrying: ${status.state.error}`}</span>
      )}
    </div>
  );
}
