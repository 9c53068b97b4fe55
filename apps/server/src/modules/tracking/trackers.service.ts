// A rider's tracker in the current edition (DESIGN.md §11): opting in with the consent read,
// opting out, and the secret tracking id Traccar Client sends. The id is the OsmAnd
// endpoint's only credential, so it is random (144 bits), never the rider code, and a new
// one is made whenever tracking is turned on again (the old one may have leaked).
import { randomBytes } from 'node:crypto';
import type { ConsentScreen } from '@rally/shared/catalog/privacy';
import { TRACKING_CONSENT_VERSION } from '@rally/shared/catalog/tracking';
import type { PutMyTrackingRequest } from '@rally/shared/contracts/tracking';
import { and, eq } from 'drizzle-orm';
import type { Db, DbOrTx } from '../../db/client';
import { type TrackerRow, trackers } from '../../db/schema/tracking';
import type { AuthContext } from '../../lib/authorize';
import { ConflictError } from '../../lib/errors';
import { fullName } from '../../lib/sql-text';
import { recordActivity } from '../activities/activities.service';
import { currentEdition } from '../editions/editions.service';
import { recordConsent } from '../privacy/consents.service';

/** 18 random bytes: 144 bits, 24 URL-safe characters (fits a QR code and a URL as it is). */
export function newTrackingId(): string {
  return randomBytes(18).toString('base64url');
}

/** The caller's tracker in the current edition, or null before they ever opted in. */
export async function myTracker(db: DbOrTx, userId: string): Promise<TrackerRow | null> {
  const edition = await currentEdition(db);
  const [row] = await db
    .select()
    .from(trackers)
    .where(and(eq(trackers.editionId, edition.id), eq(trackers.userId, userId)))
    .limit(1);
  return row ?? null;
}

const consentRequired = () =>
  new ConflictError(
    `Read the tracking consent again: it changed. Turning tracking on needs consentVersion "${TRACKING_CONSENT_VERSION}".`,
    'CONSENT_REQUIRED',
  );

/**
 * Turns the caller's tracking on (consent stored; a new tracking id unless it is on already)
 * or off (the id stops working at once). Saying what already holds changes nothing.
 */
export async function setMyTracking(
  db: Db,
  auth: AuthContext,
  body: PutMyTrackingRequest,
  now: Date,
  // Where the rider turned it on or off: the tracking card, or My Profile's consents.
  screen: ConsentScreen = 'tracking',
): Promise<TrackerRow> {
  if (body.enabled && body.consentVersion !== TRACKING_CONSENT_VERSION) throw consentRequired();
  return db.transaction(async (tx) => {
    const edition = await currentEdition(tx);
    const [existing] = await tx
      .select()
      .from(trackers)
      .where(and(eq(trackers.editionId, edition.id), eq(trackers.userId, auth.userId)))
      .for('update');
    let row: TrackerRow | undefined;
    if (body.enabled) {
      if (existing?.enabled) return existing;
      const values = {
        trackingId: newTrackingId(),
        enabled: true,
        consentVersion: TRACKING_CONSENT_VERSION,
        consentedAt: now,
        withdrawnAt: null,
        updatedAt: now,
      };
      [row] = existing
        ? await tx
            .update(trackers)
            .set(values)
            .where(and(eq(trackers.editionId, edition.id), eq(trackers.userId, auth.userId)))
            .returning()
        : await tx
            .insert(trackers)
            .values({ editionId: edition.id, userId: auth.userId, ...values })
            // Two first "on"s at once (a double tap): the second finds the first's tracker.
            .onConflictDoNothing({ target: [trackers.editionId, trackers.userId] })
            .returning();
      if (!row && !existing) {
        const [first] = await tx
          .select()
          .from(trackers)
          .where(and(eq(trackers.editionId, edition.id), eq(trackers.userId, auth.userId)));
        if (first) return first;
      }
    } else {
      if (!existing?.enabled) return existing ?? disabledPlaceholder(edition.id, auth.userId, now);
      [row] = await tx
        .update(trackers)
        .set({ enabled: false, withdrawnAt: now, updatedAt: now })
        .where(and(eq(trackers.editionId, edition.id), eq(trackers.userId, auth.userId)))
        .returning();
    }
    if (!row) throw new Error('tracker write returned no row');
    const name = fullName(auth.firstName, auth.lastName);
    await recordActivity(tx, {
      type: 'tracking_consent',
      priority: 'low',
      userId: auth.userId,
      userName: name,
      actorId: auth.userId,
      actorName: name,
      description: body.enabled
        ? `${name} turned live tracking on (consent ${TRACKING_CONSENT_VERSION})`
        : `${name} turned live tracking off`,
      metadata: { editionId: edition.id, enabled: body.enabled, consentVersion: row.consentVersion },
    });
    // The consent on record (DESIGN.md §12), beside the tracker's own columns.
    await recordConsent(tx, {
      userId: auth.userId,
      purpose: 'tracking',
      given: body.enabled,
      version: body.enabled ? TRACKING_CONSENT_VERSION : null,
      screen,
    });
    return row;
  });
}

/** What a rider who never opted in reads after saying "off": nothing stored, nothing to store. */
function disabledPlaceholder(editionId: string, userId: string, now: Date): TrackerRow {
  return {
    editionId,
    userId,
    trackingId: '',
    enabled: false,
    consentVersion: null,
    consentedAt: null,
    withdrawnAt: null,
    lastLat: null,
    lastLng: null,
    lastAt: null,
    lastSpeed: null,
    lastAccuracy: null,
    lastBattery: null,
    lastCharging: null,
    lastAlongM: null,
    lastOffRouteM: null,
    movingSpeed: null,
    anchorLat: null,
    anchorLng: null,
    anchorAt: null,
    stopDismissed: false,
    offRouteStreak: 0,
    offRoute: false,
    stopIncidentId: null,
    offRouteIncidentId: null,
    createdAt: now,
    updatedAt: now,
  };
}
