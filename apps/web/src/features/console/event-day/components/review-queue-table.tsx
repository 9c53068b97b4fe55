import { categoryDisplay, SCAN_FLAG_LABELS } from '@rally/shared/catalog';
import type { FlaggedScan } from '@rally/shared/contracts/scans';
import { Ban, Check } from 'lucide-react';
import { useId, useState } from 'react';
import { formatRiderNumber } from '../../../../lib/format';
import { ProfileAvatar } from '../../../public-profile/components/profile-avatar';
import { ConsoleTable } from '../../components/console-table';
import type { ReviewDecision } from '../api/event-day-api';
import { formatScanTime } from './event-day-display';

const td = 'px-2.5 py-3 align-top';

/** Reasons staff give most often, one tap away; the note stays editable. */
const COMMON_REASONS = [
  'Confirmed with the marshal',
  'Rider seen at the station',
  'Device clock was wrong',
  'Duplicate of another scan',
  'Wrong rider scanned',
  'Test scan',
] as const;

export function ReviewQueueTable({
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
    <ConsoleTable
      headers={['Rider', 'Station', 'Reason', 'Times', 'Recorded by', canReview ? 'Decision' : 'Review']}
      minWidth="sm:min-w-[1000px]"
      stackOnPhone
    >
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
    </ConsoleTable>
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
    <tr className="bg-ink-900" data-testid="flagged-row" data-scan-id={scan.id}>
      <td className={td}>
        <div className="flex items-center gap-3">
          {rider ? (
            <ProfileAvatar userId={rider.id} name={name} hasImage={rider.photoUrl !== null} className="size-12" />
          ) : (
            <span className="flex size-12 shrink-0 items-center justify-center rounded-full border-2 border-ember-500 bg-ink-800 font-display text-xl text-ember-400">
              ?
            </span>
          )}
          <div className="min-w-0">
            <p className="font-bold break-words text-bone">{name}</p>
            {rider && (
              <p className="text-sm text-ash">
                {rider.firstName} {rider.lastName}
              </p>
            )}
            <p className="flex flex-wrap items-center gap-x-2 text-sm">
              <span className="font-display text-lg text-fire-300">
                #{formatRiderNumber(rider?.riderNumber ?? scan.riderNumber)}
              </span>
              {rider?.category && (
                <span className="text-xs font-bold text-gold-300">{categoryDisplay(rider.category).name}</span>
              )}
            </p>
            {!rider && scan.riderCode && (
              <p className="max-w-48 truncate font-mono text-xs text-smoke" title={scan.riderCode}>
                Code {scan.riderCode}
              </p>
            )}
          </div>
        </div>
      </td>
      <td data-label="Station" className={`${td} font-bold text-bone`}>
        {scan.stationName}
      </td>
      <td data-label="Reason" className={td}>
        <span className="inline-block rounded-md border border-gold-500/60 bg-gold-500/10 px-2 py-1 text-sm font-bold text-gold-300">
          {SCAN_FLAG_LABELS[scan.reason]}
        </span>
      </td>
      <td data-label="Times" className={`${td} text-sm`}>
        <dl className="grid grid-cols-[auto_1fr] gap-x-2 gap-y-0.5">
          <dt className="text-smoke">Device</dt>
          <dd className="whitespace-nowrap text-bone">
            <time dateTime={scan.scannedAt}>{formatScanTime(scan.scannedAt)}</time>
          </dd>
          <dt className="text-smoke">Received</dt>
          <dd className="whitespace-nowrap text-bone">
            <time dateTime={scan.receivedAt}>{formatScanTime(scan.receivedAt)}</time>
          </dd>
        </dl>
      </td>
      <td data-label="By" className={`${td} text-sm`}>
        <div className="min-w-0">
          <p className="text-bone">{scan.recordedBy?.name ?? 'Unknown marshal'}</p>
          <p className="max-w-44 truncate font-mono text-xs text-smoke" title={scan.deviceId}>
            {scan.deviceId}
          </p>
          <p className="text-xs text-smoke">{scan.source === 'camera' ? 'Camera scan' : 'Typed number'}</p>
        </div>
      </td>
      <td className={td}>
        {scan.review ? (
          <ReviewOutcome review={scan.review} />
        ) : canReview ? (
          <div className="flex w-full min-w-0 flex-col gap-2 sm:min-w-64">
            <label htmlFor={noteId} className="text-xs font-bold uppercase tracking-wide text-ash">
              Reason for {name}
            </label>
            <input
              id={noteId}
              value={note}
              maxLength={1000}
              onChange={(e) => setNote(e.target.value)}
              placeholder="Why accept or void?"
              aria-invalid={problem ? true : undefined}
              aria-describedby={problem ? problemId : undefined}
              className="min-h-11 w-full rounded-md border-2 border-ink-600 bg-ink-950 px-2 text-sm text-bone placeholder:text-smoke focus:border-fire-500 focus:outline-none"
            />
            <fieldset className="flex flex-wrap gap-1.5">
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
                  className={`min-h-9 rounded-full border px-2.5 text-xs font-bold transition-colors ${
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
              <p id={problemId} role="alert" className="text-sm font-bold text-ember-400">
                {problem}
              </p>
            )}
            <div className="flex gap-2">
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
          <span className="text-sm text-smoke">Awaiting review</span>
        )}
      </td>
    </tr>
  );
}

function ReviewOutcome({ review }: { review: NonNullable<FlaggedScan['review']> }) {
  const accepted = review.decision === 'accept';
  return (
    <div className="text-sm" data-testid="review-outcome">
      <p className={`font-bold uppercase ${accepted ? 'text-jade-400' : 'text-ember-400'}`}>
        {accepted ? 'Accepted' : 'Voided'}
      </p>
      <p className="break-words text-bone">{review.note}</p>
      <p className="text-xs text-smoke">
        {review.by} · <time dateTime={review.at}>{formatScanTime(review.at)}</time>
      </p>
    </div>
  );
}
