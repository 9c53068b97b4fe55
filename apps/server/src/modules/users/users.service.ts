// Staff writes over users. Each one re-checks visibility inside its transaction (an
// account the viewer cannot see answers 404 exactly like a missing one) and records an
// activity in the same transaction.

import type { Role } from '@rally/shared/catalog/accounts';
import { grantableRoles, type KitSizesBody, type UpdateUserBody } from '@rally/shared/contracts/users';
import { and, eq } from 'drizzle-orm';
import type { Db, Tx } from '../../db/client';
import { entries } from '../../db/schema/entries';
import { users } from '../../db/schema/users';
import type { AuthContext } from '../../lib/authorize';
import { inEdition } from '../../lib/edition-of';
import { BadRequestError, ConflictError, ForbiddenError } from '../../lib/errors';
import type { FileStore } from '../../lib/file-store';
import { ownEntry } from '../../lib/riders';
import { displayName, onlyRow } from '../../lib/sql-text';
import { recordActivity } from '../activities/activities.service';
import { revokeUserSessions } from '../auth/auth.service';
import { userStorageKeys } from '../uploads/uploads.service';
import { forgetContactData } from './forget-contact';
import { getAdminUser, loadTarget, userNotFound, visibleTo } from './users.queries';

const actorOf = (viewer: AuthContext) => ({ actorId: viewer.userId, actorName: displayName(viewer) });

/** The editable fields, in the order the activity names them. */
const FIELD_COLUMNS = {
  first_name: 'firstName',
  last_name: 'lastName',
  kit_name: 'kitName',
  phone_number: 'phoneNumber',
  address: 'address',
  birthdate: 'birthdate',
  motorcycle_model: 'motorcycleModel',
  category: 'category',
  club_name: 'clubName',
  emergency_contact_name: 'emergencyContactName',
  emergency_contact_number: 'emergencyContactNumber',
} as const satisfies Record<keyof UpdateUserBody, keyof typeof users.$inferInsert | keyof typeof entries.$inferInsert>;

/** The fields that are the entry's (current edition, DESIGN.md §9); the others are the person's (`users`). */
const ENTRY_FIELDS: ReadonlySet<keyof UpdateUserBody> = new Set(['category']);

/** A category or sizes for an account with no entry in the current edition: nothing to change (the transaction rolls back). */
const notEntered = () =>
  new ConflictError('This rider has not entered the current edition: there is no entry to change', 'NOT_ENTERED');

/** SQL: the user's entry in the current edition, for writes to it. */
const currentEntryOf = (userId: string) => and(eq(entries.userId, userId), inEdition(entries.editionId));

export async function updateUser(db: Db, viewer: AuthContext, userId: string, body: UpdateUserBody) {
  await db.transaction(async (tx) => {
    const target = await loadTarget(tx, viewer.role, userId);
    const now = new Date();
    const set: Partial<typeof users.$inferInsert> = { updatedAt: now };
    const entrySet: Partial<typeof entries.$inferInsert> = {};
    const changed: string[] = [];
    for (const [field, column] of Object.entries(FIELD_COLUMNS) as [keyof UpdateUserBody, string][]) {
      const value = body[field];
      if (value === undefined) continue;
      (ENTRY_FIELDS.has(field) ? (entrySet as Record<string, unknown>) : (set as Record<string, unknown>))[column] =
        value;
      changed.push(field);
    }
    if (Object.keys(entrySet).length > 0) {
      const entry = await tx
        .update(entries)
        .set({ ...entrySet, updatedAt: now })
        .where(currentEntryOf(userId))
        .returning({ id: entries.id });
      if (entry.length === 0) throw notEntered();
    }
    const updated = await tx
      .update(users)
      .set(set)
      .where(and(eq(users.id, userId), visibleTo(viewer.role)))
      .returning({ id: users.id, firstName: users.firstName, lastName: users.lastName });
    const [row] = updated;
    if (!row) throw userNotFound();
    await recordActivity(tx, {
      type: 'user_update',
      userId,
      userName: displayName(row),
      ...actorOf(viewer),
      description: `${displayName(viewer)} updated the details of ${displayName(target)}`,
      details: `Changed: ${changed.join(', ')}`,
      metadata: { fields: changed },
    });
  });
  return getAdminUser(db, viewer.role, userId);
}

export async function setUserStatus(db: Db, viewer: AuthContext, userId: string, status: 'active' | 'inactive') {
  if (userId === viewer.userId) throw new BadRequestError('You cannot change your own status', 'SELF_STATUS');
  await db.transaction(async (tx) => {
    const target = await loadTarget(tx, viewer.role, userId);
    const updated = await tx
      .update(users)
      .set({ status, updatedAt: new Date() })
      .where(and(eq(users.id, userId), visibleTo(viewer.role)))
      .returning({ id: users.id });
    if (updated.length === 0) throw userNotFound();
    // A deactivated rider is signed out everywhere at once, not when a token expires.
    if (status === 'inactive') await revokeUserSessions(tx, userId);
    if (target.status !== status) {
      await recordActivity(tx, {
        type: 'status_change',
        userId,
        userName: displayName(target),
        ...actorOf(viewer),
        description: `${displayName(viewer)} ${status === 'active' ? 'activated' : 'deactivated'} ${displayName(target)}`,
        details: `Status: ${target.status} → ${status}`,
      });
    }
  });
  return getAdminUser(db, viewer.role, userId);
}

