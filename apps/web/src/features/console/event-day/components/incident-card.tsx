// One incident on the board: who, what, where, since when, who is on it, and, for the roles
// that may read them, the rider's phone, emergency contact and medical notes with links to call.
// A rider who pressed again shows each further press; staff who handle incidents may mark an
// account's calls as abuse (after a confirm step) and lift that mark.
import {
  INCIDENT_KIND_LABELS,
  INCIDENT_NOTE_MAX,
  INCIDENT_STATUS_LABELS,
  type IncidentStatus,
  SMS_SENDER_UNVERIFIED_TEXT,
} from '@rally/shared/catalog/event-day';
import {
  MESSAGE_CHANNEL_LABELS,
  MESSAGE_STATUS_LABELS,
  MESSAGE_STATUSES,
  MESSAGE_TEMPLATE_LABELS,
} from '@rally/shared/catalog/messages';
import type { Incident, IncidentMessage, StaffRef } from '@rally/shared/contracts/incidents';
import {
  Ban,
  BellOff,
  BellRing,
  CheckCheck,
  HeartPulse,
  MapPin,
  MessageSquareWarning,
  Phone,
  Repeat,
  UserPlus,
} from 'lucide-react';
import { useId, useState } from 'react';
import { buttonStyles } from '../../../../components/ui/button-styles';
import { inputStyles } from '../../../../components/ui/field-styles';
import { formatRelativeTime } from '../../../../lib/format';
import { clockTime, coordinatesText, staffTitle } from '../../../../lib/incident-display';
import { StatusBadge } from '../../messages/components/message-status';

const STATUS_STYLES: Record<IncidentStatus, string> = {
  open: 'border-ember-500 bg-ember-700 text-white',
  acknowledged: 'border-gold-500 bg-gold-500/15 text-gold-300',
  assigned: 'border-fire-500 bg-fire-500/15 text-fire-300',
  resolved: 'border-ink-600 bg-ink-800 text-ash',
};

const CARD_BORDER: Record<IncidentStatus, string> = {
  open: 'border-ember-500',
  acknowledged: 'border-gold-500/70',
  assigned: 'border-fire-500/70',
  resolved: 'border-ink-700',
};

const telHref = (n: string) => `tel:${n.replace(/[^\d+]/g, '')}`;

export interface IncidentActions {
  canHandle: boolean;
  busy: boolean;
  assignees: StaffRef[];
  onAcknowledge: () => void;
  onAssign: (userId: string) => void;
  onResolve: (note: string) => void;
  onMarkAbuse: (note: string) => void;
  onLiftMark: () => void;
  onShowOnMap: () => void;
}

