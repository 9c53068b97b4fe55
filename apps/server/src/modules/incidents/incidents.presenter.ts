// Incidents as each reader may see them. A rider's phone, emergency contact and medical
// notes are what a marshal needs to help, and nobody else: they go out only to those who may
// read a rider's contact details (canReadRiderContact: never officers).
import type { Role } from '@rally/shared/catalog/accounts';
import type { MessageTemplate } from '@rally/shared/catalog/messages';
import type {
  Incident,
  IncidentFollowUp,
  IncidentMessage,
  MyIncident,
  StaffRef,
} from '@rally/shared/contracts/incidents';
import { can, canReadRiderContact } from '@rally/shared/permissions';
import type { SosCallRow } from '../../db/schema/incidents';
import { fullName } from '../../lib/sql-text';
import { presentRecipient } from '../messages/messages.presenter';
import type { FollowUps, IncidentListRow, IncidentMessageRow, IncidentMessages } from './incidents.service';

type Person = { id: string | null; firstName: string | null; lastName: string | null; role: Role | null } | null;

function staffRef(p: Person): StaffRef | null {
  if (!p?.id || !p.role) return null;
  return { id: p.id, name: fullName(p.firstName, p.lastName), role: p.role };
}

const isoOrNull = (d: Date | null) => (d ? d.toISOString() : null);

function positionOf(row: Pick<SosCallRow, 'lat' | 'lng' | 'accuracy' | 'positionAt' | 'createdAt'>) {
  if (row.lat === null || row.lng === null) return null;
  return {
    lat: row.lat,
    lng: row.lng,
    accuracy: row.accuracy ?? 0,
    at: (row.positionAt ?? row.createdAt).toISOString(),
  };
}

/** "… at 8.1234, 124.8765, …" in a tracker alert's note (tracking-alerts.ts writes it so). */
const NOTE_COORDINATES = / at -?\d{1,2}\.\d+, -?\d{1,3}\.\d+(?=,|$)/g;

/**
 * A tracker's alert carries a live position (DESIGN.md §11): only holders of handle_incidents
 * see it. Other staff who read the incident list (officers) get the alert without the place.
 */
function seesTrackerPosition(i: { source: string }, viewerRole: Role): boolean {
  return i.source !== 'tracker' || can(viewerRole, 'handle_incidents');
}

function presentFollowUp(call: SosCallRow): IncidentFollowUp {
  return {
    id: call.id,
    kind: call.kind,
    note: call.note,
    position: positionOf(call),
    createdAt: call.createdAt.toISOString(),
  };
}

/** A delivery step of the timeline: to whom (masked), by what, how it stands. */
function presentMessage(m: IncidentMessageRow, full: boolean): IncidentMessage {
  const round = m.template === 'incident_escalated' ? m.data.round : undefined;
  return {
    id: m.id,
    channel: m.channel,
    template: m.template as MessageTemplate,
    to: m.firstName !== null || m.lastName !== null ? fullName(m.firstName, m.lastName) : null,
    recipient: presentRecipient(m.channel, m.address, m.pushEndpoint, full),
    status: m.status,
    attempts: m.attempts,
    ...(typeof round === 'number' ? { round } : {}),
    createdAt: m.createdAt.toISOString(),
    sentAt: isoOrNull(m.sentAt),
  };
}

export function presentIncident(
  row: IncidentListRow,
  viewerRole: Role,
  followUps?: FollowUps,
  messages?: IncidentMessages,
): Incident {
  const i = row.incident;
  const placed = seesTrackerPosition(i, viewerRole);
  const out: Incident = {
    id: i.id,
    kind: i.kind,
    note: placed ? i.note : (i.note?.replace(NOTE_COORDINATES, '') ?? null),
    status: i.status,
    source: i.source,
    // A text's sender number can be forged: staff call back before trusting it.
    senderVerified: i.source !== 'sms',
    position: placed ? positionOf(i) : null,
    rider: { id: row.rider.id, riderNumber: row.rider.riderNumber, kitName: row.rider.kitName },
    lastStation:
      i.lastStationId && i.lastStationName && i.lastSeenAt
        ? { id: i.lastStationId, name: i.lastStationName, scannedAt: i.lastSeenAt.toISOString() }
        : null,
    createdAt: i.createdAt.toISOString(),
    reportedBy: staffRef(row.reporter),
    acknowledgedBy: staffRef(row.acker),
    acknowledgedAt: isoOrNull(i.acknowledgedAt),
    assignedTo: staffRef(row.assignee),
    assignedAt: isoOrNull(i.assignedAt),
    resolvedBy: staffRef(row.resolver),
    resolvedAt: isoOrNull(i.resolvedAt),
    resolutionNote: i.resolutionNote,
    callCount: i.callCount,
    followUps: (followUps?.get(i.id) ?? []).map(presentFollowUp),
    muted: i.muted,
    abuseMark:
      row.abuseMark?.markedAt && row.abuseMark.note !== null
        ? { markedAt: row.abuseMark.markedAt.toISOString(), markedBy: staffRef(row.marker), note: row.abuseMark.note }
        : null,
  };
  if (messages) {
    // Masked as the delivery log masks it for the same reader.
    const full = can(viewerRole, 'view_users');
    out.messages = (messages.get(i.id) ?? []).map((m) => presentMessage(m, full));
  }
  if (canReadRiderContact(viewerRole)) {
    const r = row.rider;
    out.contact = {
      firstName: r.firstName,
      lastName: r.lastName,
      phoneNumber: r.phoneNumber,
      emergencyContactName: r.emergencyContactName,
      emergencyContactNumber: r.emergencyContactNumber,
      bloodType: r.bloodType,
      allergies: r.allergies,
      medicalConditions: r.medicalConditions,
    };
  }
  return out;
}

/** The rider's own view: who is helping and when, never the staff member's id. */
export function presentMyIncident(row: IncidentListRow): MyIncident {
  const i = row.incident;
  const ack = staffRef(row.acker);
  const assigned = staffRef(row.assignee);
  return {
    id: i.id,
    kind: i.kind,
    note: i.note,
    status: i.status,
    position: positionOf(i),
    createdAt: i.createdAt.toISOString(),
    acknowledgedBy: ack?.name ?? null,
    acknowledgedByRole: ack?.role ?? null,
    acknowledgedAt: isoOrNull(i.acknowledgedAt),
    assignedTo: assigned?.name ?? null,
    assignedToRole: assigned?.role ?? null,
    assignedAt: isoOrNull(i.assignedAt),
    resolvedAt: isoOrNull(i.resolvedAt),
    resolutionNote: i.resolutionNote,
    muted: i.muted,
  };
}
