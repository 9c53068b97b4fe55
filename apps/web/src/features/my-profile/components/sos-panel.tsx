// The rider's SOS: a button that opens "what happened?", a hold that sends,
// and then the call's fate on screen: kept on the phone and sending, received, acknowledged
// by whom and when, assigned, resolved. A call not delivered within 30 s (no signal) offers
// a phone call and an SMS to the event hotline with the rider's number, name and position.
import { INCIDENT_KIND_LABELS, SOS_FALLBACK_AFTER_MS } from '@rally/shared/catalog/event-day';
import type { UserRecord } from '@rally/shared/contracts/auth';
import type { MyIncident } from '@rally/shared/contracts/incidents';
import { useQuery } from '@tanstack/react-query';
import { CheckCircle2, CloudUpload, MessageSquareText, Phone, ShieldCheck, Siren, UserCheck } from 'lucide-react';
import { useEffect, useState } from 'react';
import { buttonStyles } from '../../../components/ui/button-styles';
import { HydratedButton } from '../../../components/ui/hydrated-button';
import { eventSettingsQuery, keepEventSettings, NATIONAL_EMERGENCY_NUMBER } from '../../../lib/event-settings';
import { clockTime, coordinatesText, staffTitle } from '../../../lib/incident-display';
import { enqueueSos, type QueuedSos, retrySosNow } from '../../../lib/offline/sos-queue';
import { toast } from '../../../lib/toast';
import { fullNameOf } from '../../public-profile/lib/names';
import { myIncidentsQuery } from '../api/incidents-api';
import { sosSmsText } from '../lib/sos-sms';
import { useCallsWaitingForOthers, useNow, useSosQueue } from '../lib/use-sos-queue';
import { type SosDraft, SosSheet } from './sos-sheet';

/** Incidents older than this, once resolved, no longer take the panel. */
const RECENT_MS = 6 * 60 * 60 * 1000;

export function SosPanel({ user }: { user: UserRecord }) {
  const [sheetOpen, setSheetOpen] = useState(false);
  const calls = useSosQueue(user.id);
  const othersWaiting = useCallsWaitingForOthers(user.id);
  const incidents = useQuery(myIncidentsQuery());
  const settings = useQuery(eventSettingsQuery());
  // Settings that came with the page never ran the query's fetch, which keeps them on the phone.
  useEffect(() => {
    if (settings.data) void keepEventSettings(settings.data).catch(() => {});
  }, [settings.data]);

  const onSend = async (draft: SosDraft) => {
    setSheetOpen(false);
    try {
      await enqueueSos({
        id: crypto.randomUUID(),
        userId: user.id,
        kind: draft.kind,
        ...(draft.note ? { note: draft.note } : {}),
        ...(draft.position ? { position: draft.position } : {}),
        createdAt: new Date().toISOString(),
      });
    } catch {
      toast.error('This phone could not store the SOS. Call the hotline now.');
    }
  };

  const latestCall = calls[0];
  const serverLatest = incidents.data?.[0];
  // A call still on this phone comes first; else the latest incident the server knows.
  const showCall = latestCall && latestCall.state !== 'sent' ? latestCall : null;
  const recent =
    serverLatest && (serverLatest.status !== 'resolved' || Date.now() - Date.parse(serverLatest.createdAt) < RECENT_MS);
  const incident = !showCall && recent ? serverLatest : null;
  // A press that joined the rider's open incident answers with that incident's id, not its own.
  const deliveredTo = latestCall?.incident?.id ?? latestCall?.id;
  const justSent = !showCall && latestCall?.state === 'sent' && !incidents.data?.some((i) => i.id === deliveredTo);

  return (
    <section
      aria-labelledby="sos-heading"
      className="mt-4 rounded-xl border-2 border-ember-600/80 bg-ember-700/10 p-4 sm:p-5"
      data-testid="sos-panel"
    >
      <div className="flex flex-col gap-3 sm:flex-row sm:items-center sm:justify-between">
        <div>
          <h2 id="sos-heading" className="flex items-center gap-2 text-2xl text-ember-400">
            <Siren className="size-7" aria-hidden="true" />
            Emergency SOS
          </h2>
          <p className="text-sm text-ash">
            In trouble on the road? Tell the marshals. Works without signal: it sends when the phone can.
          </p>
        </div>
        {/* Until the page's scripts run (a page the server drew) a press would do nothing. */}
        <HydratedButton
          data-testid="sos-open"
          onClick={() => setSheetOpen(true)}
          className="min-h-16 disabled:opacity-70 shrink-0 rounded-full border-4 border-white/80 bg-ember-600 px-8 font-display text-3xl tracking-[0.2em] text-white uppercase shadow-lg shadow-ember-700/40 hover:bg-ember-500"
        >
          SOS
        </HydratedButton>
      </div>
      {showCall && <QueuedCallStatus call={showCall} user={user} hotline={settings.data?.hotline ?? null} />}
      {justSent && latestCall?.incident?.muted && (
        <MutedIncidentStatus incident={latestCall} user={user} hotline={settings.data?.hotline ?? null} />
      )}
      {justSent && latestCall && !latestCall.incident?.muted && (
        <StatusLine icon={CheckCircle2} tone="ok" testId="sos-status">
          SOS received. Waiting for a marshal to acknowledge...
        </StatusLine>
      )}
      {!justSent && incident && (
        <IncidentStatus incident={incident} user={user} hotline={settings.data?.hotline ?? null} />
      )}
      {othersWaiting > 0 && (
        <p className="mt-3 text-sm text-ash" data-testid="sos-others-waiting">
          {othersWaiting === 1
            ? 'An SOS another rider made on this phone is kept here. It is sent when that rider signs in again.'
            : `${othersWaiting} SOS calls other riders made on this phone are kept here. Each is sent when its rider signs in again.`}
        </p>
      )}
      <SosSheet open={sheetOpen} onClose={() => setSheetOpen(false)} onSend={(draft) => void onSend(draft)} />
    </section>
  );
}

