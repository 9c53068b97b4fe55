// An account's browser stored as POST /api/my/push-subscriptions stores it, for tests whose
// endpoints are no push service the server may post to: tied to the actor's sign-in (the
// session of its token), without which the device gets nothing meant for the account.
import { randomUUID } from 'node:crypto';
import { eq } from 'drizzle-orm';
import type { DbOrTx } from '../db/client';
import { pushSubscriptions } from '../db/schema/messages';
import { sessions } from '../db/schema/sessions';
import { sha256Hex } from '../lib/tokens';
import type { Actor } from './factories';

/** The session an actor's token names. */
export async function sessionOf(db: DbOrTx, actor: Actor): Promise<string> {
  const [row] = await db
    .select({ id: sessions.id })
    .from(sessions)
    .where(eq(sessions.tokenHash, sha256Hex(actor.token)));
  if (!row) throw new Error(`no session for ${actor.email}`);
  return row.id;
}

/** Adds a browser to the actor's push devices, signed in; answers the subscription's id. */
export async function addPushDevice(db: DbOrTx, actor: Actor): Promise<string> {
  const [row] = await db
    .insert(pushSubscriptions)
    .values({
      userId: actor.userId,
      sessionId: await sessionOf(db, actor),
      endpoint: `https://push.example.com/${randomUUID()}`,
      p256dh: 'k',
      auth: 'a',
    })
    .returning({ id: pushSubscriptions.id });
  return row?.id as string;
}
