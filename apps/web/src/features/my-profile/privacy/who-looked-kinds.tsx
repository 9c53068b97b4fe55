// The kinds of sensitive data a line of the access log carried, as badges (My Profile's
// "Who looked" card and the console's Privacy tab share them).
import { SENSITIVE_KIND_LABELS, type SensitiveKind } from '@rally/shared/catalog/privacy';
import { KIND_BADGE } from './who-looked-sources';

export function KindBadges({ kinds }: { kinds: readonly SensitiveKind[] }) {
  return (
    <ul className="flex flex-wrap gap-1.5" aria-label="What was read">
      {kinds.map((kind) => (
        <li
          key={kind}
          data-testid="who-looked-kind"
          className={`inline-flex items-center whitespace-nowrap rounded-full border px-2 py-0.5 text-xs font-bold uppercase tracking-wide ${KIND_BADGE[kind] ?? KIND_BADGE.birthdate}`}
        >
          {SENSITIVE_KIND_LABELS[kind] ?? kind}
        </li>
      ))}
    </ul>
  );
}

const MANILA = new Intl.DateTimeFormat('en-PH', {
  timeZone: 'Asia/Manila',
  year: 'numeric',
  month: 'short',
  day: 'numeric',
  hour: 'numeric',
  minute: '2-digit',
});

/** 'Dec 7, 2026, 2:05 PM' in Manila time: the rally's clock, wherever the reader is. */
export function exactTime(iso: string): string {
  const date = new Date(iso);
  return Number.isNaN(date.getTime()) ? iso : MANILA.format(date);
}
