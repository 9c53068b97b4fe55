// Test data for the community and rider-kit modules: verified riders without the console
// API (which another module owns), announcements and operator-made accounts (no sizes).
// Test setup only: these write through the database handle directly.
import { randomBytes } from 'node:crypto';
import type { Role } from '@rally/shared/catalog/accounts';
import { and, eq } from 'drizzle-orm';
import type { FastifyInstance } from 'fastify';
import type { Db } from '../db/client';
import { announcements } from '../db/schema/announcements';
import { entries } from '../db/schema/entries';
import { users } from '../db/schema/users';
import { inEdition } from '../lib/edition-of';
import { newRiderCode } from '../lib/tokens';
import { type Actor, registerRider, staff } from './factories';
import { firstRow } from './present';

/** Marks a rider's payment verified and gives them a rider code, as approval would. */
export async function markVerified(db: Db, userId: string): Promise<string> {
  const code = newRiderCode();
  await db
    .update(entries)
    .set({ status: 'verified', verifiedAt: new Date(), riderCode: code })
    .where(and(eq(entries.userId, userId), inEdition(entries.editionId)));
  return code;
}

/** A registered rider (with sizes from registration) whose payment is verified. */
export async function verifiedRider(app: FastifyInstance, db: Db, overrides: Record<string, string | undefined> = {}) {
  const rider = await registerRider(app, overrides);
  const riderCode = await markVerified(db, rider.userId);
  return { ...rider, riderCode };
}

/** An operator-created participant: active and verified, with a rider code but no sizes. */
export function operatorParticipant(app: FastifyInstance, db: Db, role: Role = 'participant'): Promise<Actor> {
  return staff(app, db, role);
}

export async function deactivate(db: Db, userId: string): Promise<void> {
  await db.update(users).set({ status: 'inactive' }).where(eq(users.id, userId));
}

export async function makeAnnouncement(
  db: Db,
  values: { title?: string; content?: string; isActive?: boolean; authorId?: string | null; createdAt?: Date } = {},
) {
  const rows = await db
    .insert(announcements)
    .values({
      title: values.title ?? `Briefing ${randomBytes(3).toString('hex')}`,
      content: values.content ?? 'Riders meeting at the Davao City start line, 05:00 sharp.',
      isActive: values.isActive ?? true,
      authorId: values.authorId ?? null,
      createdAt: values.createdAt ?? new Date(),
    })
    .returning({ id: announcements.id, title: announcements.title });
  return firstRow(rows);
}
