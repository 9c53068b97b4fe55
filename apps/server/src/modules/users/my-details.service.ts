// The rider's own edit of their contact, emergency contact and medical notes. It is
// audited like the staff edits of the same columns, with the rider as the actor.

import type { UserRecord } from '@rally/shared/contracts/auth';
import type { MyDetailsBody } from '@rally/shared/contracts/rider-details';
import { eq } from 'drizzle-orm';
import type { Db } from '../../db/client';
import { users } from '../../db/schema/users';
import type { AuthContext } from '../../lib/authorize';
import { displayName } from '../../lib/sql-text';
import { recordActivity } from '../activities/activities.service';
import { loadUserRecord } from '../auth/user-record.presenter';
import { userNotFound } from './users.queries';

const FIELD_COLUMNS = {
  phoneNumber: 'phoneNumber',
  address: 'address',
  emergencyContactName: 'emergencyContactName',
  emergencyContactNumber: 'emergencyContactNumber',
  bloodType: 'bloodType',
  allergies: 'allergies',
  medicalConditions: 'medicalConditions',
} as const satisfies Record<keyof MyDetailsBody, keyof typeof users.$inferInsert>;

/** Blank medical notes are stored as null, so "No known allergies" shows for them. */
const stored = (v: string | null) => (v === null || v.trim() === '' ? null : v);

export async function updateMyDetails(db: Db, auth: AuthContext, body: MyDetailsBody): Promise<UserRecord> {
  await db.transaction(async (tx) => {
    const set: Partial<typeof users.$inferInsert> = { updatedAt: new Date() };
    const changed: string[] = [];
    for (const [field, column] of Object.entries(FIELD_COLUMNS) as [keyof MyDetailsBody, string][]) {
      const value = body[field];
      if (value === undefined) continue;
      (set as Record<string, unknown>)[column] = stored(value);
      changed.push(field);
    }
    const [row] = await tx
      .update(users)
      .set(set)
      .where(eq(users.id, auth.userId))
      .returning({ id: users.id, firstName: users.firstName, lastName: users.lastName });
    if (!row) throw userNotFound();
    await recordActivity(tx, {
      type: 'user_update',
      userId: row.id,
      userName: displayName(row),
      actorId: auth.userId,
      actorName: displayName(auth),
      description: `${displayName(row)} updated their own details`,
      // Which fields changed, never their values: medical notes stay out of the log.
      details: `Changed: ${changed.join(', ')}`,
      metadata: { fields: changed, self: true },
    });
  });
  return loadUserRecord(db, auth.userId);
}
