import type { Role } from '@rally/shared/catalog/accounts';
import type { AdminUser } from '@rally/shared/contracts/users';
import { BadgeCheck, Clock, type LucideIcon, Route, XCircle } from 'lucide-react';
import { ROLE_STYLES } from '../../../components/ui/role-styles';
import { staffCategory, staffRoleLabel } from './display';

const pill =
  'inline-flex items-center gap-1 whitespace-nowrap rounded-full border px-2 py-0.5 text-[0.7rem] font-bold uppercase tracking-wide';

export function RankBadge({ role }: { role: Role }) {
  const style = ROLE_STYLES[role] ?? ROLE_STYLES.participant;
  const Icon = style.icon;
  return (
    <span className={`${pill} ${style.className}`}>
      <Icon className="size-3" aria-hidden="true" />
      {staffRoleLabel(role)}
    </span>
  );
}

export function StaffCategoryBadge({ user }: { user: Pick<AdminUser, 'category' | 'gender'> }) {
  const c = staffCategory(user);
  const unset = !user.category;
  return (
    <span
      className={`${pill} ${unset ? 'border-ink-600 bg-ink-800 text-ash' : 'border-gold-500 bg-gold-500/10 text-gold-300'}`}
    >
      <Route className="size-3" aria-hidden="true" />
      {c.name} · {c.distance}
    </span>
  );
}

type Badge = { label: string; icon: LucideIcon; className: string };
// Pending is named so an unknown status falls back to it.
const VERIFICATION: Partial<Record<string, Badge>> & { pending: Badge } = {
  verified: { label: 'Verified', icon: BadgeCheck, className: 'border-jade-400 bg-jade-600/20 text-jade-400' },
  pending: { label: 'Pending', icon: Clock, className: 'border-gold-500 bg-gold-500/15 text-gold-300' },
  rejected: { label: 'Rejected', icon: XCircle, className: 'border-ember-500 bg-ember-700/30 text-ember-400' },
};

export function VerificationBadge({ status }: { status: string | null }) {
  const v = VERIFICATION[status ?? 'pending'] ?? VERIFICATION.pending;
  const Icon = v.icon;
  return (
    <span className={`${pill} ${v.className}`}>
      <Icon className="size-3" aria-hidden="true" />
      {v.label}
    </span>
  );
}

/** Bike check and rider kit statuses share one styling: the same values mean the same. */
const PROGRESS: Record<string, string> = {
  Ready: 'border-jade-400 bg-jade-600/20 text-jade-400',
  Deployed: 'border-sky-500 bg-sky-500/15 text-sky-300',
  Preparing: 'border-gold-500 bg-gold-500/15 text-gold-300',
  'Not Started': 'border-ink-600 bg-ink-800 text-ash',
};

export function ProgressBadge({ value }: { value: string }) {
  return <span className={`${pill} ${PROGRESS[value] ?? PROGRESS['Not Started']}`}>{value}</span>;
}
