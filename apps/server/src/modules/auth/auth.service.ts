import type { Role } from '@rally/shared/catalog/accounts';
import { SESSION_TTL_MS } from '@rally/shared/catalog/accounts';
import {
  type ChangePasswordBody,
  CURRENT_PASSWORD_WRONG_MESSAGE,
  SAME_PASSWORD_MESSAGE,
} from '@rally/shared/contracts/auth';
import { and, eq, isNull, ne, sql } from 'drizzle-orm';
import type { Db, DbOrTx } from '../../db/client';
import { loginActivities } from '../../db/schema/security';
import { sessions } from '../../db/schema/sessions';
import { users } from '../../db/schema/users';
import type { ClientInfo } from '../../lib/client-address';
import { clientAddressKey } from '../../lib/client-address';
import { assertUncommonPassword } from '../../lib/common-passwords';
import { BadRequestError, ForbiddenError, TooManyRequestsError, UnauthorizedError } from '../../lib/errors';
import {
  type LoginReservation,
  type LoginThrottleLimits,
  reserveLoginAttempt,
  settleLoginAttempt,
} from '../../lib/login-throttle';
import { dummyPasswordHash, hashPassword, verifyPassword } from '../../lib/passwords';
import { displayName } from '../../lib/sql-text';
import { newToken, sha256Hex } from '../../lib/tokens';
import { recordActivity } from '../activities/activities.service';
import { forgetSessionDevices, moveSessionDevices } from '../messages/push.service';

/**
 * Absolute lifetime of a sign-in: refreshes renew a session for SESSION_TTL_MS at a time
 * but never past this long after the password was typed, so a stolen token (or a
 * forgotten phone) cannot be kept alive for ever; then the rider signs in again.
 */
export const SESSION_MAX_AGE_MS = 30 * 24 * 60 * 60 * 1000;

/**
 * Issues an opaque session token; only its SHA-256 is stored. `startedAt` is the sign-in
 * it descends from (a refresh passes the old session's), which caps its expiry.
 */
export async function createSession(
  db: DbOrTx,
  userId: string,
  client: ClientInfo,
  startedAt: Date = new Date(),
): Promise<string> {
  return (await insertSession(db, userId, client, startedAt)).token;
}

async function insertSession(db: DbOrTx, userId: string, client: ClientInfo, startedAt: Date) {
  const token = newToken();
  const expiresAt = Math.min(Date.now() + SESSION_TTL_MS, startedAt.getTime() + SESSION_MAX_AGE_MS);
  const [row] = await db
    .insert(sessions)
    .values({
      userId,
      tokenHash: sha256Hex(token),
      ip: client.ip,
      userAgent: client.userAgent?.slice(0, 500) ?? null,
      startedAt,
      expiresAt: new Date(expiresAt),
    })
    .returning({ id: sessions.id });
  if (!row) throw new Error('The session insert answered no row');
  return { token, id: row.id };
}

/**
 * Signs the session out: revoked, and the push subscriptions its browser registered removed in
 * the same transaction, so a shared tablet hears no SOS and a phone no code after sign-out.
 */
export async function revokeSession(db: Db, sessionId: string): Promise<void> {
  await db.transaction(async (tx) => {
    await tx.update(sessions).set({ revokedAt: new Date() }).where(eq(sessions.id, sessionId));
    await forgetSessionDevices(tx, sessionId);
  });
}

/** Ends every session of a user at once (deactivation, deletion, password reset). */
export async function revokeUserSessions(db: DbOrTx, userId: string): Promise<void> {
  await db
    .update(sessions)
    .set({ revokedAt: new Date() })
    .where(and(eq(sessions.userId, userId), isNull(sessions.revokedAt)));
}

function minutes(ms: number): string {
  const m = Math.ceil(ms / 60_000);
  return m === 1 ? '1 minute' : `${m} minutes`;
}