export async function setUserRole(db: Db, viewer: AuthContext, userId: string, role: Role) {
  if (userId === viewer.userId) throw new BadRequestError('You cannot change your own role', 'SELF_ROLE');
  await db.transaction(async (tx) => {
    const target = await loadTarget(tx, viewer.role, userId);
    if (!grantableRoles(viewer.role).includes(role)) {
      throw new ForbiddenError(`Your role cannot grant the ${role} role`, 'ROLE_NOT_GRANTABLE');
    }
    if (target.role === role) return;
    const updated = await tx
      .update(users)
      .set({ role, updatedAt: new Date() })
      .where(and(eq(users.id, userId), visibleTo(viewer.role)))
      .returning({ id: users.id });
    if (updated.length === 0) throw userNotFound();
    await recordActivity(tx, {
      type: 'role_change',
      userId,
      userName: displayName(target),
      ...actorOf(viewer),
      description: `${displayName(viewer)} changed the role of ${displayName(target)} to ${role}`,
      details: `Role: ${target.role} → ${role}`,
    });
  });
  // A developer who made someone a developer still sees them; an admin never grants a
  // role it cannot see, so this read always succeeds.
  return getAdminUser(db, viewer.role, userId);
}

const SIZE_PAIRS = [
  ['tshirtSize', 'customTshirtSize'],
  ['finisherSleeveSize', 'customFinisherSleeveSize'],
  ['vestSize', 'customVestSize'],
] as const;

export async function setKitSizes(db: Db, viewer: AuthContext, userId: string, body: KitSizesBody) {
  await db.transaction(async (tx) => {
    const target = await loadTarget(tx, viewer.role, userId);
    const current = onlyRow(
      await tx
        .select({
          tshirtSize: entries.tshirtSize,
          finisherSleeveSize: entries.finisherSleeveSize,
          vestSize: entries.vestSize,
        })
        .from(users)
        .leftJoin(entries, ownEntry)
        .where(eq(users.id, userId)),
    );
    const now = new Date();
    // The sizes are the entry's (current edition); the account's updatedAt is bumped as before.
    const set: Partial<typeof entries.$inferInsert> = { updatedAt: now };
    const changed: string[] = [];
    for (const [sizeKey, customKey] of SIZE_PAIRS) {
      const size = body[sizeKey];
      const custom = body[customKey];
      const effective = size === undefined ? current[sizeKey] : size;
      if (custom !== undefined && custom !== null && effective !== 'CUSTOM') {
        throw new BadRequestError(`${customKey} applies only when ${sizeKey} is CUSTOM`, 'VALIDATION');
      }
      if (effective === 'CUSTOM' && size !== undefined && !custom) {
        throw new BadRequestError(`${customKey} is required when ${sizeKey} is CUSTOM`, 'VALIDATION');
      }
      if (size !== undefined) {
        set[sizeKey] = size;
        changed.push(`${sizeKey}: ${size ?? 'not set'}`);
        // A standard size leaves no stale custom text behind.
        if (size !== 'CUSTOM') set[customKey] = null;
      }
      if (custom !== undefined && effective === 'CUSTOM') {
        set[customKey] = custom;
        changed.push(`${customKey}: ${custom ?? 'not set'}`);
      }
    }
    await tx
      .update(users)
      .set({ updatedAt: now })
      .where(and(eq(users.id, userId), visibleTo(viewer.role)));
    const entry = await tx.update(entries).set(set).where(currentEntryOf(userId)).returning({ id: entries.id });
    if (entry.length === 0) throw notEntered();
    await recordActivity(tx, {
      type: 'user_update',
      userId,
      userName: displayName(target),
      ...actorOf(viewer),
      description: `${displayName(viewer)} updated the kit sizes of ${displayName(target)}`,
      details: changed.join(', '),
      metadata: { kitSizes: true },
    });
  });
  return getAdminUser(db, viewer.role, userId);
}

/**
 * Removes the account; foreign keys cascade to its sessions, files, fires, comments, kit
 * and print records, and set log references to null (logs keep a name snapshot). The
 * rider number is freed with the row.
 */
export async function deleteUser(db: Db, viewer: AuthContext, userId: string, store: FileStore) {
  // The rows of the files go with the account (cascade); their objects, if any, once it has.
  const objects = await db.transaction((tx) => deleteUserIn(tx, viewer, userId));
  await store.remove(objects);
}

/**
 * The deletion inside the caller's transaction (an approved erasure request is decided in the
 * same one). Answers the stored objects to remove once the transaction has committed.
 */
export async function deleteUserIn(tx: Tx, viewer: AuthContext, userId: string): Promise<string[]> {
  if (userId === viewer.userId) throw new BadRequestError('You cannot delete your own account', 'SELF_DELETE');
  const target = await loadTarget(tx, viewer.role, userId);
  const objects = await userStorageKeys(tx, userId);
  const forget = await forgetContactData(tx, userId);
  const deleted = await tx
    .delete(users)
    .where(and(eq(users.id, userId), visibleTo(viewer.role)))
    .returning({ id: users.id });
  if (deleted.length === 0) throw userNotFound();
  await forget();
  await recordActivity(tx, {
    type: 'user_deleted',
    userId: null,
    userName: displayName(target),
    ...actorOf(viewer),
    // The name and rider number stay (who did what); the email goes with the account.
    description: `${displayName(viewer)} deleted the account of ${displayName(target)}`,
    details: target.riderNumber ? `Rider #${target.riderNumber} is free again` : null,
    metadata: { deletedUserId: target.id, role: target.role },
  });
  return objects;
}
