import { ROLE_LABELS, type Role } from '@rally/shared/catalog/accounts';
import { type RIDER_BADGE_COLORS, riderBadgeColor } from '@rally/shared/catalog/console';
import { categoryDisplay } from '@rally/shared/catalog/registration';
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

type BadgeColor = (typeof RIDER_BADGE_COLORS)[number];

// The badge colours as literal class names (which Tailwind generates), not a style attribute:
// the public profile is rendered by the server, and the CSP refuses style attributes in HTML.
const BADGE_BACKGROUNDS: Record<BadgeColor, string> = {
  '#dc2626': 'bg-[#dc2626]',
  '#ea580c': 'bg-[#ea580c]',
  '#d97706': 'bg-[#d97706]',
  '#ca8a04': 'bg-[#ca8a04]',
  '#65a30d': 'bg-[#65a30d]',
  '#16a34a': 'bg-[#16a34a]',
  '#059669': 'bg-[#059669]',
  '#0d9488': 'bg-[#0d9488]',
  '#0891b2': 'bg-[#0891b2]',
  '#0284c7': 'bg-[#0284c7]',
  '#2563eb': 'bg-[#2563eb]',
  '#4f46e5': 'bg-[#4f46e5]',
  '#7c3aed': 'bg-[#7c3aed]',
  '#9333ea': 'bg-[#9333ea]',
  '#c026d3': 'bg-[#c026d3]',
  '#db2777': 'bg-[#db2777]',
};

export function RiderNumberBadge({ riderNumber, className = '' }: { riderNumber: number | null; className?: string }) {
  if (riderNumber === null) {
    return (
      <span className={`rounded-md border-2 border-ink-600 bg-ink-800 px-2 py-0.5 font-display text-ash ${className}`}>
        #---
      </span>
    );
  }
  const background = riderBadgeColor(riderNumber) as BadgeColor;
  const text = textOn(background) === '#ffffff' ? 'text-white' : 'text-ink-950';
  return (
    <span
      className={`rounded-md border-2 border-ink-950 px-2 py-0.5 font-display tracking-wider shadow-md shadow-black/60 ${BADGE_BACKGROUNDS[background]} ${text} ${className}`}
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
