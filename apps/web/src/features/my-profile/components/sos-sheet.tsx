// What happened, and the hold that sends it. The position is looked for as soon as the sheet
// opens, so it is usually there by the time the hold completes.
import { INCIDENT_KIND_LABELS, INCIDENT_NOTE_MAX, SOS_KINDS, type SosKind } from '@rally/shared/catalog/event-day';
import type { Position } from '@rally/shared/contracts/incidents';
import { Bike, CircleHelp, Compass, HeartPulse, type LucideIcon, MapPin, Siren, Wrench } from 'lucide-react';
import { useEffect, useId, useState } from 'react';
import { Modal } from '../../../components/ui/modal';
import { coordinatesText } from '../../../lib/incident-display';
import { currentPosition } from '../lib/geolocation';
import { HoldToConfirmButton } from './hold-to-confirm-button';

const KIND_ICONS: Record<SosKind, LucideIcon> = {
  crash: Bike,
  medical: HeartPulse,
  mechanical: Wrench,
  lost: Compass,
  other: CircleHelp,
};

export interface SosDraft {
  kind: SosKind;
  note?: string;
  position?: Position;
}

type Locating = { kind: 'looking' } | { kind: 'found'; position: Position } | { kind: 'none' };

export function SosSheet({
  open,
  onClose,
  onSend,
}: {
  open: boolean;
  onClose: () => void;
  onSend: (draft: SosDraft) => void;
}) {
  const [kind, setKind] = useState<SosKind | null>(null);
  const [note, setNote] = useState('');
  const [locating, setLocating] = useState<Locating>({ kind: 'looking' });
  const noteId = useId();

  useEffect(() => {
    if (!open) return;
    setKind(null);
    setNote('');
    setLocating({ kind: 'looking' });
    let alive = true;
    void currentPosition().then((position) => {
      if (alive) setLocating(position ? { kind: 'found', position } : { kind: 'none' });
    });
    return () => {
      alive = false;
    };
  }, [open]);

  const send = () => {
    onSend({
      kind: kind ?? 'other',
      // The server takes one line; a pasted newline becomes a space.
      note: note.replace(/\s+/g, ' ').trim() || undefined,
      position: locating.kind === 'found' ? locating.position : undefined,
    });
  };

  return (
    <Modal open={open} onClose={onClose} title="SOS: what happened?" className="max-w-lg">
      <div className="space-y-4">
        <fieldset>
          <legend className="mb-2 text-sm text-ash">Choose one (optional: a hold alone sends "Other").</legend>
          <div className="grid grid-cols-2 gap-2">
            {SOS_KINDS.map((k) => {
              const Icon = KIND_ICONS[k];
              const chosen = kind === k;
              return (
                <label
                  key={k}
                  className={`flex min-h-14 min-w-0 cursor-pointer items-center gap-2 rounded-lg border-2 px-2.5 py-2 font-display text-base uppercase tracking-wide wrap-anywhere min-[400px]:text-lg ${
                    chosen
                      ? 'border-ember-500 bg-ember-600 text-white'
                      : 'border-ink-600 bg-ink-850 text-bone hover:border-ember-500'
                  } has-[:focus-visible]:outline-2 has-[:focus-visible]:outline-gold-300`}
                >
                  <input
                    type="radio"
                    name="sos-kind"
                    value={k}
                    checked={chosen}
                    onChange={() => setKind(k)}
                    className="sr-only"
                  />
                  <Icon className="size-5 shrink-0" aria-hidden="true" />
                  {INCIDENT_KIND_LABELS[k]}
                </label>
              );
            })}
          </div>
        </fieldset>
        <div>
          <label htmlFor={noteId} className="mb-1 block text-sm font-bold text-bone">
            Note (optional)
          </label>
          <input
            id={noteId}
            type="text"
            value={note}
            maxLength={INCIDENT_NOTE_MAX}
            onChange={(e) => setNote(e.target.value)}
            placeholder="e.g. leg hurt, bike in the ditch at the bridge"
            className="min-h-11 w-full rounded-md border border-ink-600 bg-ink-850 px-3 text-bone placeholder:text-ash/70"
          />
        </div>
        <p className="flex items-center gap-2 text-sm text-ash" data-testid="sos-position" aria-live="polite">
          <MapPin className="size-4 shrink-0 text-fire-400" aria-hidden="true" />
          {locating.kind === 'looking' && 'Finding your position...'}
          {locating.kind === 'found' && `Position found: ${coordinatesText(locating.position)}`}
          {locating.kind === 'none' && 'No position from this phone: staff will start from your last station.'}
        </p>
        <HoldToConfirmButton
          testId="sos-hold"
          onConfirm={send}
          className="min-h-20 w-full rounded-xl bg-ember-600 px-3 font-display text-xl tracking-wider min-[400px]:text-2xl min-[400px]:tracking-widest text-white uppercase shadow-[0_5px_0_0_var(--color-ember-700)] active:translate-y-0.5"
          hint="Press and hold for 1.5 seconds to send"
        >
          <span className="flex items-center justify-center gap-3">
            <Siren className="size-8" aria-hidden="true" />
            Hold to send SOS
          </span>
        </HoldToConfirmButton>
      </div>
    </Modal>
  );
}
