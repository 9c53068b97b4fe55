// SOS and incidents. A rider's SOS carries an id made on the phone, so a
// re-sent call opens nothing twice; a rider who presses again while their incident is
// unresolved joins it. Event-day payloads are camelCase throughout.
import { z } from 'zod';
import { ROLES } from '../catalog/accounts';
import {
  INCIDENT_KINDS,
  INCIDENT_NOTE_MAX,
  INCIDENT_SOURCES,
  INCIDENT_STATUSES,
  SOS_KINDS,
} from '../catalog/event-day';
import { MESSAGE_CHANNELS, MESSAGE_STATUSES, MESSAGE_TEMPLATES } from '../catalog/messages';
import { RIDER_NUMBER_MAX, RIDER_NUMBER_MIN } from '../catalog/rider-number';
import { envelope, isoDateTime } from './common';

export const incidentKind = z.enum(INCIDENT_KINDS, { message: `kind must be one of: ${INCIDENT_KINDS.join(', ')}` });
/** What a person may say happened: the tracker's kinds are the server's to open. */
export const sosKind = z.enum(SOS_KINDS, { message: `kind must be one of: ${SOS_KINDS.join(', ')}` });
export const incidentStatus = z.enum(INCIDENT_STATUSES, {
  message: `status must be one of: ${INCIDENT_STATUSES.join(', ')}`,
});

/** Free text a rider or marshal types; newlines allowed (the server's hook allows them only in `note`). */
const noteText = (field: string) =>
  z
    .string({ message: `${field} must be text` })
    .trim()
    .max(INCIDENT_NOTE_MAX, { message: `${field} must be at most ${INCIDENT_NOTE_MAX} characters` })
    // biome-ignore lint/suspicious/noControlCharactersInRegex: control characters other than newlines are refused
    .refine((v) => !/[\u0000-\u0008\u000b\u000c\u000e-\u001f\u007f]/.test(v), {
      message: `${field} must not contain control characters`,
    });

/** The phone's position as `navigator.geolocation` gave it. */
export const position = z.object({
  lat: z.number({ message: 'position.lat must be a number' }).min(-90).max(90),
  lng: z.number({ message: 'position.lng must be a number' }).min(-180).max(180),
  accuracy: z.number({ message: 'position.accuracy must be a number' }).min(0).max(1_000_000),
  at: isoDateTime('position.at'),
});
export type Position = z.infer<typeof position>;

/** POST /api/my/sos */
export const sosRequest = z.object({
  id: z.uuid({ message: 'id must be a UUID made on the device' }),
  kind: sosKind,
  note: noteText('note').optional(),
  position: position.optional(),
});
export type SosRequest = z.infer<typeof sosRequest>;
/**
 * 201 opened an incident; 200 is a re-send of a known id, or a new press that joined the
 * rider's unresolved incident (`joined`), answered with that incident's id and status.
 */
/** What a call of an account marked as abuse is told: kept, but nobody was alerted. */
export const SOS_MUTED_MESSAGE =
  'SOS saved, but it did not alert the marshals: the organisers have marked this account’s SOS calls. Call or text the event hotline.';

export const sosResponse = envelope(
  z.object({
    /** `muted`: the account's calls are marked as abuse; the call rang no alarm (call the hotline). */
    incident: z.object({ id: z.string(), status: incidentStatus, muted: z.literal(true).optional() }),
    joined: z.boolean().optional(),
  }),
);

/**
 * Per account, counted in the database over the last hour (so across server instances):
 * every SOS press with a new id, and the incidents they open. Past either, 429 with the
 * event hotline; the phone keeps the call queued and sends it later.
 */
export const SOS_CALLS_PER_HOUR = 20;
export const SOS_NEW_INCIDENTS_PER_HOUR = 3;
/** Resolved incidents are listed this many at a time by default (`?before=` for older ones). */
export const RESOLVED_PAGE_SIZE = 100;
/** Joined calls shown with each incident, newest first (all are kept and audited). */
export const FOLLOW_UPS_SHOWN = 10;

/** POST /api/admin/incidents: staff open one for a rider who called in. */
export const createIncidentRequest = z
  .object({
    id: z.uuid({ message: 'id must be a UUID' }).optional(),
    riderId: z.uuid({ message: 'riderId must be a user id' }).optional(),
    riderNumber: z
      .number({ message: 'riderNumber must be a number' })
      .int()
      .min(RIDER_NUMBER_MIN, { message: `riderNumber must be between ${RIDER_NUMBER_MIN} and ${RIDER_NUMBER_MAX}` })
      .max(RIDER_NUMBER_MAX, { message: `riderNumber must be between ${RIDER_NUMBER_MIN} and ${RIDER_NUMBER_MAX}` })
      .optional(),
    kind: sosKind,
    note: noteText('note').optional(),
    position: position.optional(),
  })
  .refine((v) => v.riderId !== undefined || v.riderNumber !== undefined, {
    message: 'riderNumber or riderId is required',
    path: ['riderNumber'],
  });
