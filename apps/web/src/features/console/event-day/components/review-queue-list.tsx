import { SCAN_FLAG_LABELS } from '@rally/shared/catalog/event-day';
import { categoryDisplay } from '@rally/shared/catalog/registration';
import type { FlaggedScan } from '@rally/shared/contracts/scans';
import { Ban, Check } from 'lucide-react';
import { useId, useState } from 'react';
import { formatRiderNumber } from '../../../../lib/format';
import { ProfileAvatar } from '../../../public-profile/components/profile-avatar';
import type { ReviewDecision } from '../api/event-day-api';
import { formatScanTime } from './event-day-display';

// A labelled field of a flagged scan's card; the labels show at every width.
const cell = 'min-w-0';
const label = 'mb-1 text-xs font-bold uppercase tracking-wide text-smoke';

/** Reasons staff give most often, one tap away; the note stays editable. */
const COMMON_REASONS = [
  'Confirmed with the marshal',
  'Rider seen at the station',
  'Device clock was wrong',
  'Duplicate of another scan',
  'Wrong rider scanned',
  'Test scan',
] as const;

export function ReviewQueueList({
  scans,
  canReview,
  busyId,
  onReview,
}: {
  scans: FlaggedScan[];
  canReview: boolean;
  busyId: string | null;
  onReview: (scan: FlaggedScan, decision: ReviewDecision, note: string) => void;
}) {
  return (
    <ul className="space-y-3">
      {scans.map((scan) => (
        <ReviewRow
          key={scan.id}
          scan={scan}
          canReview={canReview}
          busy={busyId === scan.id}
          disabled={busyId !== null}
          onReview={onReview}
        />
      ))}
    </ul>
  );
}

function riderLabel(scan: FlaggedScan): string {
  if (scan.rider) return scan.rider.kitName || `${scan.rider.firstName} ${scan.rider.lastName}`;
  if (scan.riderNumber !== null) return `Rider #${formatRiderNumber(scan.riderNumber)}`;
  return 'Unknown rider';
}

