// The verdict, as large as the screen allows: a marshal reads it at a glance, in the sun,
// with a rider revving in front of them. Colour carries the answer; the words confirm it.
import { SCAN_FLAG_LABELS } from '@rally/shared/catalog/event-day';
import { CircleCheckBig, CircleHelp, Repeat, TriangleAlert } from 'lucide-react';
import { useLayoutEffect } from 'react';
import type { ShownVerdict } from '../hooks/use-scan-recorder';

const TONES = {
  accepted: { box: 'bg-jade-400 text-ink-950 border-jade-600', title: 'Go', note: 'Recorded', Icon: CircleCheckBig },
  flagged: {
    box: 'bg-gold-400 text-ink-950 border-gold-500',
    title: 'Check',
    note: 'Recorded, flagged',
    Icon: TriangleAlert,
  },
  unknown: {
    box: 'bg-ember-600 text-white border-ember-700',
    title: 'Stop',
    note: 'Recorded for staff review',
    Icon: CircleHelp,
  },
} as const;

export const VERDICT_MEASURE = 'scan-verdict';

export function VerdictCard({ shown, photoUrl }: { shown: ShownVerdict | null; photoUrl: string | undefined }) {
  // Input-to-paint, measured after the frame that shows the verdict (read by the bench).
  useLayoutEffect(() => {
    if (!shown) return;
    const start = shown.inputAt;
    const seq = shown.seq;
    requestAnimationFrame(() =>
      setTimeout(() => {
        const end = performance.now();
        performance.measure(VERDICT_MEASURE, { start, end, detail: { seq } });
      }, 0),
    );
  }, [shown]);

  if (!shown) {
    return (
      <section
        aria-live="polite"
        data-testid="verdict"
        data-tone="ready"
        className="flex min-h-48 flex-col items-center justify-center rounded-xl border-4 border-dashed border-ink-600 bg-ink-900 p-6 text-center"
      >
        <p className="font-display text-4xl tracking-wider text-bone uppercase">Ready</p>
        <p className="mt-2 text-lg text-ash">Point the camera at a rider's QR sticker, or type the rider number.</p>
      </section>
    );
  }

  const { verdict, repeatOf } = shown;
  const tone = TONES[verdict.tone];
  const rider = verdict.tone === 'unknown' ? null : verdict.rider;
  const reason = verdict.tone === 'accepted' ? null : SCAN_FLAG_LABELS[verdict.reason];
  const typed = 'riderNumber' in shown.token ? `#${shown.token.riderNumber}` : shown.token.riderCode;

  return (
    <section
      key={shown.seq}
      aria-live="assertive"
      data-testid="verdict"
      data-tone={verdict.tone}
      data-seq={shown.seq}
      className={`rounded-xl border-4 p-4 shadow-[0_6px_0_0_rgba(0,0,0,0.45)] sm:p-6 ${tone.box}`}
    >
      <div className="flex flex-wrap items-center gap-x-3 gap-y-1">
        <tone.Icon className="size-14 shrink-0 sm:size-20" strokeWidth={2.75} aria-hidden="true" />
        <h2 className="font-display text-7xl leading-none tracking-wide uppercase sm:text-8xl">{tone.title}</h2>
        <p className="basis-full text-lg font-bold uppercase sm:ml-auto sm:basis-auto sm:text-right sm:text-xl">
          {tone.note}
        </p>
      </div>
      {reason && (
        <p className="mt-2 text-2xl font-black sm:text-3xl" data-testid="verdict-reason">
          {reason}
        </p>
      )}
      {repeatOf && (
        <p className="mt-2 inline-flex items-center gap-2 rounded-md bg-ink-950/85 px-3 py-1 text-lg font-bold text-bone">
          <Repeat className="size-5" aria-hidden="true" />
          {`Same scan ${Math.max(1, Math.round((Date.now() - repeatOf.at) / 1000))} s ago — counted once`}
        </p>
      )}
      {rider ? (
        <div className="mt-4 flex items-center gap-4">
          {photoUrl ? (
            <img
              src={photoUrl}
              alt={`${rider.firstName} ${rider.lastName}`}
              className="size-28 shrink-0 rounded-lg border-4 border-ink-950 object-cover sm:size-36"
            />
          ) : (
            <div
              aria-hidden="true"
              className="flex size-28 shrink-0 items-center justify-center rounded-lg border-4 border-ink-950 bg-ink-900 font-display text-5xl text-bone sm:size-36"
            >
              {(rider.firstName[0] ?? '') + (rider.lastName[0] ?? '')}
            </div>
          )}
          <div className="min-w-0">
            <p className="font-display text-6xl leading-none sm:text-7xl" data-testid="verdict-number">
              {rider.riderNumber !== null ? `#${rider.riderNumber}` : '—'}
            </p>
            <p className="mt-1 truncate text-2xl font-black sm:text-3xl" data-testid="verdict-name">
              {`${rider.firstName} ${rider.lastName}`}
            </p>
            {rider.kitName && <p className="truncate text-xl font-bold">{`“${rider.kitName}”`}</p>}
            <p className="mt-1 text-lg font-bold uppercase">
              {[rider.category, rider.route && `${rider.route} route`].filter(Boolean).join(' · ')}
            </p>
          </div>
        </div>
      ) : (
        <p className="mt-3 text-2xl font-black break-all">{`Read: ${typed}`}</p>
      )}
    </section>
  );
}
