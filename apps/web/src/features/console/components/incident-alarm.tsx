// The SOS alarm of every open console page: while any incident is open (no one
// has acknowledged it), a bar at the foot of the page names the riders, a tone sounds every
// two seconds, the tab's title blinks, and a system notification is shown once per incident
// where the browser allows it. Live: the list is re-read on every `incident` event of the
// stream and on every (re)connection.
import { INCIDENT_KIND_LABELS } from '@rally/shared/catalog/event-day';
import type { Incident } from '@rally/shared/contracts/incidents';
import { can } from '@rally/shared/permissions';
import { useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import { BellRing, CheckCheck, Siren, Volume2 } from 'lucide-react';
import { type RefObject, useEffect, useLayoutEffect, useRef, useState } from 'react';
import { useSearchParams } from 'react-router';
import { buttonStyles } from '../../../components/ui/button-styles';
import { ApiError } from '../../../lib/api-client';
import { useAuth } from '../../../lib/auth';
import { useEventStream } from '../../../lib/event-stream';
import { toast } from '../../../lib/toast';
import { acknowledgeIncident, incidentKeys, liveOpenIncidentsQuery } from '../event-day/api/incidents-api';

const BEEP_EVERY_MS = 2_000;

/** Two short tones; an AudioContext starts only after the page has seen a user gesture. */
function useAlarmSound(active: boolean) {
  const ctx = useRef<AudioContext | null>(null);
  const [blocked, setBlocked] = useState(false);

  useEffect(() => {
    if (!active) return;
    const AudioCtx = window.AudioContext;
    if (!AudioCtx) return;
    ctx.current ??= new AudioCtx();
    const audio = ctx.current;
    const beep = () => {
      if (audio.state === 'suspended') {
        void audio.resume().catch(() => {});
        setBlocked(audio.state === 'suspended');
        if (audio.state === 'suspended') return;
      }
      setBlocked(false);
      const t = audio.currentTime;
      for (const [offset, freq] of [
        [0, 880],
        [0.25, 660],
      ] as const) {
        const osc = audio.createOscillator();
        const gain = audio.createGain();
        osc.type = 'square';
        osc.frequency.value = freq;
        gain.gain.setValueAtTime(0.15, t + offset);
        gain.gain.exponentialRampToValueAtTime(0.001, t + offset + 0.22);
        osc.connect(gain).connect(audio.destination);
        osc.start(t + offset);
        osc.stop(t + offset + 0.23);
      }
    };
    // Any tap on the page unlocks the sound a browser held back.
    const unlock = () =>
      void audio.resume().then(
        () => setBlocked(false),
        () => {},
      );
    window.addEventListener('pointerdown', unlock);
    window.addEventListener('keydown', unlock);
    beep();
    const timer = setInterval(beep, BEEP_EVERY_MS);
    return () => {
      clearInterval(timer);
      window.removeEventListener('pointerdown', unlock);
      window.removeEventListener('keydown', unlock);
    };
  }, [active]);
  return blocked;
}

/** Blinks the tab's title while `text` is set; the page's own title comes back after. */
function useBlinkingTitle(text: string | null) {
  useEffect(() => {
    if (!text) return;
    let on = false;
    let own = document.title;
    const timer = setInterval(() => {
      // The page may have changed its title meanwhile (another tab of the console).
      if (!document.title.startsWith('🚨')) own = document.title;
      on = !on;
      document.title = on ? `🚨 ${text}` : own;
    }, 800);
    return () => {
      clearInterval(timer);
      if (document.title.startsWith('🚨')) document.title = own;
    };
  }, [text]);
}

/** One system notification per incident, when the staff member has allowed them. */
function useNotifications(open: Incident[]) {
  const shown = useRef(new Set<string>());
  useEffect(() => {
    if (typeof Notification === 'undefined' || Notification.permission !== 'granted') return;
    for (const i of open) {
      if (shown.current.has(i.id)) continue;
      shown.current.add(i.id);
      try {
        new Notification(`SOS: ${INCIDENT_KIND_LABELS[i.kind]}`, {
          body: `Rider #${i.rider.riderNumber ?? '---'} ${i.rider.kitName ?? ''}${i.note ? `: ${i.note}` : ''}`,
          tag: `incident-${i.id}`,
          requireInteraction: true,
        });
      } catch {
        // Some mobile browsers allow notifications only from a service worker; the bar and sound remain.
      }
    }
  }, [open]);
}

/**
 * The bar's height as `--alarm-inset` on the document while it shows: the page's foot, the
 * sticky sidebar and the phone menu end above it, so no tab (Settings is last) sits under
 * the bar. Measured, since the bar grows with the riders listed and the phone's width.
 */
function useAlarmInset(bar: RefObject<HTMLDivElement | null>, shown: boolean) {
  useLayoutEffect(() => {
    const element = bar.current;
    if (!shown || !element) return;
    const root = document.documentElement;
    const set = () => root.style.setProperty('--alarm-inset', `${element.offsetHeight}px`);
    set();
    const observer = new ResizeObserver(set);
    observer.observe(element);
    return () => {
      observer.disconnect();
      root.style.removeProperty('--alarm-inset');
    };
  }, [bar, shown]);
}

export function IncidentAlarm() {
  const { user } = useAuth();
  const queryClient = useQueryClient();
  const [, setParams] = useSearchParams();
  const allowed = can(user?.role, 'view_dashboard');
  const canHandle = can(user?.role, 'handle_incidents');
  // Today's, whatever edition the console browses.
  const query = useQuery({ ...liveOpenIncidentsQuery(), enabled: allowed });
  const [permission, setPermission] = useState(() =>
    typeof Notification === 'undefined' ? 'denied' : Notification.permission,
  );

  useEventStream((event) => {
    // A call of an account marked as abuse is listed apart and never rings.
    if (event.type === 'incident' && event.data.muted === true) return;
    if (event.type === 'incident' || event.type === 'open') {
      void queryClient.invalidateQueries({ queryKey: incidentKeys.list('open') });
    }
  });

  const open = allowed ? (query.data ?? []) : [];
  const first = open[0];
  const title = first
    ? `SOS${open.length > 1 ? ` (${open.length})` : ''}: #${first.rider.riderNumber ?? '---'} ${first.rider.kitName ?? ''}`
    : null;
  const soundBlocked = useAlarmSound(open.length > 0);
  const bar = useRef<HTMLDivElement>(null);
  useAlarmInset(bar, open.length > 0);
  useBlinkingTitle(title);
  useNotifications(open);

  const ack = useMutation({
    mutationFn: (id: string) => acknowledgeIncident(id, true),
    onSuccess: () => toast.success('Incident acknowledged'),
    onError: (error) => toast.error(error instanceof ApiError ? error.message : 'Failed to acknowledge'),
    onSettled: () => queryClient.invalidateQueries({ queryKey: incidentKeys.all }),
  });

  if (open.length === 0) return null;
  return (
    <>
      {/* Room at the foot of the page, so the bar never hides the last of it. */}
      <div aria-hidden="true" className="h-(--alarm-inset) shrink-0" />
      <div
        ref={bar}
        role="alert"
        data-testid="incident-alarm"
        className="fixed inset-x-0 bottom-0 z-40 border-t-4 border-white/80 bg-ember-700 px-3 pt-2 pb-[max(0.5rem,env(safe-area-inset-bottom))] text-white shadow-2xl sm:px-5"
      >
        <div className="mx-auto flex max-w-6xl flex-col gap-2">
          <p className="flex items-center gap-2 font-display text-xl tracking-wider uppercase">
            <Siren className="size-6 shrink-0 animate-pulse" aria-hidden="true" />
            {open.length === 1 ? 'SOS: a rider needs help' : `SOS: ${open.length} riders need help`}
          </p>
          <ul className="flex max-h-40 flex-col gap-1 overflow-y-auto">
            {open.slice(0, 5).map((i) => (
              <li key={i.id} className="flex flex-wrap items-center gap-2">
                <span className="min-w-0 flex-1 font-bold wrap-anywhere">
                  #{i.rider.riderNumber ?? '---'} {i.rider.kitName} · {INCIDENT_KIND_LABELS[i.kind]}
                  {i.lastStation ? ` · last seen ${i.lastStation.name}` : ''}
                </span>
                {canHandle && (
                  <button
                    type="button"
                    className={buttonStyles(
                      'secondary',
                      'md',
                      'border-white bg-ink-950/30 text-white hover:bg-ink-950/50',
                    )}
                    disabled={ack.isPending}
                    onClick={() => ack.mutate(i.id)}
                    data-testid="alarm-acknowledge"
                  >
                    <CheckCheck className="size-5" aria-hidden="true" />
                    Acknowledge
                  </button>
                )}
              </li>
            ))}
          </ul>
          <div className="flex flex-wrap gap-2 text-sm">
            <button type="button" className="underline" onClick={() => setParams({ tab: 'event-day' })}>
              Open the incident board
            </button>
            {permission === 'default' && (
              <button
                type="button"
                className="inline-flex items-center gap-1 underline"
                onClick={() => void Notification.requestPermission().then(setPermission)}
              >
                <BellRing className="size-4" aria-hidden="true" />
                Allow notifications
              </button>
            )}
            {soundBlocked && (
              <span className="inline-flex items-center gap-1">
                <Volume2 className="size-4" aria-hidden="true" />
                Tap anywhere to turn the alarm sound on
              </span>
            )}
          </div>
        </div>
      </div>
    </>
  );
}
