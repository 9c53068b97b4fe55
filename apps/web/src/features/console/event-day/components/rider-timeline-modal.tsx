// A rider's day: every scan (flagged ones with their flag and review), every decision and
// the completion, oldest first; and for manage_event, setting or clearing DNF/DNS with a
// reason (the server audits it and the stream updates every open board).
import {
  COURSE_STATE_LABELS,
  DNF_REASON_LABELS,
  DNF_REASONS,
  type DnfReasonName,
} from '@rally/shared/catalog/event-day';
import type { RiderCourseState, TimelineEntry } from '@rally/shared/contracts/course';
import { useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import { useId, useState } from 'react';
import { buttonStyles } from '../../../../components/ui/button-styles';
import { inputStyles, labelStyles } from '../../../../components/ui/field-styles';
import { Modal } from '../../../../components/ui/modal';
import { ApiError } from '../../../../lib/api-client';
import { toast } from '../../../../lib/toast';
import { boardKeys, decideRider, timelineQuery } from '../api/board-api';
import { clockTime } from './board-rider-list';

type DecisionChoice = 'dnf' | 'dns' | 'clear';

function entryTone(e: TimelineEntry): string {
  if (e.type === 'completion') return 'border-jade-400';
  if (e.type === 'decision') return 'border-ember-500';
  if (e.status === 'flagged') return 'border-gold-400';
  return 'border-fire-500';
}

function EntryRow({ entry }: { entry: TimelineEntry }) {
  return (
    <li data-testid="timeline-entry" className={`border-l-4 py-1 pl-3 ${entryTone(entry)}`}>
      <p className="font-bold text-bone">
        <time dateTime={entry.at} className="mr-2 text-ash tabular-nums">
          {clockTime(entry.at)}
        </time>
        {entry.title}
      </p>
      {entry.status === 'flagged' && (
        <p className="text-sm text-gold-300">
          Flagged{entry.reason ? `: ${entry.reason.replace(/_/g, ' ')}` : ''}
          {entry.review ? ` · ${entry.review.decision === 'accept' ? 'accepted' : 'voided'}: ${entry.review.note}` : ''}
        </p>
      )}
      {entry.note && <p className="text-sm text-ash">“{entry.note}”</p>}
      {entry.by && <p className="text-xs text-smoke">by {entry.by}</p>}
    </li>
  );
}

function DecisionForm({ rider, onDone }: { rider: RiderCourseState; onDone: () => void }) {
  const queryClient = useQueryClient();
  const [decision, setDecision] = useState<DecisionChoice>(
    rider.state === 'dnf' || rider.state === 'dns' ? 'clear' : 'dnf',
  );
  const [reason, setReason] = useState<DnfReasonName>('withdrew');
  const [note, setNote] = useState('');
  const [problem, setProblem] = useState<string | null>(null);
  const ids = { decision: useId(), reason: useId(), note: useId() };

  const save = useMutation({
    mutationFn: () =>
      decideRider(rider.riderId, {
        decision,
        note: note.trim(),
        ...(decision === 'dnf' ? { reason } : {}),
        day: rider.day,
      }),
    onSuccess: (state) => {
      toast.success(`#${state.riderNumber ?? ''} is now ${COURSE_STATE_LABELS[state.state]}`);
      setNote('');
      onDone();
    },
    onError: (error) => setProblem(error instanceof ApiError ? error.message : 'Failed to save the decision'),
    onSettled: () => queryClient.invalidateQueries({ queryKey: boardKeys.all }),
  });

  return (
    <form
      className="space-y-3 rounded-lg border-2 border-ink-700 p-3"
      aria-label="Decision"
      onSubmit={(e) => {
        e.preventDefault();
        setProblem(null);
        if (!note.trim()) {
          setProblem('A reason note is required');
          return;
        }
        save.mutate();
      }}
    >
      <h3 className="font-display text-lg tracking-wide text-fire-300 uppercase">DNF / DNS decision</h3>
      <div className="grid gap-3 sm:grid-cols-2">
        <div>
          <label htmlFor={ids.decision} className={labelStyles}>
            Decision
          </label>
          <select
            id={ids.decision}
            className={inputStyles}
            value={decision}
            onChange={(e) => setDecision(e.target.value as DecisionChoice)}
          >
            <option value="dnf">Set DNF</option>
            <option value="dns">Set DNS</option>
            <option value="clear">Clear (back to what the scans say)</option>
          </select>
        </div>
        {decision === 'dnf' && (
          <div>
            <label htmlFor={ids.reason} className={labelStyles}>
              Reason
            </label>
            <select
              id={ids.reason}
              className={inputStyles}
              value={reason}
              onChange={(e) => setReason(e.target.value as DnfReasonName)}
            >
              {DNF_REASONS.map((r) => (
                <option key={r} value={r}>
                  {DNF_REASON_LABELS[r]}
                </option>
              ))}
            </select>
          </div>
        )}
      </div>
      <div>
        <label htmlFor={ids.note} className={labelStyles}>
          Note (required, logged)
        </label>
        <input
          id={ids.note}
          className={inputStyles}
          value={note}
          maxLength={1000}
          onChange={(e) => setNote(e.target.value)}
          placeholder="e.g. Withdrew at Marilog, bike failure"
        />
      </div>
      {problem && (
        <p role="alert" className="font-bold text-ember-400">
          {problem}
        </p>
      )}
      <button type="submit" className={buttonStyles('primary')} disabled={save.isPending}>
        {save.isPending ? 'Saving...' : 'Save Decision'}
      </button>
    </form>
  );
}

export function RiderTimelineModal({
  rider,
  canDecide,
  onClose,
}: {
  rider: RiderCourseState | null;
  canDecide: boolean;
  onClose: () => void;
}) {
  const query = useQuery({ ...timelineQuery(rider?.riderId ?? ''), enabled: rider !== null });
  const state = query.data?.state ?? rider;
  const title = rider ? `#${rider.riderNumber ?? '—'} ${rider.kitName?.trim() || rider.firstName}` : 'Timeline';
  return (
    <Modal open={rider !== null} onClose={onClose} title={title} className="max-w-2xl">
      {state && (
        <div className="space-y-4">
          <p className="text-lg font-bold text-bone">
            {COURSE_STATE_LABELS[state.state]}
            {state.dnfReason && ` · ${DNF_REASON_LABELS[state.dnfReason]}`}
            {state.dnfStations.length > 0 && ` (${state.dnfStations.map((s) => s.name).join(', ')})`}
          </p>
          {query.isPending ? (
            <p className="text-ash">Loading the timeline...</p>
          ) : query.isError ? (
            <p role="alert" className="text-ember-400">
              Failed to load the timeline
            </p>
          ) : query.data.entries.length === 0 ? (
            <p className="text-ash">Nothing recorded yet.</p>
          ) : (
            <ol className="space-y-2" aria-label="Timeline">
              {query.data.entries.map((e) => (
                // A scan and its review share a time but not a title; two decisions in one millisecond do not happen.
                <EntryRow key={`${e.type}:${e.at}:${e.stationId ?? ''}:${e.title}`} entry={e} />
              ))}
            </ol>
          )}
          {canDecide && <DecisionForm key={state.riderId} rider={state} onDone={() => void query.refetch()} />}
        </div>
      )}
    </Modal>
  );
}
