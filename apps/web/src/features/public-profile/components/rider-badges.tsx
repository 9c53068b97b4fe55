import { categoryDisplay, ROLE_LABELS, type Role, riderBadgeColor } from '@rally/shared/catalog';
import { Route, Trophy } from 'lucide-react';
import { ROLE_STYLES } from '../../../components/ui/role-styles';
import { formatRiderNumber } from '../../../lib/format';

export function roleLabel(role: string | null | undefined): string {
  return role && role in ROLE_LABELS ? ROLE_LABELS[role as Role] : 'Participant';
}

export function RoleBadge({ role, size = 'md' }: { role: Role; size?: 'sm' | 'md' }) {
  const style = ROLE_STYLES[role] ?? ROLE_STYLES.participant;
  const Icon = style.icon;
  return (
    <span
      className={`inline-flex items-center gap-1 rounded-full border font-bold uppercase tracking-wide ${style.className} ${
        size === 'sm' ? 'px-2 py-0.5 text-[0.7rem]' : 'px-3 py-1 text-xs'
      }`}
    >
      <Icon className={size === 'sm' ? 'size-3' : 'size-3.5'} aria-hidden="true" />
      {roleLabel(role)}
    </span>
  );
}

/** Dark or light text, whichever reads better on the badge colour (WCAG relative luminance). */
function textOn(hex: string): string {
  const channel = (i: number) => {
    const c = Number.parseInt(hex.slice(i, i + 2), 16) / 255;
    return c <= 0.03928 ? c / 12.92 : ((c + 0.055) / 1.055) ** 2.4;
  };
  const luminance = 0.2126 * channel(1) + 0.7152 * channel(3) + 0.0722 * channel(5);
  return (luminance + 0.05) / 0.05 > 1.05 / (luminance + 0.05) ? '#0c0a09' : '#ffffff';
}

export function RiderNumberBadge({ riderNumber, className = '' }: { riderNumber: number | null; className?: string }) {
  if (riderNumber === null) {
    return (
      <span className={`rounded-md border-2 border-ink-600 bg-ink-800 px-2 py-0.5 font-display text-ash ${className}`}>
        #---
      </span>
    );
  }
  const background = riderBadgeColor(riderNumber);
  return (
    <span
      className={`rounded-md border-2 border-ink-950 px-2 py-0.5 font-display tracking-wider shadow-md shadow-black/60 ${className}`}
      style={{ background, color: textOn(background) }}
    >
      <span className="sr-only">Rider number </span>#{formatRiderNumber(riderNumber)}
    </span>
  );
}

export function CategoryBadge({ category, gender }: { category: string | null; gender?: string | null }) {
  const display = categoryDisplay(category, { gender });
  return (
    <span className="inline-flex items-center gap-1 rounded-full border border-gold-500 bg-gold-500/10 px-3 py-1 text-xs font-bold uppercase tracking-wide text-gold-300">
      <Route className="size-3.5" aria-hidden="true" />
      {display.name} · {display.distance}
    </span>
  );
}

/** Earned on the course: a finish with every required station passed. */
export function FinisherBadge() {
  return (
    <span
      data-testid="finisher-badge"
      className="inline-flex items-center gap-1 rounded-full border-2 border-gold-300 bg-gold-400 px-3 py-1 text-xs font-bold tracking-wide text-ink-950 uppercase"
    >
      <Trophy className="size-3.5" aria-hidden="true" />
      Finisher
    </span>
  );
}
