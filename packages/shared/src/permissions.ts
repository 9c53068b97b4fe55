// The staff role/permission matrix, as data. The server enforces
// it on every route; the web client uses the same table to hide what would be refused.
import { PRINT_QR_ROLES, type Role, STAFF_ROLES } from './catalog/accounts';

export const PERMISSIONS = {
  view_dashboard: ['admin', 'marshall', 'developer', 'officer'],
  view_users: ['admin', 'marshall', 'developer'],
  verify_users: ['admin', 'marshall', 'developer'],
  qr_scan: ['admin', 'marshall', 'developer'],
  view_masterlist: ['admin', 'marshall', 'developer'],
  edit_user_info: ['admin', 'developer'],
  edit_user_role: ['admin', 'developer'],
  delete_user: ['admin', 'developer'],
  manage_announcements: ['admin', 'developer'],
  manage_password_resets: ['admin', 'developer'],
  manage_kits: ['admin', 'developer'],
  manage_id_cards: ['admin', 'developer'],
  view_logs: ['admin', 'developer'],
  undo_verification: ['developer'],
  // Event day: stations, rules, settings, DNF/DNS, flagged-scan review.
  manage_event: ['admin', 'developer'],
  // Acknowledge, assign and resolve incidents (SOS).
  handle_incidents: ['admin', 'marshall', 'developer'],
} as const satisfies Record<string, readonly Role[]>;

export type Permission = keyof typeof PERMISSIONS;
export const PERMISSION_NAMES = Object.keys(PERMISSIONS) as Permission[];

export function can(role: string | null | undefined, permission: Permission): boolean {
  if (!role) return false;
  return (PERMISSIONS[permission] as readonly string[]).includes(role);
}

/**
 * Who may read a rider's contact details (phone, emergency contact, and what else reaches
 * them: an email, a home address): the staff who open user records or answer incidents,
 * never officers (DESIGN §8). The board, the incidents and the activity feed all ask this.
 */
export function canReadRiderContact(role: string | null | undefined): boolean {
  return can(role, 'view_users') || can(role, 'handle_incidents');
}

export function isStaffRole(role: string | null | undefined): boolean {
  return !!role && (STAFF_ROLES as readonly string[]).includes(role);
}

export function canPrintQr(role: string | null | undefined): boolean {
  return !!role && (PRINT_QR_ROLES as readonly string[]).includes(role);
}

/**
 * Visibility rules: developers are hidden from non-developers, and admins are hidden
 * from admins. A staff member may neither see nor act on an account they cannot see.
 */
export function canSeeAccount(viewerRole: string | null | undefined, targetRole: string | null | undefined): boolean {
  if (targetRole === 'developer') return viewerRole === 'developer';
  if (targetRole === 'admin' && viewerRole === 'admin') return false;
  return true;
}

/** Roles a viewer may not see, for filtering lists in SQL. */
export function hiddenRolesFor(viewerRole: string | null | undefined): Role[] {
  const hidden: Role[] = [];
  if (viewerRole !== 'developer') hidden.push('developer');
  if (viewerRole === 'admin') hidden.push('admin');
  return hidden;
}

/** The console's sidebar: each tab and the permission that shows it. */
export const CONSOLE_TABS = [
  { id: 'dashboard', title: 'Dashboard', permission: 'view_dashboard' },
  { id: 'event-day', title: 'Event Day', permission: 'view_dashboard' },
  { id: 'users', title: 'User Management', permission: 'view_users' },
  { id: 'masterlist', title: 'Participant Masterlist', permission: 'view_masterlist' },
  { id: 'verifications', title: 'Verification Center', permission: 'verify_users' },
  { id: 'kit-tracker', title: 'Kit Tracker', permission: 'manage_kits' },
  { id: 'id-cards', title: 'QR Sticker Generator', permission: 'manage_id_cards' },
  { id: 'password-resets', title: 'Password Reset Management', permission: 'manage_password_resets' },
  { id: 'announcements', title: 'Announcements Management', permission: 'manage_announcements' },
  { id: 'logs', title: 'System Logs', permission: 'view_logs' },
  { id: 'analytics', title: 'Analytics', permission: 'view_dashboard' },
  // The specs' coming-soon placeholder, now the organisers' exports (issue 17): they carry
  // contact data, so the tab needs what the exports need (officers never see it).
  { id: 'reports', title: 'Reports', permission: 'view_masterlist' },
  // The rally every year (DESIGN.md §9): organisers make and date the next edition.
  { id: 'editions', title: 'Editions', permission: 'manage_event' },
  // The Data Privacy Act's paperwork (DESIGN.md §12): who looked, erasure, data requests, the notice.
  { id: 'privacy', title: 'Privacy', permission: 'view_logs' },
  { id: 'settings', title: 'Settings', permission: 'view_dashboard' },
] as const satisfies ReadonlyArray<{ id: string; title: string; permission: Permission }>;
export type ConsoleTabId = (typeof CONSOLE_TABS)[number]['id'];