export async function login(
  db: Db,
  input: { email: string; password: string },
  client: ClientInfo,
  throttle: LoginThrottleLimits,
): Promise<{ userId: string; token: string; role: Role }> {
  const email = input.email.trim().toLowerCase();
  const addressKey = clientAddressKey(client.ip);
  const record = (userId: string | null, success: boolean, failureReason: string | null) =>
    db.insert(loginActivities).values({
      userId,
      email: email.slice(0, 254),
      success,
      failureReason,
      ip: client.ip,
      userAgent: client.userAgent?.slice(0, 500) ?? null,
    });

  // Only a judged attempt counts; a refused one changes nothing (lib/login-throttle.ts).
  let reservation: LoginReservation | null = null;
  if (throttle.enabled) {
    const decision = await reserveLoginAttempt(db, throttle, email, addressKey);
    if (!decision.allowed) {
      await record(null, false, 'rate_limited');
      throw new TooManyRequestsError(
        `Too many failed login attempts. Please try again in ${minutes(decision.retryAfterMs)}.`,
        'LOGIN_THROTTLED',
      );
    }
    reservation = decision.reservation;
  }

  const [user] = await db
    .select({ id: users.id, passwordHash: users.passwordHash, status: users.status, role: users.role })
    .from(users)
    .where(eq(sql`lower(${users.email})`, email))
    .limit(1);
  const ok = await verifyPassword(user?.passwordHash ?? (await dummyPasswordHash()), input.password);
  if (reservation) await settleLoginAttempt(db, reservation, !user || !ok);
  if (!user || !ok) {
    await record(user?.id ?? null, false, user ? 'wrong_password' : 'unknown_email');
    throw new UnauthorizedError('Invalid email or password', 'INVALID_CREDENTIALS');
  }
  if (user.status !== 'active') {
    await record(user.id, false, 'inactive');
    throw new ForbiddenError('Your account has been deactivated. Please contact the organizers.', 'ACCOUNT_INACTIVE');
  }
  const token = await db.transaction(async (tx) => {
    const t = await createSession(tx, user.id, client);
    await tx.update(users).set({ lastLogin: new Date() }).where(eq(users.id, user.id));
    await tx.insert(loginActivities).values({
      userId: user.id,
      email,
      success: true,
      failureReason: null,
      ip: client.ip,
      userAgent: client.userAgent?.slice(0, 500) ?? null,
    });
    return t;
  });
  return { userId: user.id, token, role: user.role };
}

/** Swaps the current token for a fresh one of the same sign-in (same absolute end). */
export async function refresh(db: Db, sessionId: string, userId: string, client: ClientInfo): Promise<string> {
  return db.transaction(async (tx) => {
    const [current] = await tx
      .update(sessions)
      .set({ revokedAt: new Date() })
      .where(and(eq(sessions.id, sessionId), isNull(sessions.revokedAt)))
      .returning({ startedAt: sessions.startedAt });
    // Refreshed twice at once: the other call already swapped it.
    if (!current) throw new UnauthorizedError('Invalid or expired session. Please log in again.', 'INVALID_SESSION');
    const next = await insertSession(tx, userId, client, current.startedAt);
    // The same sign-in on the same browser: its push subscriptions stay live with it.
    await moveSessionDevices(tx, sessionId, next.id);
    return next.token;
  });
}

/**
 * Changes the signed-in user's password after checking the current one, and ends every
 * other session of theirs (a thief's included); the session that asked stays signed in.
 * A wrong current password is a 400, not a 401: the caller is signed in, and a 401 would
 * sign them out.
 */
export async function changePassword(
  db: Db,
  actor: { userId: string; sessionId: string; firstName: string; lastName: string },
  body: ChangePasswordBody,
): Promise<void> {
  const [user] = await db
    .select({ passwordHash: users.passwordHash })
    .from(users)
    .where(eq(users.id, actor.userId))
    .limit(1);
  if (!user || !(await verifyPassword(user.passwordHash, body.currentPassword))) {
    throw new BadRequestError(CURRENT_PASSWORD_WRONG_MESSAGE, 'WRONG_CURRENT_PASSWORD');
  }
  if (body.currentPassword === body.newPassword) throw new BadRequestError(SAME_PASSWORD_MESSAGE, 'SAME_PASSWORD');
  assertUncommonPassword(body.newPassword);
  const passwordHash = await hashPassword(body.newPassword);
  await db.transaction(async (tx) => {
    await tx.update(users).set({ passwordHash, updatedAt: new Date() }).where(eq(users.id, actor.userId));
    await tx
      .update(sessions)
      .set({ revokedAt: new Date() })
      .where(and(eq(sessions.userId, actor.userId), ne(sessions.id, actor.sessionId), isNull(sessions.revokedAt)));
    await recordActivity(tx, {
      type: 'user_update',
      userId: actor.userId,
      userName: displayName(actor),
      actorId: actor.userId,
      actorName: displayName(actor),
      description: `${displayName(actor)} changed their password`,
      details: 'Other sessions were signed out',
    });
  });
}
