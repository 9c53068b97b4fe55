// SOS and incidents. A rider's SOS is keyed by the id their phone made: a
// re-sent call (the answer was lost on a weak signal) finds the first one and opens
// nothing twice. A rider in trouble may press again and again: while they have an
// unresolved incident a new press joins it (one incident, one alarm), and the presses of an
// account are capped per hour, so a flood from one account can neither bury another rider's
// call nor ring every console hundreds of times. Staff may mark an account's calls as abuse:
// its later calls are kept but muted. Every change is audited in the activity log and
// published for the live stream inside its transaction.
import type { Role } from '@rally/shared/catalog/accounts';
import {
  INCIDENT_KIND_LABELS,
  type IncidentKind,
  type IncidentSource,
  type IncidentStatus,
  RIDER_SOS_SOURCES,
  TRACKER_INCIDENT_KINDS,
  type TrackerIncidentKind,
} from '@rally/shared/catalog/event-day';
import {
  type CreateIncidentRequest,
  FOLLOW_UPS_SHOWN,
  INCIDENT_MESSAGES_SHOWN,
  type IncidentListQuery,
  type Position,
  RESOLVED_PAGE_SIZE,
  SOS_CALLS_PER_HOUR,
  SOS_NEW_INCIDENTS_PER_HOUR,
  type SosRequest,
} from '@rally/shared/contracts/incidents';
import { can, PERMISSIONS } from '@rally/shared/permissions';
import { and, asc, desc, eq, inArray, ne, notInArray, type SQL, sql } from 'drizzle-orm';
import { type AnyPgColumn, alias } from 'drizzle-orm/pg-core';
import type { Db, DbOrTx, Tx } from '../../db/client';
import { entries } from '../../db/schema/entries';
import { scans, stations } from '../../db/schema/event-day';
import { incidents, type SosCallRow, sosAbuseMarks, sosCalls } from '../../db/schema/incidents';
import { outboxMessages, pushSubscriptions } from '../../db/schema/messages';
import { users } from '../../db/schema/users';
import type { Actor } from '../../lib/actor';
import type { AuthContext } from '../../lib/authorize';
import { type EditionRead, editionSql, inEdition } from '../../lib/edition-of';
import { BadRequestError, ConflictError, NotFoundError, TooManyRequestsError } from '../../lib/errors';
import { namedRiderColumns, ownEntry } from '../../lib/riders';
import { fullName } from '../../lib/sql-text';
import { canSee, visibleAccounts } from '../../lib/visibility';
import { recordActivity } from '../activities/activities.service';
import { countsAsPassage } from '../course/passages';
import { cancelEscalation, scheduleEscalation } from '../messages/escalation';
import { type Messenger, SILENT_MESSENGER } from '../messages/messenger';
import { notifyOnCall, notifyUser } from '../messages/notify';
import { pushRowSubscription } from '../messages/outbox';
import { readEventSettings } from '../settings/settings.service';
import { findTarget } from '../users/users.queries';
import { publishIncident } from './incident-events';

const rider = alias(users, 'rider');
const marker = alias(users, 'marker');
/**
 * The `rider` alias's number: their entry's in the edition of `editionId` (an incident's or
 * a mark's). A sub-select, not a join: the incidents list joins enough tables already that
 * planning one more costs more than the query (lib/riders.ts `ownEntry` is for `users`).
 */
const riderNumberIn = (editionId: AnyPgColumn) =>
  sql<
    number | null
  >`(select e.rider_number from ${entries} e where e.user_id = ${rider.id} and e.edition_id = ${editionId})`;

/** A staff member an incident names (who reported, acknowledged, was assigned, resolved, marked). */
type IncidentPerson = { id: string; firstName: string; lastName: string; role: Role } | null;

/**
 * The staff member `id` names, as one value of the row: a sub-select, not a join. With each
 * of the five a join on `users`, planning the list's query took ~3 ms of its ~3.5 ms on
 * PostgreSQL (the planner weighs every order of seven tables), and more on PGlite.
 */
const personOf = (id: AnyPgColumn) =>
  sql<IncidentPerson>`(select json_build_object('id', p.id, 'firstName', p.first_name, 'lastName', p.last_name, 'role', p.role)
    from ${users} p where p.id = ${id})`;