function StatusLine({
  icon: Icon,
  tone,
  children,
  testId,
}: {
  icon: typeof Siren;
  tone: 'wait' | 'ok' | 'help' | 'done';
  children: React.ReactNode;
  testId?: string;
}) {
  const tones = {
    wait: 'border-gold-500/70 bg-gold-500/10 text-gold-300',
    ok: 'border-fire-500/70 bg-fire-500/10 text-fire-300',
    help: 'border-green-500/70 bg-green-500/10 text-green-300',
    done: 'border-ink-600 bg-ink-850 text-ash',
  } as const;
  return (
    <p
      role="status"
      data-testid={testId}
      className={`mt-3 flex items-start gap-2 rounded-lg border px-3 py-2 font-bold ${tones[tone]}`}
    >
      <Icon className="mt-0.5 size-5 shrink-0" aria-hidden="true" />
      <span>{children}</span>
    </p>
  );
}

/** The number to dial and the text to send for a call, when the marshals cannot be reached through the app. */
function hotlineContact(
  hotline: string | null,
  user: UserRecord,
  call: { kind: MyIncident['kind']; position?: MyIncident['position'] | null },
) {
  const dial = (hotline ?? NATIONAL_EMERGENCY_NUMBER).replace(/[^\d+]/g, '');
  const sms = sosSmsText({
    riderNumber: user.riderNumber ?? null,
    name: fullNameOf(user),
    kind: INCIDENT_KIND_LABELS[call.kind],
    position: call.position ?? null,
  });
  return { dial, sms };
}

function QueuedCallStatus({ call, user, hotline }: { call: QueuedSos; user: UserRecord; hotline: string | null }) {
  const now = useNow(call.state === 'pending');
  const waited = now - Date.parse(call.createdAt);
  // The server held the call back (too many from this account): the hotline at once.
  const heldBack = call.state === 'pending' && Boolean(call.error);
  const fallback = call.state === 'refused' || heldBack || waited >= SOS_FALLBACK_AFTER_MS;
  const { dial, sms } = hotlineContact(hotline, user, call);
  return (
    <div data-testid="sos-pending">
      <StatusLine icon={CloudUpload} tone="wait" testId="sos-status">
        {call.state === 'refused'
          ? `The SOS was refused: ${call.error ?? 'unknown reason'}. Call or text the hotline.`
          : heldBack
            ? `SOS saved on this phone, not sent yet: ${call.error}`
            : `SOS saved on this phone, sending... (${Math.max(0, Math.floor(waited / 1000))} s)`}
        <span className="block text-sm font-normal">
          {INCIDENT_KIND_LABELS[call.kind]}
          {call.position ? ` · ${coordinatesText(call.position)}` : ' · no position'}
        </span>
      </StatusLine>
      {fallback && (
        <div className="mt-3 space-y-2" data-testid="sos-fallback">
          <p className="font-bold text-bone">
            {heldBack
              ? 'Need help now? Call or text the event hotline'
              : 'No signal to send it. Call or text the event hotline'}
            {hotline ? ` (${hotline})` : ' (none set: national emergency 911)'}:
          </p>
          <div className="grid gap-2 sm:grid-cols-3">
            <a href={`tel:${dial}`} className={buttonStyles('danger', 'lg')} data-testid="sos-call">
              <Phone className="size-6" aria-hidden="true" />
              Call
            </a>
            <a
              href={`sms:${dial}?body=${encodeURIComponent(sms)}`}
              className={buttonStyles('secondary', 'lg')}
              data-testid="sos-sms"
            >
              <MessageSquareText className="size-6" aria-hidden="true" />
              Send SMS
            </a>
            {call.state === 'pending' && (
              <button type="button" className={buttonStyles('ghost', 'lg')} onClick={retrySosNow}>
                Try again
              </button>
            )}
          </div>
        </div>
      )}
    </div>
  );
}