export function IncidentCard({
  incident: i,
  actions,
  opened = false,
}: {
  incident: Incident;
  actions: IncidentActions;
  /** Opened from a notification's link: its messages are shown at once. */
  opened?: boolean;
}) {
  const [resolving, setResolving] = useState(false);
  const [note, setNote] = useState('');
  const [assignee, setAssignee] = useState('');
  const [marking, setMarking] = useState(false);
  const [lifting, setLifting] = useState(false);
  const [abuseNote, setAbuseNote] = useState('');
  const noteId = useId();
  const assignId = useId();
  const abuseId = useId();
  const abuseHelpId = useId();
  const done = i.status === 'resolved';
  const c = i.contact;
  // Only the rider's own SOS can be junk; marking again from a call made since resolves it too.
  const mayMark = actions.canHandle && i.source === 'rider' && !(done && i.abuseMark);

  return (
    <article
      data-testid="incident-card"
      data-status={i.status}
      data-incident={i.id}
      aria-label={`${INCIDENT_KIND_LABELS[i.kind]} incident of rider ${i.rider.riderNumber ?? ''}`}
      className={`flex min-w-0 flex-col gap-3 rounded-xl border-2 bg-ink-900 p-4 ${CARD_BORDER[i.status]}`}
    >
      <header className="flex flex-wrap items-start justify-between gap-2">
        <div className="min-w-0">
          <p className="font-display text-2xl wrap-anywhere text-bone">
            <span className="text-fire-400">#{i.rider.riderNumber ?? '---'}</span> {i.rider.kitName ?? ''}
          </p>
          {c && (
            <p className="text-sm text-ash">
              {c.firstName} {c.lastName}
            </p>
          )}
        </div>
        <span
          className={`inline-flex items-center gap-1.5 rounded-full border px-3 py-1 text-sm font-bold uppercase ${STATUS_STYLES[i.status]}`}
        >
          {/* The blink is on a dot of its own: text that fades would fail contrast half the time. */}
          {i.status === 'open' && !i.muted && (
            <span className="size-2 animate-ping rounded-full bg-white" aria-hidden="true" />
          )}
          {INCIDENT_STATUS_LABELS[i.status]}
        </span>
      </header>

      <p className="text-lg font-bold text-ember-400">
        {INCIDENT_KIND_LABELS[i.kind]}
        <span className="ml-2 text-sm font-normal text-ash">
          {i.source === 'staff' ? 'phoned in' : 'SOS'} {clockTime(i.createdAt)} · {formatRelativeTime(i.createdAt)}
        </span>
      </p>
      {i.note && <p className="wrap-anywhere text-bone">“{i.note}”</p>}
      {!i.senderVerified && (
        // A sender's number can be forged: whoever takes it calls the rider's phone first.
        <p
          className="flex items-start gap-2 rounded-lg border border-gold-500/60 bg-gold-500/10 px-3 py-2 text-sm font-bold text-gold-300"
          data-testid="incident-unverified"
        >
          <MessageSquareWarning className="mt-0.5 size-4 shrink-0" aria-hidden="true" />
          {SMS_SENDER_UNVERIFIED_TEXT}
        </p>
      )}

      {i.muted && (
        <p
          className="flex items-start gap-2 rounded-lg border border-ink-600 bg-ink-850 px-3 py-2 text-sm font-bold text-ash"
          data-testid="incident-muted"
        >
          <BellOff className="mt-0.5 size-4 shrink-0" aria-hidden="true" />
          Sent while the account was marked as abuse: no alarm was raised. Check it is not a real emergency.
        </p>
      )}
      {i.abuseMark && (
        <div
          className="flex flex-wrap items-center justify-between gap-2 rounded-lg border border-gold-500/60 bg-gold-500/10 px-3 py-2 text-sm"
          data-testid="incident-abuse-mark"
        >
          <p className="min-w-0 wrap-anywhere text-gold-300">
            <Ban className="mr-1 inline size-4" aria-hidden="true" />
            <span className="font-bold">Account marked as abuse</span>
            {i.abuseMark.markedBy ? ` by ${staffTitle(i.abuseMark.markedBy.name, i.abuseMark.markedBy.role)}` : ''} at{' '}
            {clockTime(i.abuseMark.markedAt)}: {i.abuseMark.note}
          </p>
          {actions.canHandle &&
            (lifting ? (
              <span className="flex flex-wrap gap-2">
                <button
                  type="button"
                  className={buttonStyles('primary', 'md', 'px-3')}
                  disabled={actions.busy}
                  onClick={() => {
                    actions.onLiftMark();
                    setLifting(false);
                  }}
                  data-testid="incident-confirm-lift"
                >
                  Lift: their calls ring again
                </button>
                <button type="button" className={buttonStyles('ghost', 'md', 'px-3')} onClick={() => setLifting(false)}>
                  Cancel
                </button>
              </span>
            ) : (
              <button
                type="button"
                className={buttonStyles('ghost', 'md', 'px-3')}
                disabled={actions.busy}
                onClick={() => setLifting(true)}
                data-testid="incident-lift-mark"
              >
                Lift mark...
              </button>
            ))}
        </div>
      )}

      {i.callCount > 1 && (
        <section aria-label="Further presses" className="space-y-1 text-sm" data-testid="incident-follow-ups">
          <p className="flex items-center gap-1 font-bold text-fire-300">
            <Repeat className="size-4" aria-hidden="true" />
            Pressed SOS {i.callCount} times
          </p>
          <ul className="space-y-1">
            {i.followUps.map((f) => (
              <li key={f.id} className="wrap-anywhere text-bone">
                <span className="text-ash">{clockTime(f.createdAt)}</span> {INCIDENT_KIND_LABELS[f.kind]}
                {f.note ? `: “${f.note}”` : ''}
                {f.position ? <span className="text-ash"> · {coordinatesText(f.position)}</span> : null}
              </li>
            ))}
          </ul>
        </section>
      )}

      <dl className="grid gap-1 text-sm">
        <div className="flex gap-2">
          <dt className="shrink-0 text-ash">Position</dt>
          <dd className="min-w-0 wrap-anywhere text-bone">
            {i.position ? (
              <button type="button" className="text-left underline decoration-dotted" onClick={actions.onShowOnMap}>
                <MapPin className="mr-1 inline size-4 text-fire-400" aria-hidden="true" />
                {coordinatesText(i.position)}
              </button>
            ) : (
              'none sent'
            )}
          </dd>
        </div>
        <div className="flex gap-2">
          <dt className="shrink-0 text-ash">Last station</dt>
          <dd className="text-bone">
            {i.lastStation ? `${i.lastStation.name} at ${clockTime(i.lastStation.scannedAt)}` : 'not scanned yet'}
          </dd>
        </div>
        {i.acknowledgedBy && i.acknowledgedAt && (
          <div className="flex gap-2">
            <dt className="shrink-0 text-ash">Acknowledged</dt>
            <dd className="text-bone">
              {staffTitle(i.acknowledgedBy.name, i.acknowledgedBy.role)} at {clockTime(i.acknowledgedAt)}
            </dd>
          </div>
        )}
        {i.assignedTo && (
          <div className="flex gap-2">
            <dt className="shrink-0 text-ash">Assigned</dt>
            <dd className="text-bone">{staffTitle(i.assignedTo.name, i.assignedTo.role)}</dd>
          </div>
        )}
        {i.resolvedBy && i.resolvedAt && (
          <div className="flex gap-2">
            <dt className="shrink-0 text-ash">Resolved</dt>
            <dd className="wrap-anywhere text-bone">
              {staffTitle(i.resolvedBy.name, i.resolvedBy.role)} at {clockTime(i.resolvedAt)}: {i.resolutionNote}
            </dd>
          </div>
        )}
      </dl>

      {i.messages && i.messages.length > 0 && <IncidentMessages messages={i.messages} open={opened} />}

      {c && (
        <section aria-label="Contact and medical" className="rounded-lg border border-ink-700 bg-ink-850 p-3 text-sm">
          <div className="flex flex-wrap gap-2">
            {c.phoneNumber && (
              <a
                href={telHref(c.phoneNumber)}
                className={buttonStyles('secondary', 'md', 'px-3')}
                data-testid="call-rider"
              >
                <Phone className="size-4" aria-hidden="true" />
                Rider {c.phoneNumber}
              </a>
            )}
            {c.emergencyContactNumber && (
              <a href={telHref(c.emergencyContactNumber)} className={buttonStyles('secondary', 'md', 'px-3')}>
                <Phone className="size-4" aria-hidden="true" />
                {c.emergencyContactName ?? 'Emergency contact'} {c.emergencyContactNumber}
              </a>
            )}
          </div>
          <p className="mt-2 flex items-start gap-2 text-bone" data-testid="incident-medical">
            <HeartPulse className="mt-0.5 size-4 shrink-0 text-ember-400" aria-hidden="true" />
            <span>
              Blood type {c.bloodType || 'unknown'} · Allergies: {c.allergies || 'No known allergies'} · Conditions:{' '}
              {c.medicalConditions || 'none recorded'}
            </span>
          </p>
        </section>
      )}

      {actions.canHandle && !done && (
        <div className="flex flex-col gap-2">
          <div className="flex flex-wrap gap-2">
            {i.status === 'open' && (
              <button
                type="button"
                className={buttonStyles('primary')}
                disabled={actions.busy}
                onClick={actions.onAcknowledge}
                data-testid="incident-acknowledge"
              >
                <CheckCheck className="size-5" aria-hidden="true" />
                Acknowledge
              </button>
            )}
            <button
              type="button"
              className={buttonStyles('secondary')}
              disabled={actions.busy}
              aria-expanded={resolving}
              onClick={() => setResolving((v) => !v)}
            >
              Resolve...
            </button>
          </div>
          <form
            className="flex flex-wrap items-end gap-2"
            onSubmit={(e) => {
              e.preventDefault();
              if (assignee) actions.onAssign(assignee);
            }}
          >
            {/* At least 13rem, so a phone puts Assign under a readable list, not beside a cut one. */}
            <div className="min-w-52 flex-1">
              <label htmlFor={assignId} className="text-sm text-ash">
                Assign to
              </label>
              <select
                id={assignId}
                value={assignee}
                onChange={(e) => setAssignee(e.target.value)}
                className={inputStyles}
              >
                <option value="">Choose a staff member</option>
                {actions.assignees.map((a) => (
                  <option key={a.id} value={a.id}>
                    {staffTitle(a.name, a.role)}
                  </option>
                ))}
              </select>
            </div>
            <button type="submit" className={buttonStyles('secondary')} disabled={actions.busy || !assignee}>
              <UserPlus className="size-5" aria-hidden="true" />
              Assign
            </button>
          </form>
          {resolving && (
            <form
              className="flex flex-wrap items-end gap-2"
              onSubmit={(e) => {
                e.preventDefault();
                if (note.trim()) actions.onResolve(note.replace(/\s+/g, ' ').trim());
              }}
            >
              <div className="min-w-0 flex-1">
                <label htmlFor={noteId} className="text-sm text-ash">
                  What was done (required)
                </label>
                <input
                  id={noteId}
                  required
                  maxLength={INCIDENT_NOTE_MAX}
                  value={note}
                  onChange={(e) => setNote(e.target.value)}
                  className={inputStyles}
                  placeholder="e.g. sweep team picked up rider, bike towed"
                />
              </div>
              <button type="submit" className={buttonStyles('danger')} disabled={actions.busy || !note.trim()}>
                Resolve
              </button>
            </form>
          )}
        </div>
      )}
      {mayMark && !marking && (
        <button
          type="button"
          className={buttonStyles('ghost', 'md', 'self-start px-3 text-ash')}
          disabled={actions.busy}
          onClick={() => setMarking(true)}
          data-testid="incident-mark-abuse"
        >
          <Ban className="size-4" aria-hidden="true" />
          Mark as abuse...
        </button>
      )}
      {mayMark && marking && (
        <form
          className="flex flex-col gap-2 rounded-lg border-2 border-ember-600/70 bg-ember-700/10 p-3"
          aria-label="Mark this account's calls as abuse"
          onSubmit={(e) => {
            e.preventDefault();
            if (!abuseNote.trim()) return;
            actions.onMarkAbuse(abuseNote.replace(/\s+/g, ' ').trim());
            setMarking(false);
            setAbuseNote('');
          }}
        >
          <p id={abuseHelpId} className="text-sm font-bold text-bone">
            Mark the SOS calls of rider #{i.rider.riderNumber ?? '---'} as abuse? Every unresolved SOS of this account
            is resolved with your note, and its later calls are kept but raise no alarm (they are listed apart) until
            someone lifts the mark.
          </p>
          <div>
            <label htmlFor={abuseId} className="text-sm text-ash">
              Why (required)
            </label>
            <input
              id={abuseId}
              required
              aria-describedby={abuseHelpId}
              maxLength={INCIDENT_NOTE_MAX}
              value={abuseNote}
              onChange={(e) => setAbuseNote(e.target.value)}
              className={inputStyles}
              placeholder="e.g. 40 calls in a minute, rider reached by phone: a prank"
            />
          </div>
          <div className="flex flex-wrap gap-2">
            <button
              type="submit"
              className={buttonStyles('danger')}
              disabled={actions.busy || !abuseNote.trim()}
              data-testid="incident-confirm-abuse"
            >
              Mark as abuse
            </button>
            <button type="button" className={buttonStyles('ghost')} onClick={() => setMarking(false)}>
              Cancel
            </button>
          </div>
        </form>
      )}
    </article>
  );
}