/** The incident with its people; the abuse mark is the incident's own edition's (marks are per edition). */
function incidentQuery(db: DbOrTx) {
  return db
    .select({
      incident: incidents,
      rider: {
        id: rider.id,
        role: rider.role,
        riderNumber: riderNumberIn(incidents.editionId),
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
      reporter: personOf(incidents.reportedBy),
      acker: personOf(incidents.acknowledgedBy),
      assignee: personOf(incidents.assignedTo),
      resolver: personOf(incidents.resolvedBy),
      abuseMark: { markedAt: sosAbuseMarks.markedAt, note: sosAbuseMarks.note },
      marker: personOf(sosAbuseMarks.markedBy),
    })
    .from(incidents)
    .innerJoin(rider, eq(rider.id, incidents.riderId))
    .leftJoin(
      sosAbuseMarks,
      and(eq(sosAbuseMarks.userId, incidents.riderId), eq(sosAbuseMarks.editionId, incidents.editionId)),
    );
}
export type IncidentListRow = Awaited<ReturnType<ReturnType<typeof incidentQuery>['execute']>>[number];

/**
 * SQL: the incident is of `edition` (a staff read's past one), or of the current edition when
 * none is named: every edition's incidents share the table.
 */
const ofEdition = (edition?: EditionRead) => inEdition(incidents.editionId, edition);

const incidentNotFound = () => new NotFoundError('Incident not found', 'INCIDENT_NOT_FOUND');

/** Open first, then acknowledged, assigned, resolved. */
const statusRank = sql`case ${incidents.status} when 'open' then 0 when 'acknowledged' then 1 when 'assigned' then 2 else 3 end`;

/** The further presses of the incidents listed, newest first, FOLLOW_UPS_SHOWN of each at most. */
export async function followUpsOf(db: DbOrTx, incidentIds: string[]) {
  const byIncident = new Map<string, SosCallRow[]>();
  if (incidentIds.length === 0) return byIncident;
  const ranked = db
    .select({
      id: sosCalls.id,
      incidentId: sosCalls.incidentId,
      riderId: sosCalls.riderId,
      kind: sosCalls.kind,
      note: sosCalls.note,
      lat: sosCalls.lat,
      lng: sosCalls.lng,
      accuracy: sosCalls.accuracy,
      positionAt: sosCalls.positionAt,
      createdAt: sosCalls.createdAt,
      n: sql<number>`row_number() over (partition by ${sosCalls.incidentId} order by ${sosCalls.createdAt} desc, ${sosCalls.id} desc)`.as(
        'n',
      ),
    })
    .from(sosCalls)
    .where(inArray(sosCalls.incidentId, incidentIds))
    .as('ranked');
  const rows = await db
    .select()
    .from(ranked)
    .where(sql`${ranked.n} <= ${FOLLOW_UPS_SHOWN}`)
    .orderBy(desc(ranked.createdAt), desc(ranked.id));
  for (const { n: _, ...call } of rows) {
    const list = byIncident.get(call.incidentId) ?? [];
    list.push(call);
    byIncident.set(call.incidentId, list);
  }
  return byIncident;
}
export type FollowUps = Awaited<ReturnType<typeof followUpsOf>>;

/** The messages the listed incidents caused, newest first, INCIDENT_MESSAGES_SHOWN of each at most. */
export async function incidentMessagesOf(db: DbOrTx, incidentIds: string[]) {
  const byIncident = new Map<string, Array<IncidentMessageRow>>();
  if (incidentIds.length === 0) return byIncident;
  const ranked = db
    .select({
      id: outboxMessages.id,
      incidentId: outboxMessages.incidentId,
      channel: outboxMessages.channel,
      template: outboxMessages.template,
      address: outboxMessages.address,
      status: outboxMessages.status,
      attempts: outboxMessages.attempts,
      data: outboxMessages.data,
      createdAt: outboxMessages.createdAt,
      sentAt: outboxMessages.sentAt,
      firstName: users.firstName,
      lastName: users.lastName,
      pushEndpoint: pushSubscriptions.endpoint,
      n: sql<number>`row_number() over (partition by ${outboxMessages.incidentId} order by ${outboxMessages.createdAt} desc, ${outboxMessages.id} desc)`.as(
        'n',
      ),
    })
    .from(outboxMessages)
    .leftJoin(users, eq(users.id, outboxMessages.userId))
    // The timeline names a push's service, as the delivery log does.
    .leftJoin(pushSubscriptions, pushRowSubscription())
    .where(inArray(outboxMessages.incidentId, incidentIds))
    .as('ranked');
  const rows = await db
    .select()
    .from(ranked)
    .where(sql`${ranked.n} <= ${INCIDENT_MESSAGES_SHOWN}`)
    .orderBy(desc(ranked.createdAt), desc(ranked.id));
  for (const { n: _, ...message } of rows) {
    if (!message.incidentId) continue;
    const list = byIncident.get(message.incidentId) ?? [];
    list.push(message);
    byIncident.set(message.incidentId, list);
  }
  return byIncident;
}
export interface IncidentMessageRow {
  id: string;
  incidentId: string | null;
  channel: 'push' | 'email' | 'sms';
  template: string;
  address: string;
  status: 'pending' | 'sent' | 'failed';
  attempts: number;
  data: Record<string, unknown>;
  createdAt: Date;
  sentAt: Date | null;
  firstName: string | null;
  lastName: string | null;
  pushEndpoint: string | null;
}
export type IncidentMessages = Awaited<ReturnType<typeof incidentMessagesOf>>;

/**
 * Staff list. Unresolved incidents are never cut: all of them, open first and the longest
 * waiting first within each status (a rider has at most one unresolved incident of their
 * own SOS, so this is bounded by the accounts). Resolved ones come a page at a time, newest
 * first, before the incident `before` names. Calls of accounts marked as abuse (`muted`) are
 * listed only when asked for, so they never ring the console's alarm. `edition`: the past
 * edition a staff read names (undefined: the current one).
 */
export async function listIncidents(db: Db, viewerRole: Role, query: IncidentListQuery = {}, edition?: EditionRead) {
  const base: Array<SQL | undefined> = [
    ofEdition(edition),
    visibleAccounts(viewerRole, rider.role),
    eq(incidents.muted, query.muted === 'true'),
  ];
  const wantUnresolved = query.status !== 'resolved';
  const wantResolved = query.status === undefined || query.status === 'resolved';

  const unresolved = wantUnresolved
    ? await incidentQuery(db)
        .where(and(...base, query.status ? eq(incidents.status, query.status) : ne(incidents.status, 'resolved')))
        .orderBy(asc(statusRank), asc(incidents.createdAt), asc(incidents.id))
    : [];

  let resolved: IncidentListRow[] = [];
  let nextBefore: string | null = null;
  if (wantResolved) {
    const limit = query.limit ?? RESOLVED_PAGE_SIZE;
    const where = [...base, eq(incidents.status, 'resolved')];
    if (query.before) {
      const [cursor] = await db
        .select({ id: incidents.id })
        .from(incidents)
        .where(and(eq(incidents.id, query.before), ofEdition(edition)))
        .limit(1);
      if (!cursor) throw new BadRequestError('before must be an incident id from this list', 'BAD_CURSOR');
      // Compared in SQL: the cursor's time keeps its microseconds, which a JS Date would drop.
      where.push(
        sql`(${incidents.createdAt}, ${incidents.id}) < (select c.created_at, c.id from incidents c where c.id = ${query.before} and c.edition_id = ${editionSql(edition)})`,
      );
    }
    const page = await incidentQuery(db)
      .where(and(...where))
      .orderBy(desc(incidents.createdAt), desc(incidents.id))
      .limit(limit + 1);
    if (page.length > limit) {
      page.length = limit;
      nextBefore = page[limit - 1]?.incident.id ?? null;
    }
    resolved = page;
  }
  const rows = [...unresolved, ...resolved];
  const followUps = await followUpsOf(
    db,
    rows.filter((r) => r.incident.callCount > 1).map((r) => r.incident.id),
  );
  const messages = await incidentMessagesOf(
    db,
    rows.map((r) => r.incident.id),
  );
  return { rows, followUps, messages, nextBefore };
}

/**
 * One incident of `edition` (a staff read's past one; undefined: the current one), with its
 * further presses and messages (found by the incident's id: they carry no edition of their own).
 */
export async function getIncident(db: DbOrTx, id: string, viewerRole: Role, edition?: EditionRead) {
  const [row] = await incidentQuery(db)
    .where(and(eq(incidents.id, id), ofEdition(edition)))
    .limit(1);
  if (!row || !canSee(viewerRole, row.rider.role)) throw incidentNotFound();
  return { row, followUps: await followUpsOf(db, [id]), messages: await incidentMessagesOf(db, [id]) };
}

/** A rider's own incidents, newest first. */
export function myIncidents(db: Db, riderId: string) {
  return incidentQuery(db)
    .where(and(eq(incidents.riderId, riderId), ofEdition()))
    .orderBy(desc(incidents.createdAt))
    .limit(50);
}

/** The rider's latest passage in the current edition: where a search for them starts. */
async function lastPassage(db: DbOrTx, riderId: string) {
  const [row] = await db
    .select({ id: stations.id, name: stations.name, scannedAt: scans.scannedAt })
    .from(scans)
    .innerJoin(stations, and(eq(stations.id, scans.stationId), eq(stations.editionId, scans.editionId)))
    .where(and(eq(scans.riderId, riderId), inEdition(scans.editionId), countsAsPassage))
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

/** The rider's own SOS: the button, or a text from their registered number (DESIGN.md §10). */
type RiderSosSource = (typeof RIDER_SOS_SOURCES)[number];
const isRiderSos = (source: IncidentSource): source is RiderSosSource =>
  (RIDER_SOS_SOURCES as readonly string[]).includes(source);
/**
 * An alert the rider's tracker raised (stopped, off route): on the SOS path for staff, but no
 * press of the rider's. It counts toward no cap and no press joins it: a rider who then
 * presses SOS opens their own incident.
 */
const isTrackerAlert = (kind: IncidentKind): kind is TrackerIncidentKind =>
  (TRACKER_INCIDENT_KINDS as readonly string[]).includes(kind);
/** SQL: the incident is a press of the rider's, not a tracker's alert. */
const notTrackerAlert = () => notInArray(incidents.kind, [...TRACKER_INCIDENT_KINDS]);

const labelOf = (s: Subject) => s.kitName || fullName(s.firstName, s.lastName);

async function openIncident(
  tx: Tx,
  subject: Subject,
  input: { id: string; kind: IncidentKind; note?: string; position?: Position },
  by: { source: RiderSosSource; muted: boolean } | { source: 'staff'; actor: Actor },
  messenger: Messenger,
) {
  const last = await lastPassage(tx, subject.id);
  const now = new Date();
  const staff = by.source === 'staff' ? by.actor : null;
  const muted = by.source !== 'staff' && by.muted;
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
      muted,
    })
    .onConflictDoNothing({ target: incidents.id })
    .returning({ id: incidents.id, status: incidents.status, createdAt: incidents.createdAt });
  if (!row) return null;
  const where = [last ? `last seen at ${last.name}` : null, input.position ? coordinates(input.position) : null]
    .filter(Boolean)
    .join(' · ');
  // The spec's sos_call activity: HIGH PRIORITY, with a location (low when the account's
  // calls are marked as abuse: kept and findable, but no alarm in the feed either; its event
  // says `muted`, so boards refresh the list kept apart and nothing rings).
  await recordActivity(tx, {
    type: 'sos_call',
    priority: muted ? 'low' : 'high',
    userId: subject.id,
    userName: fullName(subject.firstName, subject.lastName),
    actorId: staff?.id ?? subject.id,
    actorName: staff?.name ?? fullName(subject.firstName, subject.lastName),
    description: staff
      ? `${staff.name} opened an incident for ${labelOf(subject)}: ${INCIDENT_KIND_LABELS[input.kind]}`
      : isTrackerAlert(input.kind)
        ? `Tracker alert for ${labelOf(subject)}: ${INCIDENT_KIND_LABELS[input.kind]}`
        : `${muted ? 'SOS (account marked as abuse)' : 'SOS'} from ${labelOf(subject)}: ${INCIDENT_KIND_LABELS[input.kind]}`,
    details: [input.note, where].filter(Boolean).join('. ') || null,
    location: input.position ? coordinates(input.position) : (last?.name ?? null),
    metadata: {
      incidentId: row.id,
      kind: input.kind,
      source: by.source,
      ...(muted ? { muted: true } : {}),
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
    ...(muted ? { muted: true as const } : {}),
  });
  // On-call staff hear of it at once; unacknowledged, it is texted to them and the hotline.
  await notifyOnCall(tx, messenger, {
    id: row.id,
    kind: input.kind,
    note: input.note || null,
    muted,
    lastStationName: last?.name ?? null,
    rider: subject,
  });
  await scheduleEscalation(tx, messenger, { id: row.id, status: row.status, muted, createdAt: row.createdAt });
  return { id: row.id, status: row.status };
}

/** Needs `entries` joined on `ownEntry` (the number is the entry's). */
const subjectColumns = { ...namedRiderColumns, role: users.role };

/**
 * Serializes an account's SOS calls and abuse-mark changes, on every server instance: the
 * checks below (one unresolved incident, the hourly caps, the mark) read, then write.
 */
const lockRiderSos = (tx: Tx, riderId: string) =>
  tx.execute(sql`select pg_advisory_xact_lock(hashtext(${`sos:${riderId}`}))`);

/** An SOS id already stored, as the incident it opened or the call that joined one. */
async function knownCall(tx: Tx, id: string) {
  const [opened] = await tx
    .select({ incidentId: incidents.id, riderId: incidents.riderId, source: incidents.source })
    .from(incidents)
    .where(and(eq(incidents.id, id), ofEdition()))
    .limit(1);
  if (opened) return isRiderSos(opened.source) ? opened : { ...opened, riderId: null };
  const [joined] = await tx
    .select({ incidentId: sosCalls.incidentId, riderId: sosCalls.riderId })
    .from(sosCalls)
    .innerJoin(incidents, and(eq(incidents.id, sosCalls.incidentId), ofEdition()))
    .where(eq(sosCalls.id, id))
    .limit(1);
  return joined ?? null;
}

/** The account's SOS presses and the incidents they opened in the last hour. */
async function recentCalls(tx: Tx, riderId: string) {
  const since = sql`now() - interval '1 hour'`;
  const [opened] = await tx
    .select({ n: sql<number>`count(*)`.mapWith(Number) })
    .from(incidents)
    .where(
      and(
        eq(incidents.riderId, riderId),
        ofEdition(),
        inArray(incidents.source, [...RIDER_SOS_SOURCES]),
        notTrackerAlert(),
        sql`${incidents.createdAt} > ${since}`,
      ),
    );
  const [joined] = await tx
    .select({ n: sql<number>`count(*)`.mapWith(Number) })
    .from(sosCalls)
    // Calls that joined an incident of this edition (a call has no edition of its own).
    .innerJoin(incidents, and(eq(incidents.id, sosCalls.incidentId), ofEdition()))
    .where(and(eq(sosCalls.riderId, riderId), sql`${sosCalls.createdAt} > ${since}`));
  const incidentsOpened = opened?.n ?? 0;
  return { incidentsOpened, calls: incidentsOpened + (joined?.n ?? 0) };
}

async function tooManyCalls(tx: Tx, what: string) {
  const { hotline } = await readEventSettings(tx);
  return new TooManyRequestsError(
    `${what} Your phone keeps this call and sends it later. If you need help now, call the event hotline ${
      hotline ?? '(none set: national emergency 911)'
    }.`,
    'SOS_LIMIT',
  );
}

/**
 * POST /api/my/sos. `created` when it opened an incident; `joined` when it was a new press
 * added to the rider's unresolved incident; neither for a re-send of a known id. `source`:
 * `sms` for an SOS texted from the rider's registered number (modules/sms-inbound), opened
 * all the same but marked as from a sender nobody verified.
 */
export async function sendSos(
  db: Db,
  auth: AuthContext,
  body: SosRequest,
  messenger: Messenger = SILENT_MESSENGER,
  source: RiderSosSource = 'rider',
) {
  return db.transaction(async (tx) => {
    const [subject] = await tx
      .select(subjectColumns)
      .from(users)
      .leftJoin(entries, ownEntry)
      .where(eq(users.id, auth.userId))
      .limit(1);
    if (!subject) throw new NotFoundError('User not found', 'USER_NOT_FOUND');
    await lockRiderSos(tx, subject.id);

    const known = await knownCall(tx, body.id);
    if (known) {
      // Another account's id (or an id staff used): refuse, and say nothing about it.
      if (known.riderId !== subject.id) {
        throw new ConflictError('This SOS id is already used; send a new one', 'SOS_ID_TAKEN');
      }
      const [incident] = await tx
        .select({ id: incidents.id, status: incidents.status, muted: incidents.muted })
        .from(incidents)
        .where(and(eq(incidents.id, known.incidentId), ofEdition()));
      if (!incident) throw new ConflictError('This SOS id is already used; send a new one', 'SOS_ID_TAKEN');
      return { incident, created: false, joined: false };
    }

    const recent = await recentCalls(tx, subject.id);
    if (recent.calls >= SOS_CALLS_PER_HOUR) {
      throw await tooManyCalls(tx, `This account sent ${SOS_CALLS_PER_HOUR} SOS calls in the last hour.`);
    }

    const [unresolved] = await tx
      .select()
      .from(incidents)
      .where(and(eq(incidents.riderId, subject.id), ofEdition(), ne(incidents.status, 'resolved'), notTrackerAlert()))
      .orderBy(desc(incidents.createdAt))
      .limit(1)
      .for('update');
    if (unresolved) {
      await joinIncident(tx, subject, unresolved, body);
      return {
        incident: { id: unresolved.id, status: unresolved.status, muted: unresolved.muted },
        created: false,
        joined: true,
      };
    }

    if (recent.incidentsOpened >= SOS_NEW_INCIDENTS_PER_HOUR) {
      throw await tooManyCalls(tx, `This account opened ${SOS_NEW_INCIDENTS_PER_HOUR} SOS incidents in the last hour.`);
    }
    const [mark] = await tx
      .select({ userId: sosAbuseMarks.userId })
      .from(sosAbuseMarks)
      .where(and(eq(sosAbuseMarks.userId, subject.id), inEdition(sosAbuseMarks.editionId)));
    const created = await openIncident(tx, subject, body, { source, muted: Boolean(mark) }, messenger);
    // Staff opened an incident with this very id meanwhile: it is not this rider's call.
    if (!created) throw new ConflictError('This SOS id is already used; send a new one', 'SOS_ID_TAKEN');
    return { incident: { id: created.id, status: created.status, muted: Boolean(mark) }, created: true, joined: false };
  });
}

/**
 * A further press while the rider's incident is unresolved: kept as a call of that
 * incident (its note, kind and position whole), the incident's position moved to the newest
 * one, audited, and published so boards show where the rider is now. It reopens nothing
 * and rings no new alarm: an acknowledged incident stays with whoever has it.
 */
async function joinIncident(tx: Tx, subject: Subject, incident: typeof incidents.$inferSelect, body: SosRequest) {
  await tx.insert(sosCalls).values({
    id: body.id,
    incidentId: incident.id,
    riderId: subject.id,
    kind: body.kind,
    note: body.note || null,
    lat: body.position?.lat ?? null,
    lng: body.position?.lng ?? null,
    accuracy: body.position?.accuracy ?? null,
    positionAt: body.position ? new Date(body.position.at) : null,
  });
  const patch: Partial<typeof incidents.$inferInsert> = { updatedAt: new Date() };
  const at = body.position ? new Date(body.position.at) : null;
  // A queued press may arrive after a newer one: the incident keeps the newest position.
  if (body.position && at && (!incident.positionAt || at >= incident.positionAt)) {
    Object.assign(patch, {
      lat: body.position.lat,
      lng: body.position.lng,
      accuracy: body.position.accuracy,
      positionAt: at,
    });
  }
  await tx
    .update(incidents)
    .set({ ...patch, callCount: sql`${incidents.callCount} + 1` })
    .where(and(eq(incidents.id, incident.id), ofEdition()));
  const count = incident.callCount + 1;
  await recordActivity(tx, {
    type: 'sos_call',
    // Still waiting for someone: as urgent as the first press. Already in hand: a note for the log.
    priority: incident.muted ? 'low' : incident.status === 'open' ? 'high' : 'normal',
    userId: subject.id,
    userName: fullName(subject.firstName, subject.lastName),
    actorId: subject.id,
    actorName: fullName(subject.firstName, subject.lastName),
    description: `SOS again from ${labelOf(subject)} (call ${count}, added to the ${INCIDENT_KIND_LABELS[
      incident.kind
    ].toLowerCase()} incident): ${INCIDENT_KIND_LABELS[body.kind]}`,
    details: [body.note, body.position ? coordinates(body.position) : null].filter(Boolean).join('. ') || null,
    location: body.position ? coordinates(body.position) : null,
    metadata: {
      incidentId: incident.id,
      callId: body.id,
      kind: body.kind,
      joined: true,
      ...(incident.muted ? { muted: true } : {}),
      ...(body.position ? { position: body.position } : {}),
    },
  });
  await publishIncident(tx, {
    incidentId: incident.id,
    status: incident.status,
    riderId: subject.id,
    riderNumber: subject.riderNumber,
    kitName: subject.kitName,
    ...(incident.muted ? { muted: true as const } : {}),
  });
}

/**
 * An alert the rider's tracker raised (DESIGN.md §11: stopped, off route), opened on the SOS
 * path: the board hears it, the on-call are pushed at once and texted each round until a
 * person acknowledges. Called inside the ingest's transaction. While an alert of the same
 * kind is unresolved, none opens again: `created: false` with that one. It is never muted
 * (an abuse mark is about the rider's presses; a tracker does not prank) and never counts
 * toward the rider's hourly SOS caps.
 */
export async function openTrackerAlert(
  tx: Tx,
  riderId: string,
  kind: TrackerIncidentKind,
  note: string,
  position: Position | undefined,
  messenger: Messenger,
): Promise<{ id: string; status: IncidentStatus; created: boolean }> {
  const [subject] = await tx
    .select(subjectColumns)
    .from(users)
    .leftJoin(entries, ownEntry)
    .where(eq(users.id, riderId))
    .limit(1);
  if (!subject) throw new NotFoundError('Rider not found', 'RIDER_NOT_FOUND');
  await lockRiderSos(tx, riderId);
  const [open] = await tx
    .select({ id: incidents.id, status: incidents.status })
    .from(incidents)
    .where(
      and(
        eq(incidents.riderId, riderId),
        ofEdition(),
        eq(incidents.source, 'tracker'),
        eq(incidents.kind, kind),
        ne(incidents.status, 'resolved'),
      ),
    )
    .limit(1);
  if (open) return { ...open, created: false };
  const created = await openIncident(
    tx,
    subject,
    { id: crypto.randomUUID(), kind, note, ...(position ? { position } : {}) },
    { source: 'tracker', muted: false },
    messenger,
  );
  if (!created) throw new Error('a fresh incident id was already taken');
  return { ...created, created: true };
}

/** POST /api/admin/incidents: staff open one for a rider who phoned in. */
export async function createIncidentForRider(
  db: Db,
  viewerRole: Role,
  actor: Actor,
  body: CreateIncidentRequest,
  messenger: Messenger = SILENT_MESSENGER,
) {
  const id = await db.transaction(async (tx) => {
    const [subject] = await tx
      .select(subjectColumns)
      .from(users)
      .leftJoin(entries, ownEntry)
      .where(body.riderId ? eq(users.id, body.riderId) : eq(entries.riderNumber, body.riderNumber ?? -1))
      .limit(1);
    if (!subject || !canSee(viewerRole, subject.role)) throw new NotFoundError('Rider not found', 'RIDER_NOT_FOUND');
    const incidentId = body.id ?? crypto.randomUUID();
    const created = await openIncident(tx, subject, { ...body, id: incidentId }, { source: 'staff', actor }, messenger);
    if (!created) throw new ConflictError('An incident with this id already exists', 'INCIDENT_EXISTS');
    return created.id;
  });
  return getIncident(db, id, viewerRole);
}

type Transition = 'acknowledge' | 'assign' | 'resolve';

/**
 * The incident a staff action changes, with the rider it names; 404 for one the viewer may not
 * see. `lock` holds its row until the transaction ends (two consoles acting at once take
 * turns); an action that takes the rider's SOS lock first leaves it off, as the SOS press
 * takes that lock before it writes the incident (the other order could deadlock).
 */
async function incidentForChange(tx: Tx, id: string, viewerRole: Role, { lock }: { lock: boolean }) {
  const query = tx
    .select({
      incident: incidents,
      rider: subjectColumns,
    })
    .from(incidents)
    .innerJoin(users, eq(users.id, incidents.riderId))
    .leftJoin(entries, ownEntry)
    .where(and(eq(incidents.id, id), ofEdition()));
  const [current] = lock ? await query.for('update', { of: incidents }) : await query;
  if (!current || !canSee(viewerRole, current.rider.role)) throw incidentNotFound();
  return current;
}

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
  change: IncidentChange,
  messenger: Messenger = SILENT_MESSENGER,
) {
  await db.transaction((tx) => changeIncidentIn(tx, id, viewerRole, actor, change, messenger));
  return getIncident(db, id, viewerRole);
}