/**
 * A call from an account staff marked as abuse is kept but rings no alarm: waiting for a
 * marshal would be waiting for nobody, so the hotline is offered at once (a wrongly marked
 * rider in real trouble must still reach someone).
 */
function MutedIncidentStatus({
  incident,
  user,
  hotline,
}: {
  /** The incident as the server lists it, or the call just sent (whose answer said `muted`). */
  incident: Pick<MyIncident, 'kind' | 'createdAt'> & { position?: MyIncident['position'] | null };
  user: UserRecord;
  hotline: string | null;
}) {
  const { dial, sms } = hotlineContact(hotline, user, incident);
  return (
    <div data-testid="sos-muted">
      <StatusLine icon={CloudUpload} tone="wait" testId="sos-status">
        {INCIDENT_KIND_LABELS[incident.kind]} SOS saved at {clockTime(incident.createdAt)}, but it did not alert the
        marshals: the organisers have marked this account’s SOS calls.
      </StatusLine>
      <div className="mt-3 space-y-2">
        <p className="font-bold text-bone">
          Need help now? Call or text the event hotline
          {hotline ? ` (${hotline})` : ' (none set: national emergency 911)'}:
        </p>
        <div className="grid gap-2 sm:grid-cols-2">
          <a href={`tel:${dial}`} className={buttonStyles('danger', 'lg')}>
            <Phone className="size-6" aria-hidden="true" />
            Call
          </a>
          <a href={`sms:${dial}?body=${encodeURIComponent(sms)}`} className={buttonStyles('secondary', 'lg')}>
            <MessageSquareText className="size-6" aria-hidden="true" />
            Send SMS
          </a>
        </div>
      </div>
    </div>
  );
}

function IncidentStatus({
  incident,
  user,
  hotline,
}: {
  incident: MyIncident;
  user: UserRecord;
  hotline: string | null;
}) {
  const kind = INCIDENT_KIND_LABELS[incident.kind];
  if (incident.muted && incident.status !== 'resolved')
    return <MutedIncidentStatus incident={incident} user={user} hotline={hotline} />;
  if (incident.status === 'resolved') {
    return (
      <StatusLine icon={ShieldCheck} tone="done" testId="sos-status">
        {kind} SOS resolved{incident.resolvedAt ? ` at ${clockTime(incident.resolvedAt)}` : ''}
        {incident.resolutionNote ? `: ${incident.resolutionNote}` : ''}
      </StatusLine>
    );
  }
  const ack =
    incident.acknowledgedBy && incident.acknowledgedAt
      ? `Acknowledged by ${staffTitle(incident.acknowledgedBy, incident.acknowledgedByRole)} at ${clockTime(incident.acknowledgedAt)}`
      : null;
  return (
    <div>
      {incident.status === 'open' && (
        <StatusLine icon={CheckCircle2} tone="ok" testId="sos-status">
          {kind} SOS received at {clockTime(incident.createdAt)}. Waiting for a marshal to acknowledge...
        </StatusLine>
      )}
      {incident.status !== 'open' && ack && (
        <StatusLine icon={UserCheck} tone="help" testId="sos-status">
          {ack}
          {incident.status === 'assigned' && incident.assignedTo && (
            <span className="block">
              {staffTitle(incident.assignedTo, incident.assignedToRole)} is assigned to you
              {incident.assignedAt ? ` (${clockTime(incident.assignedAt)})` : ''}. Stay where you are if you safely can.
            </span>
          )}
        </StatusLine>
      )}
    </div>
  );
}
