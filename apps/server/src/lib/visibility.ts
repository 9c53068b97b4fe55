// The visibility rule of the staff console, in one place: developers are hidden from
// non-developers, and admins from other admins. An account the viewer may not see
// behaves exactly like a missing one, in lists (SQL) and in by-id reads (in memory).
// The rule itself is data in packages/shared/src/permissions.ts (hiddenRolesFor), so the
// web client hides the same accounts; every server read goes through this file.
import type { Role } from '@rally/shared/catalog/accounts';
import { hiddenRolesFor } from '@rally/shared/permissions';
import { isNull, notInArray, or, type SQL, type SQLWrapper, sql } from 'drizzle-orm';

/** In memory: may a viewer of this role see an account of that role? */
export function canSee(viewerRole: string | null | undefined, targetRole: string | null | undefined): boolean {
  return !(hiddenRolesFor(viewerRole) as string[]).includes(targetRole ?? '');
}

/**
 * A by-id read: the row when it exists and the viewer may see its account, else the
 * not-found error the caller names (so a hidden account answers like a missing one).
 */
export function visibleOrNotFound<T extends { role: string | null }>(
  viewerRole: string | null | undefined,
  row: T | undefined,
  notFound: () => Error,
): T {
  if (!row || !canSee(viewerRole, row.role)) throw notFound();
  return row;
}

export interface VisibleOptions {
  /**
   * Entries that belong to no account (a left join found none: a deleted user, a login
   * attempt on an unknown email) stay visible.
   */
  orphans?: boolean;
  /** The viewer's own entries stay visible even when their role is hidden from them (an admin's own). */
  self?: { id: SQLWrapper; viewerId: string };
}

/**
 * In SQL: a condition keeping the accounts the viewer may see, over the column (or
 * expression) holding the account's role. Undefined when the viewer sees everyone.
 */
export function visibleAccounts(
  viewerRole: string | null | undefined,
  role: SQLWrapper,
  options: VisibleOptions = {},
): SQL | undefined {
  const hidden: Role[] = hiddenRolesFor(viewerRole);
  if (hidden.length === 0) return undefined;
  return or(
    notInArray(role, hidden),
    options.orphans ? isNull(role) : undefined,
    options.self ? sql`${options.self.id} = ${options.self.viewerId}::uuid` : undefined,
  );
}
