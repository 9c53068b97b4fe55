// SOS and incidents. A rider's SOS is keyed by the id their phone made: a
// re-sent call (the answer was lost on a weak signal) finds the first one and opens
// nothing twice. Every change is audited in the activity log and published for the live
// stream inside its transaction.
import { INCIDENT_KIND_LABELS, type IncidentKind, type IncidentStatus, type Role } from '@rally/shared/catalog';
import type { CreateIncidentRequest, Position, SosRequest } from '@rally/shared/contracts/incidents';
import { can, PERMISSIONS } from '@rally/shared/permissions';
import { and, asc, desc, eq, inArray, type SQL, sql } from 'drizzle-orm';
import { alias } from 'drizzle-orm/pg-core';
import type { Db, DbOrTx, Tx } from '../../db/client';
import { scans, stations } from '../../db/schema/event-day';
import { incidents } from '../../db/schema/incidents';
import { users } from '../../db/schema/users';
import type { Actor } from '../../lib/actor';
import type { AuthContext } from '../../lib/authorize';
import { BadRequestError, ConflictError, NotFoundError } from '../../lib/errors';
import { fullName } from '../../lib/sql-text';
import { canSee, visibleAccounts } from '../../lib/visibility';
import { recordActivity } from '../activities/activities.service';
import { countsAsPassage } from '../scans/passages';
import { findTarget } from '../users/users.queries';
import { publishIncident } from './incident-events';

const rider = alias(users, 'rider');
const reporter = alias(users, 'reporter');
const acker = alias(users, 'acker');
const assignee = alias(users, 'assignee');
const resolver = alias(users, 'resolver');

function incidentQuery(db: DbOrTx) {
  return db
    .select({
      incident: incidents,
      rider: {
        id: rider.id,
        role: rider.role,
        riderNumber: rider.riderNumber,
        kitName: rider.kitName,
        firstName: rider.firstName,
        lastName: rider.lastName,
        phoneNumber: rider.phoneNumber,
        emergencyContactName: rider.emergencyContactName,
        emergencyContactNumber: rider.emergencyContactNumber,
        bloodType: rider.bloodType,
        allergies: rider.allergies,
        medicalConditions: rider.medicalConditions,
      },
      reporter: { id: reporter.id, firstName: reporter.firstName, lastName: reporter.lastName, role: reporter.role },
      acker: { id: acker.id, firstName: acker.firstName, lastName: acker.lastName, role: acker.role },
      assignee: { id: assignee.id, firstName: assignee.firstName, lastName: assignee.lastName, role: assignee.role },
      resolver: { id: resolver.id, firstName: resolver.firstName, lastName: resolver.lastName, role: resolver.role },
    })
    .from(incidents)
    .innerJoin(rider, eq(rider.id, incidents.riderId))
    .leftJoin(reporter, eq(reporter.id, incidents.reportedBy))
    .leftJoin(acker, eq(acker.id, incidents.acknowledgedBy))
    .leftJoin(assignee, eq(assignee.id, incidents.assignedTo))
    .leftJoin(resolver, eq(resolver.id, incidents.resolvedBy));
}
export type IncidentListRow = Awaited<ReturnType<ReturnType<typeof incidentQuery>['execute']>>[number];

const incidentNotFound = () => new NotFoundError('Incident not found', 'INCIDENT_NOT_FOUND');

/** Open first, then acknowledged, assigned, resolved; newest first within each. */
const statusRank = sql`case ${incidents.status} when 'open' then 0 when 'acknowledged' then 1 when 'assigned' then 2 else 3 end`;

/** Staff list: every status unless filtered; riders the viewer may not see stay out. */
export function listIncidents(db: Db, viewerRole: Role, status?: IncidentStatus) {
  const where: Array<SQL | undefined> = [visibleAccounts(viewerRole, rider.role)];
  if (status) where.push(eq(incidents.status, status));
  return incidentQuery(db)
    .where(and(...where))
    .orderBy(asc(statusRank), desc(incidents.createdAt))
    .limit(500);
}

export async function getIncident(db: DbOrTx, id: string, viewerRole: Role) {
  const [row] = await incidentQuery(db).where(eq(incidents.id, id)).limit(1);
  if (!row || !canSee(viewerRole, row.rider.role)) throw incidentNotFound();
  return row;
}

/** A rider's own incidents, newest first. */
export function myIncidents(db: Db, riderId: string) {
  return incidentQuery(db).where(eq(incidents.riderId, riderId)).orderBy(desc(incidents.createdAt)).limit(50);
}

/** The rider's latest passage: where a search for them starts. */
async function lastPassage(db: DbOrTx, riderId: string) {
  const [row] = await db
    .select({ id: stations.id, name: stations.name, scannedAt: scans.scannedAt })
    .from(scans)
    .innerJoin(stations, eq(stations.id, scans.stationId))
    .where(and(eq(scans.riderId, riderId), countsAsPassage))
    .orderBy(desc(scans.scannedAt))
    .limit(1);
  return row ?? null;
}

