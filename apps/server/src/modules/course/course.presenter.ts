import type { RiderContact, RiderCourseState } from '@rally/shared/contracts/course';
import { canReadRiderContact } from '@rally/shared/permissions';
import { inArray } from 'drizzle-orm';
import type { DbOrTx } from '../../db/client';
import { users } from '../../db/schema/users';
import type { CourseState } from './course-state';

/**
 * The contacts of these riders (phone, emergency contact), read only for a viewer allowed to
 * see them: the staff who call riders (canReadRiderContact), never officers.
 */
export async function contactsFor(
  db: DbOrTx,
  role: string,
  riderIds: readonly string[],
): Promise<Map<string, RiderContact> | null> {
  if (!canReadRiderContact(role)) return null;
  if (riderIds.length === 0) return new Map();
  const rows = await db
    .select({
      id: users.id,
      phoneNumber: users.phoneNumber,
      emergencyContactName: users.emergencyContactName,
      emergencyContactNumber: users.emergencyContactNumber,
    })
    .from(users)
    .where(inArray(users.id, [...riderIds]));
  return new Map(rows.map(({ id, ...contact }) => [id, contact]));
}

const iso = (d: Date | null) => d?.toISOString() ?? null;

export function presentCourseState(state: CourseState, contacts?: Map<string, RiderContact> | null): RiderCourseState {
  const contact = contacts?.get(state.riderId);
  return {
    riderId: state.riderId,
    riderNumber: state.riderNumber,
    kitName: state.kitName,
    firstName: state.firstName,
    lastName: state.lastName,
    category: state.category,
    route: state.route,
    day: state.day,
    state: state.state,
    lastStation: state.lastStation,
    lastSeenAt: iso(state.lastSeenAt),
    startedAt: iso(state.startedAt),
    finishedAt: iso(state.finishedAt),
    elapsedMs: state.elapsedMs,
    dnfReason: state.dnfReason,
    dnfStations: state.dnfStations,
    decision: state.decision
      ? {
          reason: state.decision.reason,
          note: state.decision.note,
          decidedAt: state.decision.decidedAt.toISOString(),
          decidedBy: state.decision.decidedByName,
        }
      : null,
    nextStation: state.nextStation,
    dueAt: iso(state.dueAt),
    overdueAt: iso(state.overdueAt),
    nextCutoffAt: iso(state.nextCutoffAt),
    overdue: state.overdue,
    overdueMs: Math.round(state.overdueMs),
    ...(contact ? { contact } : {}),
  };
}

/** Presents a list, reading contacts once for the riders in it when the viewer may see them. */
export async function presentCourseStates(db: DbOrTx, role: string, states: readonly CourseState[]) {
  const contacts = await contactsFor(
    db,
    role,
    states.map((s) => s.riderId),
  );
  return states.map((s) => presentCourseState(s, contacts));
}
