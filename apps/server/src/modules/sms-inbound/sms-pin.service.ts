// A staff member's SMS PIN (DESIGN.md §10): what makes a text of scans theirs, since the
// sender's number can be forged. Set by its holder, stored hashed as passwords are (Argon2id),
// checked against the holders of the texting number, and never shown again.
import type { SmsPinRequest } from '@rally/shared/contracts/messages';
import type { Db } from '../../db/client';
import { smsPins } from '../../db/schema/messages';
import { hashPassword, verifyPassword } from '../../lib/passwords';

/** PUT /api/my/sms-pin: the caller's PIN, replacing any earlier one. */
export async function setSmsPin(db: Db, userId: string, body: SmsPinRequest): Promise<void> {
  const pinHash = await hashPassword(body.pin);
  await db
    .insert(smsPins)
    .values({ userId, pinHash })
    .onConflictDoUpdate({ target: smsPins.userId, set: { pinHash, updatedAt: new Date() } });
}

/**
 * The first of `holders` (accounts of the texting number, in order) whose PIN `pin` is, or
 * null. A holder without a PIN matches nothing.
 */
export async function holderOfPin<T extends { pinHash: string | null }>(holders: T[], pin: string): Promise<T | null> {
  for (const holder of holders) {
    if (holder.pinHash && (await verifyPassword(holder.pinHash, pin))) return holder;
  }
  return null;
}