export type CreateIncidentRequest = z.infer<typeof createIncidentRequest>;

export const assignIncidentRequest = z.object({ userId: z.uuid({ message: 'userId must be a staff member' }) });
const RESOLVE_NOTE_REQUIRED = 'note is required to resolve an incident';
export const resolveIncidentRequest = z.object({
  note: z
    .string({ error: (issue) => (issue.input === undefined ? RESOLVE_NOTE_REQUIRED : 'note must be text') })
    .pipe(noteText('note'))
    .pipe(z.string().min(1, { message: RESOLVE_NOTE_REQUIRED })),
});
/** Staff's reason for marking an account's SOS calls as abuse. */
const ABUSE_NOTE_REQUIRED = 'note is required to mark calls as abuse';
export const markAbuseRequest = z.object({
  note: z
    .string({ error: (issue) => (issue.input === undefined ? ABUSE_NOTE_REQUIRED : 'note must be text') })
    .pipe(noteText('note'))
    .pipe(z.string().min(1, { message: ABUSE_NOTE_REQUIRED })),
});
export type MarkAbuseRequest = z.infer<typeof markAbuseRequest>;

/**
 * GET /api/admin/incidents. Unresolved incidents are all listed, oldest first within each
 * status, never cut; resolved ones come a page at a time, newest first, older than the
 * incident named by `before`. `muted=true` lists the calls of accounts marked as abuse
 * instead (they are never in the default list, so they raise no alarm).
 */
export const incidentListQuery = z.object({
  status: incidentStatus.optional(),
  before: z.uuid({ message: 'before must be an incident id' }).optional(),
  limit: z.coerce
    .number({ message: 'limit must be a number' })
    .int({ message: 'limit must be a whole number' })
    .min(1, { message: 'limit must be at least 1' })
    .max(500, { message: 'limit must be at most 500' })
    .optional(),
  muted: z.enum(['true', 'false'], { message: 'muted must be true or false' }).optional(),
});
export type IncidentListQuery = z.infer<typeof incidentListQuery>;

const staffRef = z.object({ id: z.string(), name: z.string(), role: z.enum(ROLES) });
export type StaffRef = z.infer<typeof staffRef>;

const incidentPosition = position.nullable();

/** What a rider sees of their own incidents (GET /api/my/incidents). */
export const myIncident = z.object({
  id: z.string(),
  kind: incidentKind,
  note: z.string().nullable(),
  status: incidentStatus,
  position: incidentPosition,
  createdAt: z.string(),
  acknowledgedBy: z.string().nullable().optional(),
  acknowledgedByRole: z.enum(ROLES).nullable().optional(),
  acknowledgedAt: z.string().nullable().optional(),
  assignedTo: z.string().nullable().optional(),
  assignedToRole: z.enum(ROLES).nullable().optional(),
  assignedAt: z.string().nullable().optional(),
  resolvedAt: z.string().nullable().optional(),
  resolutionNote: z.string().nullable().optional(),
  /**
   * Opened while staff had marked the account's calls as abuse: it rang no alarm, so the
   * phone tells the rider to call the hotline rather than wait for a marshal.
   */
  muted: z.boolean(),
});
export type MyIncident = z.infer<typeof myIncident>;
export const myIncidentListResponse = envelope(z.array(myIncident));

/** Contact and medical data: only for holders of view_users or handle_incidents, never officers. */
export const incidentContact = z.object({
  firstName: z.string(),
  lastName: z.string(),
  phoneNumber: z.string().nullable(),
  emergencyContactName: z.string().nullable(),
  emergencyContactNumber: z.string().nullable(),
  bloodType: z.string().nullable(),
  allergies: z.string().nullable(),
  medicalConditions: z.string().nullable(),
});
export type IncidentContact = z.infer<typeof incidentContact>;

/** A further SOS press that joined the incident. */
export const incidentFollowUp = z.object({
  id: z.string(),
  kind: incidentKind,
  note: z.string().nullable(),
  position: incidentPosition,
  createdAt: z.string(),
});
export type IncidentFollowUp = z.infer<typeof incidentFollowUp>;

