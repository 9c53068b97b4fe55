// Accounts: roles and who lands where, account and verification states, passwords and
// session lifetimes.
// One topic of the catalog: the rally's fixed content and business constants, defined once;
// the server's Postgres enums, the zod contracts and the web UI read them from here.

export const ROLES = ['admin', 'marshall', 'officer', 'developer', 'guest', 'participant'] as const;
export type Role = (typeof ROLES)[number];
export const DEFAULT_ROLE: Role = 'participant';

export const ROLE_LABELS: Record<Role, string> = {
  admin: 'Admin',
  marshall: 'Marshall',
  officer: 'Officer',
  developer: 'Developer',
  guest: 'Guest Rider',
  participant: 'Participant',
};
/** The label staff lists and the edit modal use for guests. */
export const GUEST_STAFF_LABEL = 'Guest (Organizer Sponsored)';

export const STAFF_ROLES = ['admin', 'marshall', 'developer', 'officer'] as const satisfies readonly Role[];
/** Rider accounts, as opposed to staff ones. */
export const RIDER_ROLES = ['participant', 'guest'] as const satisfies readonly Role[];
/** Whether a role is a rider's (RIDER_ROLES), as opposed to staff. */
export function isRiderRole(role: string | null | undefined): boolean {
  return (RIDER_ROLES as readonly string[]).includes(role ?? '');
}
/** Roles that land on /admin after login or verification (others land on /me). */
export const ADMIN_LANDING_ROLES = ['admin', 'marshall'] as const satisfies readonly Role[];
/** Roles that see the Admin Panel entry in the My Profile menu. */
export const ADMIN_PANEL_ROLES = ['admin', 'officer', 'marshall', 'developer'] as const satisfies readonly Role[];
export const PRINT_QR_ROLES = ['admin', 'developer'] as const satisfies readonly Role[];

export const VERIFICATION_STATUSES = ['pending', 'verified', 'rejected'] as const;
export type VerificationStatus = (typeof VERIFICATION_STATUSES)[number];
/** A rider's standing in the current edition: their entry's verification, or none yet though they rode before. */
export const RIDER_ENTRY_STATUSES = [...VERIFICATION_STATUSES, 'not_entered'] as const;
export type RiderEntryStatus = (typeof RIDER_ENTRY_STATUSES)[number];
export const VERIFICATION_ACTIONS = ['verified', 'rejected'] as const;
export type VerificationAction = (typeof VERIFICATION_ACTIONS)[number];

export const USER_STATUSES = ['active', 'inactive'] as const;
export type UserStatus = (typeof USER_STATUSES)[number];

export const GENDERS = ['male', 'female'] as const;
export type Gender = (typeof GENDERS)[number];

export const PASSWORD_MIN_LENGTH = 8;
export const SESSION_TTL_MS = 7 * 24 * 60 * 60 * 1000;
export const RESET_LINK_TTL_MS = 60 * 60 * 1000;