const coordinates = (p: Position) => `${p.lat.toFixed(5)}, ${p.lng.toFixed(5)} (±${Math.round(p.accuracy)} m)`;

interface Subject {
  id: string;
  firstName: string;
  lastName: string;
  kitName: string | null;
  riderNumber: number | null;
}

const labelOf = (s: Subject) => s.kitName || fullName(s.firstName, s.lastName);

async function openIncident(
  tx: Tx,
  subject: Subject,
  input: { id: string; kind: IncidentKind; note?: string; position?: Position },
  by: { source: 'rider' } | { source: 'staff'; actor: Actor },
) {
  const last = await lastPassage(tx, subject.id);
  const now = new Date();
  const staff = by.source === 'staff' ? by.actor : null;
  const [row] = await tx
    .insert(incidents)
    .values({
      id: input.id,
      riderId: subject.id,
      kind: input.kind,
      note: input.note || null,
      source: by.source,
      // Staff who take the call have heard it: the incident starts acknowledged by them.
      status: staff ? 'acknowledged' : 'open',
      lat: input.position?.lat ?? null,
      lng: input.position?.lng ?? null,
      accuracy: input.position?.accuracy ?? null,
      positionAt: input.position ? new Date(input.position.at) : null,
      lastStationId: last?.id ?? null,
      lastStationName: last?.name ?? null,
      lastSeenAt: last?.scannedAt ?? null,
      reportedBy: staff?.id ?? null,
      acknowledgedBy: staff?.id ?? null,
      acknowledgedAt: staff ? now : null,
    })
    .onConflictDoNothing({ target: incidents.id })
    .returning({ id: incidents.id, status: incidents.status });
  if (!row) return null;
  const where = [last ? `last seen at ${last.name}` : null, input.position ? coordinates(input.position) : null]
    .filter(Boolean)
    .join(' · ');
  // The spec's sos_call activity: HIGH PRIORITY, with a location.
  await recordActivity(tx, {
    type: 'sos_call',
    priority: 'high',
    userId: subject.id,
    userName: fullName(subject.firstName, subject.lastName),
    actorId: staff?.id ?? subject.id,
    actorName: staff?.name ?? fullName(subject.firstName, subject.lastName),
    description: staff
      ? `${staff.name} opened an incident for ${labelOf(subject)}: ${INCIDENT_KIND_LABELS[input.kind]}`
      : `SOS from ${labelOf(subject)}: ${INCIDENT_KIND_LABELS[input.kind]}`,
    details: [input.note, where].filter(Boolean).join('. ') || null,
    location: input.position ? coordinates(input.position) : (last?.name ?? null),
    metadata: {
      incidentId: row.id,
      kind: input.kind,
      source: by.source,
      ...(input.position ? { position: input.position } : {}),
      ...(last ? { lastStationId: last.id } : {}),
    },
  });
  await publishIncident(tx, {
    incidentId: row.id,
    status: row.status,
    riderId: subject.id,
    riderNumber: subject.riderNumber,
    kitName: subject.kitName,
  });
  return row;
}

const subjectColumns = {
  id: users.id,
  firstName: users.firstName,
  lastName: users.lastName,
  kitName: users.kitName,
  riderNumber: users.riderNumber,
  role: users.role,
};

/** POST /api/my/sos: `created` false when the id was already used (a re-send). */
export async function sendSos(db: Db, auth: AuthContext, body: SosRequest) {
  return db.transaction(async (tx) => {
    const [subject] = await tx.select(subjectColumns).from(users).where(eq(users.id, auth.userId)).limit(1);
    if (!subject) throw new NotFoundError('User not found', 'USER_NOT_FOUND');
    const created = await openIncident(tx, subject, body, { source: 'rider' });
    if (created) return { incident: created, created: true };
    const [existing] = await tx
      .select({ id: incidents.id, status: incidents.status, riderId: incidents.riderId })
      .from(incidents)
      .where(eq(incidents.id, body.id))
      .limit(1);
    // Another account's id: refuse, and say nothing about it.
    if (!existing || existing.riderId !== auth.userId) {
      throw new ConflictError('This SOS id is already used; send a new one', 'SOS_ID_TAKEN');
    }
    return { incident: { id: existing.id, status: existing.status }, created: false };
  });
}

/** POST /api/admin/incidents: staff open one for a rider who phoned in. */
export async function createIncidentForRider(db: Db, viewerRole: Role, actor: Actor, body: CreateIncidentRequest) {
  const id = await db.transaction(async (tx) => {
    const [subject] = await tx
      .select(subjectColumns)
      .from(users)
      .where(body.riderId ? eq(users.id, body.riderId) : eq(users.riderNumber, body.riderNumber ?? -1))
      .limit(1);
    if (!subject || !canSee(viewerRole, subject.role)) throw new NotFoundError('Rider not found', 'RIDER_NOT_FOUND');
    const incidentId = body.id ?? crypto.randomUUID();
    const created = await openIncident(tx, subject, { ...body, id: incidentId }, { source: 'staff', actor });
    if (!created) throw new ConflictError('An incident with this id already exists', 'INCIDENT_EXISTS');
    return created.id;
  });
  return getIncident(db, id, viewerRole);
}

