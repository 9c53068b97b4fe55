// How the console shows a rider, with the defaults for what is missing (category 'Not Set',
// team 'No Team', bike check 'Not Started', rider kit 'Preparing').
import { GUEST_STAFF_LABEL, ROLE_LABELS, type Role } from '@rally/shared/catalog/accounts';
import { categoryDisplay } from '@rally/shared/catalog/registration';
import type { AdminUser } from '@rally/shared/contracts/users';
import { formatDate, formatRelativeTime } from '../../../lib/format';

export function fullNameOf(u: { first_name: string; last_name: string }): string {
  return `${u.first_name} ${u.last_name}`.trim();
}

/** Kit name, else full name: what staff call a rider. */
export function callNameOf(u: { kit_name: string | null; first_name: string; last_name: string }): string {
  return u.kit_name?.trim() || fullNameOf(u) || 'Unnamed warrior';
}

/** Staff lists label guests 'Guest (Organizer Sponsored)'. */
export function staffRoleLabel(role: string | null | undefined): string {
  if (role === 'guest') return GUEST_STAFF_LABEL;
  return role && role in ROLE_LABELS ? ROLE_LABELS[role as Role] : ROLE_LABELS.participant;
}

/** NOT SET / TBD when unset; a man in lakambini shows as MAGANI. */
export function staffCategory(u: Pick<AdminUser, 'category' | 'gender'>) {
  return categoryDisplay(u.category, { gender: u.gender, unsetAs: 'not-set' });
}

/** A size, with a CUSTOM size shown as its custom text. */
export function sizeText(size: string | null, custom?: string | null): string {
  if (!size) return 'Not set';
  if (size === 'CUSTOM') return custom ? `Custom: ${custom}` : 'Custom';
  return size;
}

export function hasAnySize(u: AdminUser): boolean {
  return !!(u.tshirt_size || u.finisher_sleeve_size || u.vest_size);
}

export function lastActive(value: string | null): string {
  return value ? formatRelativeTime(value) : 'Never';
}

export function riderNumberText(n: number | null): string {
  return n === null ? 'Not Set' : `#${n}`;
}

export { formatDate };