/**
 * The messages the incident caused, newest first: each alert, escalation round and answer to
 * the rider, to whom, by what, and how it stands. Opened by itself when one failed.
 */
function IncidentMessages({ messages, open }: { messages: IncidentMessage[]; open: boolean }) {
  const counts = MESSAGE_STATUSES.map((s) => [s, messages.filter((m) => m.status === s).length] as const).filter(
    ([, n]) => n > 0,
  );
  const failed = messages.some((m) => m.status === 'failed');
  return (
    <details
      className="rounded-lg border border-ink-700 bg-ink-850 p-3 text-sm"
      open={open || failed}
      data-testid="incident-messages"
    >
      <summary className="flex cursor-pointer flex-wrap items-center gap-x-2 font-bold text-bone">
        <BellRing className="size-4 text-fire-400" aria-hidden="true" />
        Messages
        <span className={`font-normal ${failed ? 'text-ember-400' : 'text-ash'}`}>
          {counts.map(([s, n]) => `${n} ${MESSAGE_STATUS_LABELS[s].toLowerCase()}`).join(' · ')}
        </span>
      </summary>
      <ol className="mt-2 divide-y divide-ink-700">
        {messages.map((m) => (
          <li key={m.id} className="flex flex-wrap items-center gap-x-2 gap-y-1 py-1.5" data-testid="incident-message">
            <span className="text-ash tabular-nums">{clockTime(m.createdAt)}</span>
            <span className="min-w-0 flex-1 wrap-anywhere text-bone">
              {MESSAGE_TEMPLATE_LABELS[m.template]}
              {m.round ? ` (round ${m.round})` : ''}
              <span className="text-ash">
                {' '}
                · {MESSAGE_CHANNEL_LABELS[m.channel]} to {m.to ?? 'the event hotline'}, {m.recipient}
                {m.attempts > 1 ? ` · ${m.attempts} tries` : ''}
              </span>
            </span>
            <StatusBadge status={m.status} />
          </li>
        ))}
      </ol>
    </details>
  );
}
