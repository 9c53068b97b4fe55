// This device's latest scans, with what the device said at once and what the server later
// decided: a marshal can see that every scan has landed.
import { SCAN_FLAG_LABELS, type ScanFlagReasonName } from '@rally/shared/catalog/event-day';
import type { RosterRider } from '@rally/shared/contracts/scans';
import type { QueuedScan } from '../../../lib/offline/offline-db';
import type { RosterIndex } from '../lib/local-verdict';

const DOT = { accepted: 'bg-jade-400', flagged: 'bg-gold-400', unknown: 'bg-ember-500' } as const;

/** The server's word once it has answered; the device's own until then. */
function dot(scan: QueuedScan): string {
  const r = scan.result;
  if (!r) return DOT[scan.localTone];
  const outcome = r.status === 'duplicate' ? r.original : r.status;
  if (outcome === 'accepted') return DOT.accepted;
  if (outcome === 'flagged') return r.reason === 'unknown_rider' ? DOT.unknown : DOT.flagged;
  return DOT.unknown;
}

function serverLabel(scan: QueuedScan): string {
  const r = scan.result;
  if (!r) return 'Waiting to sync';
  if (r.status === 'accepted') return 'Server: accepted';
  if (r.status === 'flagged')
    return `Server: flagged${r.reason ? ` (${SCAN_FLAG_LABELS[r.reason as ScanFlagReasonName]})` : ''}`;
  if (r.status === 'duplicate') return `Server: already had it${r.original ? ` (${r.original})` : ''}`;
  return `Server: invalid${r.message ? ` — ${r.message}` : ''}`;
}

export function RecentScans({ scans, index }: { scans: QueuedScan[]; index: RosterIndex }) {
  if (scans.length === 0) return null;
  const byId = new Map<string, RosterRider>();
  for (const rider of index.byCode.values()) byId.set(rider.id, rider);
  for (const rider of index.byNumber.values()) byId.set(rider.id, rider);
  return (
    <section aria-labelledby="recent-scans" className="rounded-xl border-2 border-ink-600 bg-ink-900 p-3">
      <h2 id="recent-scans" className="mb-2 font-display text-xl tracking-wider text-bone uppercase">
        Latest scans on this phone
      </h2>
      <ul className="divide-y divide-ink-700" data-testid="recent-scans">
        {scans.map((scan) => {
          const rider = scan.riderId ? byId.get(scan.riderId) : undefined;
          const who = rider
            ? `#${rider.riderNumber ?? '—'} ${rider.firstName} ${rider.lastName}`
            : scan.riderNumber !== undefined
              ? `#${scan.riderNumber} (unknown)`
              : `${scan.riderCode} (unknown)`;
          return (
            <li
              key={scan.id}
              className="flex items-center gap-3 py-2"
              data-state={scan.state}
              data-status={scan.result?.status}
            >
              <span aria-hidden="true" className={`size-4 shrink-0 rounded-full ${dot(scan)}`} />
              <span className="min-w-0 flex-1">
                <span className="block truncate text-lg font-bold text-bone">{who}</span>
                <span className="block text-sm text-ash">
                  {`${new Date(scan.scannedAt).toLocaleTimeString()} · ${scan.source === 'camera' ? 'camera' : 'typed'} · ${serverLabel(scan)}`}
                </span>
              </span>
            </li>
          );
        })}
      </ul>
    </section>
  );
}
