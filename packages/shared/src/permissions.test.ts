// The permission table is what every route's access and every console tab is decided
// by: it must be exactly the staff console's role/permission matrix plus the event-day
// permissions, and the visibility rule must hide developers from non-developers and admins
// from admins.
import { describe, expect, it } from 'vitest';
import { PRINT_QR_ROLES, ROLES, STAFF_ROLES } from './catalog/accounts';
import {
  CONSOLE_TABS,
  can,
  canPrintQr,
  canReadRiderContact,
  canSeeAccount,
  hiddenRolesFor,
  isStaffRole,
  PERMISSION_NAMES,
  PERMISSIONS,
} from './permissions';

/** The matrix, written out again on purpose: a change to the matrix must be a change here too. */
const SPEC_MATRIX: Record<string, string[]> = {
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
  // Added for event day.
  manage_event: ['admin', 'developer'],
  handle_incidents: ['admin', 'marshall', 'developer'],
};

describe('permission table', () => {
  it('is exactly the staff role/permission matrix', () => {
    expect(Object.keys(PERMISSIONS).sort()).toEqual(Object.keys(SPEC_MATRIX).sort());
    for (const [permission, roles] of Object.entries(SPEC_MATRIX)) {
      expect([...PERMISSIONS[permission as keyof typeof PERMISSIONS]].sort(), permission).toEqual([...roles].sort());
    }
    expect(PERMISSION_NAMES).toEqual(Object.keys(PERMISSIONS));
  });

  it('can() answers the table for every role and permission, and no for riders and strangers', () => {
    for (const permission of PERMISSION_NAMES) {
      for (const role of ROLES) {
        expect(can(role, permission), `${role} ${permission}`).toBe(SPEC_MATRIX[permission]!.includes(role));
      }
      expect(can(null, permission)).toBe(false);
      expect(can(undefined, permission)).toBe(false);
      expect(can('superuser', permission)).toBe(false);
    }
    expect(PERMISSION_NAMES.some((p) => can('participant', p) || can('guest', p))).toBe(false);
  });

  it('names the console roles and the QR sticker roles', () => {
    expect([...STAFF_ROLES].sort()).toEqual(['admin', 'developer', 'marshall', 'officer']);
    for (const role of ROLES) expect(isStaffRole(role), role).toBe((STAFF_ROLES as readonly string[]).includes(role));
    expect([...PRINT_QR_ROLES].sort()).toEqual(['admin', 'developer']);
    expect(canPrintQr('admin')).toBe(true);
    expect(canPrintQr('marshall')).toBe(false);
    expect(canPrintQr(null)).toBe(false);
  });

  it('gates every console tab by a permission of the table; the dashboard is open to all staff', () => {
    for (const tab of CONSOLE_TABS) expect(PERMISSION_NAMES).toContain(tab.permission);
    expect(new Set(CONSOLE_TABS.map((t) => t.id)).size).toBe(CONSOLE_TABS.length);
    const dashboard = CONSOLE_TABS.find((t) => t.id === 'dashboard');
    for (const role of STAFF_ROLES) expect(can(role, dashboard!.permission)).toBe(true);
  });
});

describe('visibility rule', () => {
  it('hides developers from non-developers and admins from admins, nothing else', () => {
    expect(hiddenRolesFor('developer')).toEqual([]);
    expect([...hiddenRolesFor('admin')].sort()).toEqual(['admin', 'developer']);
    expect(hiddenRolesFor('marshall')).toEqual(['developer']);
    expect(hiddenRolesFor('officer')).toEqual(['developer']);
    expect(hiddenRolesFor(null)).toEqual(['developer']);
    for (const viewer of ROLES) {
      for (const target of ROLES) {
        expect(canSeeAccount(viewer, target), `${viewer} sees ${target}`).toBe(
          !hiddenRolesFor(viewer).includes(target),
        );
      }
    }
  });
});

describe('rider contact rule', () => {
  it('opens riders’ contact details to admins, marshals and developers, never officers or riders', () => {
    const readers = ROLES.filter((role) => canReadRiderContact(role));
    expect([...readers].sort()).toEqual(['admin', 'developer', 'marshall']);
    expect(canReadRiderContact(null)).toBe(false);
    expect(canReadRiderContact('superuser')).toBe(false);
  });
});