/** The rider's account is marked as abuse: since when, by whom, why. */
export const abuseMark = z.object({
  markedAt: z.string(),
  markedBy: staffRef.nullable(),
  note: z.string(),
});
export type AbuseMark = z.infer<typeof abuseMark>;

/** The messages an incident caused, newest first, at most this many (its timeline's delivery steps). */
export const INCIDENT_MESSAGES_SHOWN = 50;

/**
 * A message the incident caused (DESIGN.md §10): the on-call push, each escalation round's
 * texts, the rider's acknowledgement; queued (`pending`), `sent` or `failed`, as it stands.
 */
export const incidentMessage = z.object({
  id: z.string(),
  channel: z.enum(MESSAGE_CHANNELS),
  template: z.enum(MESSAGE_TEMPLATES),
  /** The account it went to (staff, the rider), or null for the event's hotline. */
  to: z.string().nullable(),
  /** The address as the delivery log shows it to the same reader: masked without view_users (+63*****4567, j***@example.com), a push by its service's host. */
  recipient: z.string(),
  status: z.enum(MESSAGE_STATUSES),
  attempts: z.number().int(),
  /** The escalation round that sent it (1, 2, …); absent for the others. */
  round: z.number().int().optional(),
  createdAt: z.string(),
  sentAt: z.string().nullable(),
});
export type IncidentMessage = z.infer<typeof incidentMessage>;

export const incident = z.object({
  id: z.string(),
  kind: incidentKind,
  note: z.string().nullable(),
  status: incidentStatus,
  /** rider: the SOS button; staff: a call staff took; sms: a text from the rider's registered number. */
  source: z.enum(INCIDENT_SOURCES),
  /** False for an SOS by text: a sender's number can be forged, so staff call back ("by text — sender not verified: call back"). */
  senderVerified: z.boolean(),
  position: incidentPosition,
  rider: z.object({ id: z.string(), riderNumber: z.number().int().nullable(), kitName: z.string().nullable() }),
  lastStation: z.object({ id: z.string(), name: z.string(), scannedAt: z.string() }).nullable(),
  createdAt: z.string(),
  reportedBy: staffRef.nullable(),
  acknowledgedBy: staffRef.nullable(),
  acknowledgedAt: z.string().nullable(),
  assignedTo: staffRef.nullable(),
  assignedAt: z.string().nullable(),
  resolvedBy: staffRef.nullable(),
  resolvedAt: z.string().nullable(),
  resolutionNote: z.string().nullable(),
  /** SOS presses this incident holds (1 for one call; more when the rider pressed again). */
  callCount: z.number().int(),
  /** The latest further presses, newest first (at most FOLLOW_UPS_SHOWN). */
  followUps: z.array(incidentFollowUp),
  /** Opened while the account was marked as abuse: listed apart, no alarm. */
  muted: z.boolean(),
  /** Set while the rider's account is marked as abuse. */
  abuseMark: abuseMark.nullable(),
  /** Absent for roles that may not read contact and medical data. */
  contact: incidentContact.optional(),
  /** The messages it caused, newest first (INCIDENT_MESSAGES_SHOWN at most): the timeline's delivery steps. */
  messages: z.array(incidentMessage).optional(),
});
export type Incident = z.infer<typeof incident>;
export const incidentResponse = envelope(incident);
/** `nextBefore`: pass as `?before=` for the next page of resolved incidents; null at the end. */
export const incidentListResponse = envelope(z.array(incident)).extend({ nextBefore: z.string().nullable() });

/** An account marked as abuse (GET /api/admin/incidents/abuse-marks). */
export const abuseMarkedAccount = abuseMark.extend({
  userId: z.string(),
  riderNumber: z.number().int().nullable(),
  kitName: z.string().nullable(),
  name: z.string(),
  incidentId: z.string().nullable(),
});
export type AbuseMarkedAccount = z.infer<typeof abuseMarkedAccount>;
export const abuseMarkListResponse = envelope(z.array(abuseMarkedAccount));

/** Staff an incident can be assigned to (handle_incidents holders the actor may see). */
export const assigneeListResponse = envelope(z.array(staffRef));

/** The `incident` event of the live stream (GET /api/admin/event/stream). */
export interface IncidentEvent {
  incidentId: string;
  status: (typeof INCIDENT_STATUSES)[number];
  riderId: string;
  riderNumber: number | null;
  kitName: string | null;
  /**
   * A call of an account marked as abuse: boards refresh the list kept apart, and nothing
   * rings (the alarm's list leaves such incidents out, and it ignores these events).
   */
  muted?: true;
}