export type IncidentChange =
  | { action: 'acknowledge' }
  | { action: 'assign'; userId: string }
  | { action: 'resolve'; note: string };

/**
 * `changeIncident` inside the caller's transaction (a tracker alert's dismissal also clears
 * the tracker's state in the same one). Answers the incident as it was before the change.
 */
export async function changeIncidentIn(
  tx: Tx,
  id: string,
  viewerRole: Role,
  actor: Actor,
  change: IncidentChange,
  messenger: Messenger,
) {
  const current = await incidentForChange(tx, id, viewerRole, { lock: true });
  const { incident } = current;
  if (incident.status === 'resolved') {
    throw new ConflictError('This incident is already resolved', 'INCIDENT_RESOLVED');
  }
  const now = new Date();
  const patch: Partial<typeof incidents.$inferInsert> = { updatedAt: now };
  let details: string | null = null;
  /** Who the rider hears has their call. */
  let handler = actor.name;
  if (change.action === 'acknowledge') {
    if (incident.status !== 'open') {
      const [by] = incident.acknowledgedBy
        ? await tx
            .select({ firstName: users.firstName, lastName: users.lastName })
            .from(users)
            .where(eq(users.id, incident.acknowledgedBy))
        : [];
      throw new ConflictError(
        by ? `Already acknowledged by ${fullName(by.firstName, by.lastName)}` : 'This incident is already acknowledged',
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
    handler = fullName(target.firstName, target.lastName);
  } else {
    Object.assign(patch, { status: 'resolved', resolvedBy: actor.id, resolvedAt: now, resolutionNote: change.note });
    if (!incident.acknowledgedBy) Object.assign(patch, { acknowledgedBy: actor.id, acknowledgedAt: now });
    details = change.note;
  }
  await tx
    .update(incidents)
    .set(patch)
    .where(and(eq(incidents.id, id), ofEdition()));
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
  // Someone has it: no more escalation rounds; the rider of an SOS hears who has it.
  await cancelEscalation(tx, id);
  if (change.action !== 'resolve' && isRiderSos(incident.source) && !isTrackerAlert(incident.kind)) {
    await notifyUser(
      tx,
      messenger,
      incident.riderId,
      'sos_acknowledged',
      { incidentId: id, staffName: handler, status: patch.status },
      { incidentId: id },
    );
  }
  await publishIncident(tx, {
    incidentId: id,
    status: patch.status as IncidentStatus,
    riderId: incident.riderId,
    riderNumber: current.rider.riderNumber,
    kitName: current.rider.kitName,
    ...(incident.muted ? { muted: true as const } : {}),
  });
  return incident;
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

/**
 * POST /api/admin/incidents/:id/abuse: the rider's SOS calls are junk. Every unresolved
 * incident the account's own SOS opened is resolved with the note, and the account is
 * marked, so its later calls are kept (findable, should it be a real emergency after all)
 * but muted: no alarm, listed apart. Marking again (from a muted call) resolves what came
 * since and keeps the first mark. Incidents staff opened for the rider stay as they are:
 * someone took that call.
 */
export async function markAbuse(db: Db, id: string, viewerRole: Role, actor: Actor, note: string) {
  const resolvedCount = await db.transaction(async (tx) => {
    const current = await incidentForChange(tx, id, viewerRole, { lock: false });
    const { incident } = current;
    // Anyone can text from a forged number: marking a text would mute the rider's own calls.
    if (incident.source === 'sms') {
      throw new ConflictError(
        'An SOS by text cannot be marked as abuse: its sender is not verified. Call the rider back, then resolve it',
        'INCIDENT_NOT_SOS',
      );
    }
    if (incident.source !== 'rider') {
      throw new ConflictError('Only an SOS sent from a rider’s phone can be marked as abuse', 'INCIDENT_NOT_SOS');
    }
    if (incident.riderId === actor.id) {
      throw new ConflictError('You cannot mark your own SOS calls as abuse', 'ABUSE_SELF');
    }
    await lockRiderSos(tx, incident.riderId);
    const now = new Date();
    await tx
      .insert(sosAbuseMarks)
      .values({ userId: incident.riderId, note, incidentId: id, markedBy: actor.id, markedAt: now })
      .onConflictDoNothing({ target: [sosAbuseMarks.editionId, sosAbuseMarks.userId] });
    const resolution = `Marked as abuse: ${note}`;
    const resolved = await tx
      .update(incidents)
      .set({
        status: 'resolved',
        resolvedBy: actor.id,
        resolvedAt: now,
        resolutionNote: resolution,
        acknowledgedBy: sql`coalesce(${incidents.acknowledgedBy}, ${actor.id}::uuid)`,
        acknowledgedAt: sql`coalesce(${incidents.acknowledgedAt}, ${now.toISOString()}::timestamptz)`,
        updatedAt: now,
      })
      .where(
        and(
          eq(incidents.riderId, incident.riderId),
          ofEdition(),
          eq(incidents.source, 'rider'),
          ne(incidents.status, 'resolved'),
        ),
      )
      .returning({ id: incidents.id, muted: incidents.muted });
    const label = current.rider.kitName || fullName(current.rider.firstName, current.rider.lastName);
    await recordActivity(tx, {
      type: 'incident_updated',
      priority: 'normal',
      userId: incident.riderId,
      userName: fullName(current.rider.firstName, current.rider.lastName),
      actorId: actor.id,
      actorName: actor.name,
      description: `${actor.name} marked the SOS calls of ${label} as abuse`,
      details: `${note}. ${resolved.length} unresolved incident${resolved.length === 1 ? '' : 's'} resolved; later calls are kept but raise no alarm.`,
      metadata: { incidentId: id, action: 'abuse_marked', resolved: resolved.map((r) => r.id) },
    });
    // Consoles drop the resolved ones from the alarm at once.
    for (const r of resolved) {
      await publishIncident(tx, {
        incidentId: r.id,
        status: 'resolved',
        riderId: incident.riderId,
        riderNumber: current.rider.riderNumber,
        kitName: current.rider.kitName,
        ...(r.muted ? { muted: true as const } : {}),
      });
    }
    return resolved.length;
  });
  return { ...(await getIncident(db, id, viewerRole)), resolvedCount };
}

/**
 * GET /api/admin/incidents/abuse-marks: the marked accounts the viewer may see, newest first,
 * of `edition` (a staff read's past one; undefined: the current one): marks are per edition.
 */
export function listAbuseMarks(db: Db, viewerRole: Role, edition?: EditionRead) {
  return db
    .select({
      userId: sosAbuseMarks.userId,
      note: sosAbuseMarks.note,
      incidentId: sosAbuseMarks.incidentId,
      markedAt: sosAbuseMarks.markedAt,
      rider: {
        riderNumber: riderNumberIn(sosAbuseMarks.editionId),
        kitName: rider.kitName,
        firstName: rider.firstName,
        lastName: rider.lastName,
      },
      marker: { id: marker.id, firstName: marker.firstName, lastName: marker.lastName, role: marker.role },
    })
    .from(sosAbuseMarks)
    .innerJoin(rider, eq(rider.id, sosAbuseMarks.userId))
    .leftJoin(marker, eq(marker.id, sosAbuseMarks.markedBy))
    .where(and(inEdition(sosAbuseMarks.editionId, edition), visibleAccounts(viewerRole, rider.role)))
    .orderBy(desc(sosAbuseMarks.markedAt))
    .limit(500);
}

/**
 * DELETE /api/admin/incidents/abuse-marks/:userId: the mark was wrong (or has served). The
 * account's calls raise the alarm again, and so does whatever it sent while marked and is
 * still unresolved: a muted call may be the real emergency.
 */
export async function liftAbuseMark(db: Db, userId: string, viewerRole: Role, actor: Actor) {
  return db.transaction(async (tx) => {
    const [subject] = await tx
      .select(subjectColumns)
      .from(sosAbuseMarks)
      .innerJoin(users, eq(users.id, sosAbuseMarks.userId))
      .leftJoin(entries, ownEntry)
      .where(and(eq(sosAbuseMarks.userId, userId), inEdition(sosAbuseMarks.editionId)));
    if (!subject || !canSee(viewerRole, subject.role)) {
      throw new NotFoundError('This account is not marked as abuse', 'ABUSE_MARK_NOT_FOUND');
    }
    await lockRiderSos(tx, userId);
    await tx.delete(sosAbuseMarks).where(and(eq(sosAbuseMarks.userId, userId), inEdition(sosAbuseMarks.editionId)));
    const unmuted = await tx
      .update(incidents)
      .set({ muted: false, updatedAt: new Date() })
      .where(
        and(eq(incidents.riderId, userId), ofEdition(), eq(incidents.muted, true), ne(incidents.status, 'resolved')),
      )
      .returning({ id: incidents.id, status: incidents.status });
    await recordActivity(tx, {
      type: 'incident_updated',
      priority: unmuted.length > 0 ? 'high' : 'normal',
      userId,
      userName: fullName(subject.firstName, subject.lastName),
      actorId: actor.id,
      actorName: actor.name,
      description: `${actor.name} lifted the abuse mark on the SOS calls of ${labelOf(subject)}`,
      details:
        unmuted.length > 0
          ? `${unmuted.length} unresolved call${unmuted.length === 1 ? '' : 's'} sent while marked now raise the alarm`
          : null,
      metadata: { action: 'abuse_lifted', unmuted: unmuted.map((u) => u.id) },
    });
    for (const u of unmuted) {
      await publishIncident(tx, {
        incidentId: u.id,
        status: u.status,
        riderId: userId,
        riderNumber: subject.riderNumber,
        kitName: subject.kitName,
      });
    }
    return { unmuted: unmuted.length, label: labelOf(subject) };
  });
}
