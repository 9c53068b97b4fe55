// Riders as the board lists them (behind a count, overdue, on course): number, kit name,
// state, last station and time, how late, and, when the server sends it (view_users or
// handle_incidents, never officers), phone and emergency contact as tap-to-call links.
// A page at a time, so a count of 1,000 riders never renders 1,000 rows.
import { COURSE_STATE_LABELS, DNF_REASON_LABELS } from '@rally/shared/catalog/event-day';
import type { RiderCourseState } from '@rally/shared/contracts/course';
import { Clock, History, MapPin, Phone, Siren } from 'lucide-react';
import { useState } from 'react';
import { buttonStyles } from '../../../../components/ui/button-styles';

export const RIDER_PAGE_SIZE = 50;

export function clockTime(iso: string): string {
  return new Date(iso).toLocaleTimeString('en-PH', { hour: 'numeric', minute: '2-digit' });
}

/** '1 h 05 min' */
export function lateBy(ms: number): string {
  const minutes = Math.max(0, Math.round(ms / 60_000));
  const h = Math.floor(minutes / 60);
  return h > 0 ? `${h} h ${String(minutes % 60).padStart(2, '0')} min` : `${minutes} min`;
}

const STATE_TONE: Record<RiderCourseState['state'], string> = {
  not_started: 'border-ink-600 text-ash',
  on_course: 'border-fire-500 text-fire-300',
  finished: 'border-jade-400 text-jade-400',
  dnf: 'border-ember-500 text-ember-400',
  dns: 'border-ink-600 text-bone',
};

function TelLink({ number, label }: { number: string; label: string }) {
  return (
    <a
      href={`tel:${number.replace(/[^\d+]/g, '')}`}
      className="inline-flex min-h-11 items-center gap-1.5 rounded-md border-2 border-jade-600 px-2.5 font-bold text-jade-400 hover:bg-jade-600/15"
    >
      <Phone className="size-4 shrink-0" aria-hidden="true" />
      <span className="min-w-0 break-all">
        {label} {number}
      </span>
    </a>
  );
}

function RiderRow({ rider, onTimeline }: { rider: RiderCourseState; onTimeline: (r: RiderCourseState) => void }) {
  const name = rider.kitName?.trim() || `${rider.firstName} ${rider.lastName}`;
  const contact = rider.contact;
  return (
    <li
      data-testid="board-rider"
      data-rider-number={rider.riderNumber ?? ''}
      className={`rounded-lg border-2 bg-ink-900 p-3 ${rider.overdue ? 'border-ember-600' : 'border-ink-700'}`}
    >
      <div className="flex flex-wrap items-start gap-x-3 gap-y-1">
        <span className="font-display text-2xl text-gold-300 tabular-nums">#{rider.riderNumber ?? '—'}</span>
        <div className="min-w-0 flex-1">
          <p className="wrap-anywhere font-display text-lg tracking-wide text-bone uppercase">{name}</p>
          <p className="text-sm text-ash">
            {rider.firstName} {rider.lastName}
          </p>
        </div>
        <span className={`rounded-md border-2 px-2 py-0.5 text-xs font-bold uppercase ${STATE_TONE[rider.state]}`}>
          {COURSE_STATE_LABELS[rider.state]}
          {rider.dnfReason && ` · ${DNF_REASON_LABELS[rider.dnfReason]}`}
        </span>
      </div>
      <div className="mt-2 space-y-1 text-sm">
        <p className="flex items-center gap-1.5 text-bone">
          <MapPin className="size-4 shrink-0 text-fire-400" aria-hidden="true" />
          {rider.lastStation && rider.lastSeenAt ? (
            <span>
              Last seen at <strong>{rider.lastStation.name}</strong> · {clockTime(rider.lastSeenAt)}
            </span>
          ) : (
            <span className="text-ash">No passage yet</span>
          )}
        </p>
        {rider.nextStation && rider.dueAt && (
          <p className="flex items-center gap-1.5 text-ash">
            <Clock className="size-4 shrink-0" aria-hidden="true" />
            Due at {rider.nextStation.name} by {clockTime(rider.dueAt)}
          </p>
        )}
        {rider.overdue && (
          <p data-testid="overdue-by" className="flex items-center gap-1.5 font-bold text-ember-400">
            <Siren className="size-4 shrink-0" aria-hidden="true" />
            Overdue by {lateBy(rider.overdueMs)}
          </p>
        )}
        {rider.decision?.note && <p className="text-ash">Note: {rider.decision.note}</p>}
      </div>
      <div className="mt-2 flex flex-wrap gap-2">
        {contact?.phoneNumber && <TelLink number={contact.phoneNumber} label="Rider" />}
        {contact?.emergencyContactNumber && (
          <TelLink
            number={contact.emergencyContactNumber}
            label={contact.emergencyContactName ? `${contact.emergencyContactName}:` : 'Emergency:'}
          />
        )}
        <button type="button" className={buttonStyles('ghost')} onClick={() => onTimeline(rider)}>
          <History className="size-5" aria-hidden="true" />
          Timeline
        </button>
      </div>
    </li>
  );
}

export function BoardRiderList({
  riders,
  onTimeline,
  emptyMessage,
}: {
  riders: RiderCourseState[];
  onTimeline: (r: RiderCourseState) => void;
  emptyMessage: string;
}) {
  const [shown, setShown] = useState(RIDER_PAGE_SIZE);
  if (riders.length === 0) return <p className="py-6 text-center text-ash">{emptyMessage}</p>;
  return (
    <div className="space-y-3">
      <ul className="space-y-2">
        {riders.slice(0, shown).map((r) => (
          <RiderRow key={r.riderId} rider={r} onTimeline={onTimeline} />
        ))}
      </ul>
      {riders.length > shown && (
        <div className="flex flex-col items-center gap-2">
          <p className="text-sm text-ash">
            Showing {shown} of {riders.length}
          </p>
          <button
            type="button"
            className={buttonStyles('secondary')}
            onClick={() => setShown((n) => n + RIDER_PAGE_SIZE)}
          >
            Show more
          </button>
        </div>
      )}
    </div>
  );
}