type Transition = 'acknowledge' | 'assign' | 'resolve';

const PAST: Record<Transition, string> = { acknowledge: 'acknowledged', assign: 'assigned', resolve: 'resolved' };

/**
 * One step of the incident's life. Acknowledging is for open incidents only (a second
 * marshal pressing it learns who was first); assigning also acknowledges an open one;
 * resolving works from any state but resolved and needs a note.
 */
export async function changeIncident(
  db: Db,
  id: string,
  viewerRole: Role,
  actor: Actor,
  change: { action: 'acknowledge' } | { action: 'assign'; userId: string } | { action: 'resolve'; note: string },
) {
  await db.transaction(async (tx) => {
    const [current] = await tx
      .select({
        incident: incidents,
        rider: {
          role: users.role,
          riderNumber: users.riderNumber,
          kitName: users.kitName,
          firstName: users.firstName,
          lastName: users.lastName,
        },
      })
      .from(incidents)
      .innerJoin(users, eq(users.id, incidents.riderId))
      .where(eq(incidents.id, id))
      .for('update', { of: incidents });
    if (!current || !canSee(viewerRole, current.rider.role)) throw incidentNotFound();
    const { incident } = current;
    if (incident.status === 'resolved') {
      throw new ConflictError('This incident is already resolved', 'INCIDENT_RESOLVED');
    }
    const now = new Date();
    const patch: Partial<typeof incidents.$inferInsert> = { updatedAt: now };
    let details: string | null = null;
    if (change.action === 'acknowledge') {
      if (incident.status !== 'open') {
        const [by] = incident.acknowledgedBy
          ? await tx
              .select({ firstName: users.firstName, lastName: users.lastName })
              .from(users)
              .where(eq(users.id, incident.acknowledgedBy))
          : [];
        throw new ConflictError(
          by
            ? `Already acknowledged by ${fullName(by.firstName, by.lastName)}`
            : 'This incident is already acknowledged',
          'INCIDENT_ACKNOWLEDGED',
        );
      }
      Object.assign(patch, { status: 'acknowledged', acknowledgedBy: actor.id, acknowledgedAt: now });
    } else if (change.action === 'assign') {
      const target = await findTarget(tx, change.userId);
      if (
        !target ||
        !canSee(viewerRole, target.role) ||
        target.status !== 'active' ||
        !can(target.role, 'handle_incidents')
      ) {
        throw new BadRequestError('userId must be an active staff member who handles incidents', 'ASSIGNEE_INVALID');
      }
      Object.assign(patch, { status: 'assigned', assignedTo: target.id, assignedAt: now });
      if (!incident.acknowledgedBy) Object.assign(patch, { acknowledgedBy: actor.id, acknowledgedAt: now });
      details = `Assigned to ${fullName(target.firstName, target.lastName)}`;
    } else {
      Object.assign(patch, { status: 'resolved', resolvedBy: actor.id, resolvedAt: now, resolutionNote: change.note });
      if (!incident.acknowledgedBy) Object.assign(patch, { acknowledgedBy: actor.id, acknowledgedAt: now });
      details = change.note;
    }
    await tx.update(incidents).set(patch).where(eq(incidents.id, id));
    const label = current.rider.kitName || fullName(current.rider.firstName, current.rider.lastName);
    await recordActivity(tx, {
      type: 'incident_updated',
      priority: 'normal',
      userId: incident.riderId,
      userName: fullName(current.rider.firstName, current.rider.lastName),
      actorId: actor.id,
      actorName: actor.name,
      description: `${actor.name} ${PAST[change.action]} the ${INCIDENT_KIND_LABELS[incident.kind].toLowerCase()} incident of ${label}`,
      details,
      metadata: { incidentId: id, status: patch.status },
    });
    await publishIncident(tx, {
      incidentId: id,
      status: patch.status as IncidentStatus,
      riderId: incident.riderId,
      riderNumber: current.rider.riderNumber,
      kitName: current.rider.kitName,
    });
  });
  return getIncident(db, id, viewerRole);
}

/** Staff an incident can go to: active holders of handle_incidents the viewer may see. */
export function listAssignees(db: Db, viewerRole: Role) {
  const roles = [...PERMISSIONS.handle_incidents];
  return db
    .select({ id: users.id, firstName: users.firstName, lastName: users.lastName, role: users.role })
    .from(users)
    .where(and(inArray(users.role, roles), eq(users.status, 'active'), visibleAccounts(viewerRole, users.role)))
    .orderBy(asc(users.firstName), asc(users.lastName))
    .limit(500);
}
