// Staff decisions on a rider's event day: DNF (withdrew, missed a cutoff or a required
// station, or simply set by staff) and DNS, each with a note, or clear to hand the state
// back to the scans. Kept as a history (the latest is in force), audited, pushed.
import { DNF_REASON_LABELS } from '@rally/shared/catalog/event-day';
import type { CourseDecisionRequest } from '@rally/shared/contracts/course';
import { and, desc, eq } from 'drizzle-orm';
import type { Db, DbOrTx } from '../../db/client';
import { courseDecisions } from '../../db/schema/course';
import { entries } from '../../db/schema/entries';
import { users } from '../../db/schema/users';
import type { Actor } from '../../lib/actor';
import { type EditionRead, inEdition } from '../../lib/edition-of';
import { ConflictError, NotFoundError } from '../../lib/errors';
import { publishEvent } from '../../lib/event-bus';
import { entryIn, isVerifiedRider, namedRiderColumns } from '../../lib/riders';
import { displayName } from '../../lib/sql-text';
import { recordActivity } from '../activities/activities.service';
import { type Messenger, SILENT_MESSENGER } from '../messages/messenger';
import { notifyFollowers, notifyUser } from '../messages/notify';
import { completeDay, courseEventData } from './completion';
import { courseSnapshot, currentDay } from './course.service';
import type { CourseState } from './course-state';

export const riderNotFound = () => new NotFoundError('Rider not found', 'RIDER_NOT_FOUND');

/** A verified rider of `edition` (default: the current one) by id (the board's riders), or 404. */
export async function courseRider(db: DbOrTx, id: string, edition?: EditionRead) {
  const [row] = await db
    .select(namedRiderColumns)
    .from(users)
    .innerJoin(entries, entryIn(edition))
    .where(and(eq(users.id, id), isVerifiedRider, eq(users.status, 'active')));
  if (!row) throw riderNotFound();
  return row;
}

/** One rider's state on a day of `edition` (default: the current one), or 404 when they are not a verified, active rider. */
export async function riderCourseState(
  db: DbOrTx,
  id: string,
  now: Date,
  day?: number,
  edition?: EditionRead,
): Promise<CourseState> {
  const { states } = await courseSnapshot(db, { now, day, riderIds: [id], edition });
  const state = states[0];
  if (!state) throw riderNotFound();
  return state;
}

export async function decideCourse(
  db: Db,
  riderId: string,
  body: CourseDecisionRequest,
  actor: Actor,
  now: Date,
  messenger: Messenger = SILENT_MESSENGER,
): Promise<CourseState> {
  const rider = await courseRider(db, riderId);
  const day = body.day ?? (await currentDay(db));
  const reason =
    body.decision === 'dnf' ? (body.reason ?? 'staff') : body.decision === 'dns' ? (body.reason ?? null) : null;
  return db.transaction(async (tx) => {
    // One decision at a time per rider: the history stays in the order it was made.
    await tx.select({ id: users.id }).from(users).where(eq(users.id, riderId)).for('no key update');
    const [latest] = await tx
      .select({ decision: courseDecisions.decision })
      .from(courseDecisions)
      .where(
        and(inEdition(courseDecisions.editionId), eq(courseDecisions.riderId, riderId), eq(courseDecisions.day, day)),
      )
      .orderBy(desc(courseDecisions.recordedAt), desc(courseDecisions.id))
      .limit(1);
    if (body.decision === 'clear' && (!latest || latest.decision === 'clear')) {
      throw new ConflictError(`${displayName(rider)} has no DNF or DNS on day ${day} to clear`, 'NOTHING_TO_CLEAR');
    }
    await tx.insert(courseDecisions).values({
      riderId,
      day,
      decision: body.decision,
      reason,
      note: body.note,
      decidedBy: actor.id,
      decidedByName: actor.name,
      decidedAt: now,
    });
    const name = displayName(rider);
    const number = rider.riderNumber ? ` (#${rider.riderNumber})` : '';
    const what =
      body.decision === 'clear'
        ? `cleared the DNF/DNS of ${name}${number} on day ${day}`
        : `marked ${name}${number} ${body.decision.toUpperCase()} on day ${day}${reason ? ` (${DNF_REASON_LABELS[reason]})` : ''}`;
    await recordActivity(tx, {
      type: 'course_decision',
      userId: riderId,
      userName: name,
      actorId: actor.id,
      actorName: actor.name,
      description: `${actor.name} ${what}`,
      details: body.note,
      metadata: { day, decision: body.decision, reason },
    });
    // Cleared, the scans speak again: a rider who had reached the finish is a finisher now.
    if (body.decision === 'clear') await completeDay(tx, day, [riderId], now);
    const state = (await courseSnapshot(tx, { now, day, riderIds: [riderId] })).states[0];
    if (!state) throw riderNotFound();
    await publishEvent(tx, 'course', courseEventData(state, body.decision));
    if (body.decision === 'dnf') {
      // The rider hears it from the officials; followers only that the rider is out.
      await notifyUser(tx, messenger, riderId, 'dnf_decided', {
        firstName: rider.firstName,
        reason: reason ? DNF_REASON_LABELS[reason] : null,
      });
      const follower = { riderId, riderNumber: rider.riderNumber, kitName: rider.kitName, riderName: name };
      await notifyFollowers(tx, messenger, [riderId], 'follower_out', new Map([[riderId, follower]]));
    }
    return state;
  });
}