function ReviewRow({
  scan,
  canReview,
  busy,
  disabled,
  onReview,
}: {
  scan: FlaggedScan;
  canReview: boolean;
  busy: boolean;
  disabled: boolean;
  onReview: (scan: FlaggedScan, decision: ReviewDecision, note: string) => void;
}) {
  const [note, setNote] = useState('');
  const [problem, setProblem] = useState<string | null>(null);
  const noteId = useId();
  const problemId = useId();
  const name = riderLabel(scan);
  const rider = scan.rider;

  const decide = (decision: ReviewDecision) => {
    if (note.trim() === '') {
      setProblem('Give a reason for the decision');
      return;
    }
    setProblem(null);
    onReview(scan, decision, note.trim());
  };

  return (
    <li
      className="rounded-lg border border-ink-700 border-l-4 border-l-gold-500 bg-ink-900 p-3 sm:p-4"
      data-testid="flagged-row"
      data-scan-id={scan.id}
    >
      <article aria-label={`Flagged scan of ${name} at ${scan.stationName}`}>
        <div className="grid gap-x-5 gap-y-3 sm:grid-cols-2 xl:grid-cols-[minmax(0,1.4fr)_minmax(0,1.2fr)_minmax(0,1fr)_minmax(0,1fr)]">
          <div className={`${cell} flex items-center gap-3`}>
            {rider ? (
              <ProfileAvatar userId={rider.id} name={name} hasImage={rider.photoUrl !== null} className="size-14" />
            ) : (
              <span className="flex size-14 shrink-0 items-center justify-center rounded-full border-2 border-ember-500 bg-ink-800 font-display text-2xl text-ember-400">
                ?
              </span>
            )}
            <div className="min-w-0">
              <p className="font-bold wrap-anywhere text-bone">{name}</p>
              {rider?.kitName && (
                <p className="text-sm text-ash">
                  {rider.firstName} {rider.lastName}
                </p>
              )}
              <p className="flex flex-wrap items-center gap-x-2 text-sm">
                <span className="font-display text-xl text-fire-300">
                  #{formatRiderNumber(rider?.riderNumber ?? scan.riderNumber)}
                </span>
                {rider?.category && (
                  <span className="text-xs font-bold text-gold-300">{categoryDisplay(rider.category).name}</span>
                )}
              </p>
              {!rider && scan.riderCode && (
                <p className="max-w-56 truncate font-mono text-xs text-smoke" title={scan.riderCode}>
                  Code {scan.riderCode}
                </p>
              )}
            </div>
          </div>
          <div className={cell}>
            <p className={label}>Station and reason</p>
            <p className="font-bold wrap-anywhere text-bone">{scan.stationName}</p>
            <p className="mt-1 inline-block rounded-md border border-gold-500/60 bg-gold-500/10 px-2 py-0.5 text-sm font-bold text-gold-300">
              {SCAN_FLAG_LABELS[scan.reason]}
            </p>
          </div>
          <div className={`${cell} text-sm`}>
            <p className={label}>Times</p>
            <dl className="grid grid-cols-[auto_1fr] gap-x-2 gap-y-0.5">
              <dt className="text-smoke">Device</dt>
              <dd className="text-bone">
                <time dateTime={scan.scannedAt}>{formatScanTime(scan.scannedAt)}</time>
              </dd>
              <dt className="text-smoke">Received</dt>
              <dd className="text-bone">
                <time dateTime={scan.receivedAt}>{formatScanTime(scan.receivedAt)}</time>
              </dd>
            </dl>
          </div>
          <div className={`${cell} text-sm`}>
            <p className={label}>Recorded by</p>
            <p className="text-bone">{scan.recordedBy?.name ?? 'Unknown marshal'}</p>
            <p className="truncate font-mono text-xs text-smoke" title={scan.deviceId}>
              {scan.deviceId}
            </p>
            <p className="text-xs text-smoke">{scan.source === 'camera' ? 'Camera scan' : 'Typed number'}</p>
          </div>
        </div>
        <div className="mt-3 border-t border-ink-700 pt-3">
          {scan.review ? (
            <ReviewOutcome review={scan.review} />
          ) : canReview ? (
            <div className="grid gap-2 lg:grid-cols-[minmax(0,1fr)_16rem]">
              {/* Reading and tab order: the reason, the common reasons, then the decision. */}
              <div className="min-w-0 lg:col-start-1 lg:row-start-1">
                <label htmlFor={noteId} className="mb-1 block text-xs font-bold uppercase tracking-wide text-ash">
                  Reason for the decision on {name}
                </label>
                <input
                  id={noteId}
                  value={note}
                  maxLength={1000}
                  onChange={(e) => setNote(e.target.value)}
                  placeholder="Why accept or void?"
                  aria-invalid={problem ? true : undefined}
                  aria-describedby={problem ? problemId : undefined}
                  className="min-h-11 w-full rounded-md border-2 border-ink-600 bg-ink-950 px-2 text-bone placeholder:text-smoke focus:border-fire-500 focus:outline-none"
                />
              </div>
              <fieldset className="flex flex-wrap gap-1.5 lg:col-span-2">
                <legend className="sr-only">Common reasons for {name}</legend>
                {COMMON_REASONS.map((reason) => (
                  <button
                    key={reason}
                    type="button"
                    onClick={() => {
                      setNote(reason);
                      setProblem(null);
                    }}
                    aria-pressed={note === reason}
                    className={`min-h-9 rounded-full border px-3 text-xs font-bold transition-colors ${
                      note === reason
                        ? 'border-fire-500 bg-fire-500 text-ink-950'
                        : 'border-ink-600 text-ash hover:border-fire-500 hover:text-bone'
                    }`}
                  >
                    {reason}
                  </button>
                ))}
              </fieldset>
              {problem && (
                <p id={problemId} role="alert" className="text-sm font-bold text-ember-400 lg:col-span-2">
                  {problem}
                </p>
              )}
              <div className="flex gap-2 lg:col-start-2 lg:row-start-1 lg:self-end">
                <button
                  type="button"
                  disabled={disabled}
                  onClick={() => decide('accept')}
                  aria-label={`Accept the scan of ${name}`}
                  className="inline-flex min-h-11 flex-1 items-center justify-center gap-1 rounded-md bg-jade-600 px-2 font-bold text-ink-950 hover:bg-jade-400 disabled:opacity-60"
                >
                  <Check className="size-5" aria-hidden="true" />
                  {busy ? 'Working...' : 'Accept'}
                </button>
                <button
                  type="button"
                  disabled={disabled}
                  onClick={() => decide('void')}
                  aria-label={`Void the scan of ${name}`}
                  className="inline-flex min-h-11 flex-1 items-center justify-center gap-1 rounded-md bg-ember-600 px-2 font-bold text-white hover:bg-ember-500 disabled:opacity-60"
                >
                  <Ban className="size-5" aria-hidden="true" />
                  Void
                </button>
              </div>
            </div>
          ) : (
            <p className="text-sm text-smoke">Awaiting review by an organiser.</p>
          )}
        </div>
      </article>
    </li>
  );
}

function ReviewOutcome({ review }: { review: NonNullable<FlaggedScan['review']> }) {
  const accepted = review.decision === 'accept';
  return (
    <div className="flex flex-wrap items-baseline gap-x-3 gap-y-1 text-sm" data-testid="review-outcome">
      <p className={`font-bold uppercase ${accepted ? 'text-jade-400' : 'text-ember-400'}`}>
        {accepted ? 'Accepted' : 'Voided'}
      </p>
      <p className="wrap-anywhere text-bone">{review.note}</p>
      <p className="text-xs text-smoke">
        {review.by} · <time dateTime={review.at}>{formatScanTime(review.at)}</time>
      </p>
    </div>
  );
}
