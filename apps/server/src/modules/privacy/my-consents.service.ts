// A rider's own consents (My Profile and the sign-in re-ask): reading them, accepting the
// notice, giving or withdrawing a purpose. Apart from consents.service.ts, which the tracker
// records through: tracking is given and withdrawn through the tracker itself.
import type { ConsentPurpose } from '@rally/shared/catalog/privacy';
import { CONSENT_PURPOSES } from '@rally/shared/catalog/privacy';
import { TRACKING_CONSENT_VERSION } from '@rally/shared/catalog/tracking';
import type { MyConsents } from '@rally/shared/contracts/privacy';
import { and, desc, eq, inArray, type SQL, sql } from 'drizzle-orm';
import type { Db, DbOrTx } from '../../db/client';
import { followers, outboxMessages } from '../../db/schema/messages';
import { consents } from '../../db/schema/privacy';
import type { AuthContext } from '../../lib/authorize';
import { ConflictError, ForbiddenError } from '../../lib/errors';
import { setMyTracking } from '../tracking/trackers.service';
import { assertCurrentNotice, consentInEffectSql, recordConsent } from './consents.service';
import { currentNotice } from './notice.service';
import { presentMyConsents } from './privacy.presenter';

/** What a follower's message queued before the rider withdrew says of itself. */
export const WITHDRAWN_ANSWER = 'Not sent: the rider withdrew the followers consent';

async function historyOf(db: DbOrTx, userId: string) {
  return db.select().from(consents).where(eq(consents.userId, userId)).orderBy(desc(consents.at), desc(consents.id));
}

/** GET /api/my/consents. */
export async function myConsents(db: DbOrTx, userId: string): Promise<MyConsents> {
  const notice = await currentNotice(db);
  const [history, [effect]] = await Promise.all([
    historyOf(db, userId),
    db
      .select(
        Object.fromEntries(CONSENT_PURPOSES.map((p) => [p, consentInEffectSql(sql`${userId}::uuid`, p)])) as Record<
          ConsentPurpose,
          SQL<boolean>
        >,
      )
      .from(sql`(select 1) as one`),
  ]);
  return presentMyConsents(notice.version, history, effect as Record<ConsentPurpose, boolean>);
}

/** PUT /api/my/consents/notice: the sign-in re-ask. Accepting the version accepted last adds nothing. */
export async function acceptNotice(db: Db, userId: string, version: number): Promise<MyConsents> {
  await db.transaction(async (tx) => {
    const current = await assertCurrentNotice(tx, version);
    const [last] = await tx
      .select({ version: consents.version })
      .from(consents)
      .where(and(eq(consents.userId, userId), eq(consents.purpose, 'notice'), eq(consents.given, true)))
      .orderBy(desc(consents.at))
      .limit(1);
    if (last?.version !== String(current))
      await recordConsent(tx, { userId, purpose: 'notice', given: true, version: String(current), screen: 'sign-in' });
  });
  return myConsents(db, userId);
}

/**
 * PUT /api/my/consents/{purpose}: gives or withdraws, effective at once. Tracking goes through
 * the tracker itself (PUT /api/my/tracking's function), which records the row; the others
 * record a row unless the rider's last choice is the same already.
 */
export async function setConsent(
  db: Db,
  auth: AuthContext,
  purpose: ConsentPurpose,
  body: { given: boolean; version?: string | undefined },
  now: Date,
): Promise<MyConsents> {
  if (purpose === 'tracking') {
    if (body.given && auth.verificationStatus !== 'verified')
      throw new ForbiddenError('Live tracking is for riders whose entry is verified', 'NOT_VERIFIED');
    if (body.given && body.version !== TRACKING_CONSENT_VERSION)
      throw new ConflictError(
        `Read the tracking consent again: it changed. Turning tracking on needs version "${TRACKING_CONSENT_VERSION}".`,
        'CONSENT_REQUIRED',
      );
    await setMyTracking(db, auth, { enabled: body.given, consentVersion: body.version }, now, 'my-profile');
    return myConsents(db, auth.userId);
  }
  await db.transaction(async (tx) => {
    const [last] = await tx
      .select({ given: consents.given })
      .from(consents)
      .where(and(eq(consents.userId, auth.userId), eq(consents.purpose, purpose)))
      .orderBy(desc(consents.at))
      .limit(1);
    if (last?.given === body.given) return;
    await recordConsent(tx, {
      userId: auth.userId,
      purpose,
      given: body.given,
      version: body.given ? (body.version ?? null) : null,
      screen: 'my-profile',
    });
    // "Nothing more" includes what was queued and not sent yet: it stays, marked unsent.
    if (purpose === 'followers' && !body.given)
      await tx
        .update(outboxMessages)
        .set({ status: 'failed', providerAnswer: WITHDRAWN_ANSWER, lockedUntil: null })
        .where(
          and(
            eq(outboxMessages.status, 'pending'),
            inArray(
              outboxMessages.followerId,
              tx.select({ id: followers.id }).from(followers).where(eq(followers.riderId, auth.userId)),
            ),
          ),
        );
  });
  return myConsents(db, auth.userId);
}
