// Event day: stations and scans, incidents and SOS, event settings, the course and its
// states, and the push channel's event names.
// One topic of the catalog: the rally's fixed content and business constants, defined once;
// the server's Postgres enums, the zod contracts and the web UI read them from here.
import { baseCategoryOf } from './registration';

// Event day: stations, scans.
export const RALLY_ROUTE_IDS = ['lakambini', 'lakan', 'bagani'] as const;
export type RallyRouteId = (typeof RALLY_ROUTE_IDS)[number];
/** A rider rides their category's base route: magani rides lakambini's, `-obr` its base's. */
export function routeForCategory(category: string | null | undefined): RallyRouteId | null {
  const base = baseCategoryOf(category);
  if (!base) return null;
  return base === 'magani' ? 'lakambini' : base;
}
export const STATION_KINDS = ['kit', 'bike-check', 'start', 'checkpoint', 'finish'] as const;
export type StationKindName = (typeof STATION_KINDS)[number];
export const STATION_KIND_LABELS: Record<StationKindName, string> = {
  kit: 'Kit hand-over',
  'bike-check': 'Bike check',
  start: 'Start (flag-off)',
  checkpoint: 'Checkpoint',
  finish: 'Finish',
};
export const STATION_NAME_MAX = 120;
export const SCAN_BATCH_MAX = 500;
/** How a scan was taken: by a marshal's device (camera, typed) or a marshal's text (SMS in, DESIGN.md §10). */
export const SCAN_SOURCES = ['camera', 'manual', 'sms'] as const;
/** What a device's batch may say; `sms` is the server's own, for scans it read from a text. */
export const DEVICE_SCAN_SOURCES = ['camera', 'manual'] as const;
export const SCAN_STATUSES = ['accepted', 'duplicate', 'flagged', 'invalid'] as const;
/** Why a scan was kept but not counted: staff review it. */
export const SCAN_FLAG_REASONS = [
  'unknown_rider',
  'not_verified',
  'wrong_route',
  'before_opening',
  'after_closing',
  'out_of_order',
  'rescan',
  'clock_skew',
  'sms_unverified',
] as const;
export type ScanFlagReasonName = (typeof SCAN_FLAG_REASONS)[number];
export const SCAN_FLAG_LABELS: Record<ScanFlagReasonName, string> = {
  unknown_rider: 'Unknown rider',
  not_verified: 'Rider not verified',
  wrong_route: 'Rider not on this station’s route',
  before_opening: 'Before the station opened',
  after_closing: 'After the station closed',
  out_of_order: 'Out of order (already passed a later station)',
  rescan: 'Re-scan at the same station',
  clock_skew: 'Device clock more than a day off',
  sms_unverified: 'By text without the sender’s SMS PIN',
};
export const SCAN_REVIEW_DECISIONS = ['accept', 'void'] as const;
/** A device clock further off the server's than this flags the scan. */
export const SCAN_CLOCK_SKEW_MS = 24 * 60 * 60 * 1000;

/** What a rider in trouble says happened (POST /api/my/sos, a text, staff taking a call). */
export const SOS_KINDS = ['crash', 'medical', 'mechanical', 'lost', 'other'] as const;
export type SosKind = (typeof SOS_KINDS)[number];
/** What the tracker saw between stations (DESIGN.md §11): opened by the server, never chosen by a person. */
export const TRACKER_INCIDENT_KINDS = ['stopped', 'off_route'] as const;
export type TrackerIncidentKind = (typeof TRACKER_INCIDENT_KINDS)[number];
export const INCIDENT_KINDS = [...SOS_KINDS, ...TRACKER_INCIDENT_KINDS] as const;
export type IncidentKind = (typeof INCIDENT_KINDS)[number];
export const INCIDENT_KIND_LABELS: Record<IncidentKind, string> = {
  crash: 'Crash',
  medical: 'Medical',
  mechanical: 'Mechanical',
  lost: 'Lost',
  other: 'Other',
  stopped: 'Stopped',
  off_route: 'Off route',
};
/**
 * Who opened an incident: the rider's SOS button (signed in), staff taking a call, or a
 * text from the rider's registered number, whose sender nobody can verify (DESIGN.md §10), or
 * the rider's tracker: its SOS button (`alarm=sos`) or an alert it raised (DESIGN.md §11).
 */
export const INCIDENT_SOURCES = ['rider', 'staff', 'sms', 'tracker'] as const;
export type IncidentSource = (typeof INCIDENT_SOURCES)[number];
/** The sources that are the rider's own SOS (the one-unresolved-incident rule, the hourly caps). */
export const RIDER_SOS_SOURCES = ['rider', 'sms', 'tracker'] as const satisfies readonly IncidentSource[];
/** What the Event Day board says on an incident opened by a text. */
export const SMS_SENDER_UNVERIFIED_TEXT = 'by text — sender not verified: call back';
/** open → acknowledged (who, when) → assigned (to a staff member) → resolved (with a note). */
export const INCIDENT_STATUSES = ['open', 'acknowledged', 'assigned', 'resolved'] as const;
export type IncidentStatus = (typeof INCIDENT_STATUSES)[number];
export const INCIDENT_STATUS_LABELS: Record<IncidentStatus, string> = {
  open: 'Open',
  acknowledged: 'Acknowledged',
  assigned: 'Assigned',
  resolved: 'Resolved',
};
export const INCIDENT_NOTE_MAX = 1000;
/** A rider's SOS that has not reached the server after this long offers a call and an SMS. */
export const SOS_FALLBACK_AFTER_MS = 30_000;
export const EVENT_NAME_MAX = 120;
export const HOTLINE_MAX = 30;
/** The rally's clock: days and times are read in the Philippines. */
export const RALLY_TIME_ZONE = 'Asia/Manila';

const rallyClockParts = new Intl.DateTimeFormat('en-CA', {
  timeZone: RALLY_TIME_ZONE,
  year: 'numeric',
  month: '2-digit',
  day: '2-digit',
  hour: '2-digit',
  minute: '2-digit',
  hourCycle: 'h23',
});

/** A moment's wall-clock reading in the rally's time zone, zero-padded (hour 00–23). */
export function rallyWallClock(at: Date): { year: string; month: string; day: string; hour: string; minute: string } {
  const p = Object.fromEntries(rallyClockParts.formatToParts(at).map((x) => [x.type, x.value]));
  return { year: p.year ?? '', month: p.month ?? '', day: p.day ?? '', hour: p.hour ?? '', minute: p.minute ?? '' };
}
export const DEFAULT_EVENT_NAME = 'Mindanao Warriors Endurance Rally';
// The course: every verified rider is in exactly one state per event day,
// derived from passages, the route's rules and staff decisions.
export const COURSE_STATES = ['not_started', 'on_course', 'finished', 'dnf', 'dns'] as const;
export type CourseStateName = (typeof COURSE_STATES)[number];
export const COURSE_STATE_LABELS: Record<CourseStateName, string> = {
  not_started: 'Not started',
  on_course: 'On course',
  finished: 'Finished',
  dnf: 'DNF',
  dns: 'DNS',
};
/** Why a rider did not finish: the first two staff decide, the last two the rules derive (staff may set them too). */
export const DNF_REASONS = ['withdrew', 'staff', 'missed_cutoff', 'missed_required'] as const;
export type DnfReasonName = (typeof DNF_REASONS)[number];
export const DNF_REASON_LABELS: Record<DnfReasonName, string> = {
  withdrew: 'Withdrew',
  staff: 'Set by staff',
  missed_cutoff: 'Missed a cutoff',
  missed_required: 'Missed a required station',
};
/** A staff decision on a rider's day: DNF, DNS, or back to what the scans say. */
export const COURSE_DECISIONS = ['dnf', 'dns', 'clear'] as const;
export type CourseDecisionName = (typeof COURSE_DECISIONS)[number];
/** Stations that are on the course (kit and bike check happen before it). */
export const COURSE_STATION_KINDS = ['start', 'checkpoint', 'finish'] as const;
/** Minutes after the due time before a rider counts as overdue, unless the route's rules say otherwise. */
export const DEFAULT_OVERDUE_AFTER_MINUTES = 30;
/** The board's drill-down buckets. */
export const BOARD_BUCKETS = ['expected', 'passed', 'missed', 'overdue', 'dnf', 'dns'] as const;
export type BoardBucket = (typeof BOARD_BUCKETS)[number];
/** The push channel (PostgreSQL LISTEN/NOTIFY) and its event names, sent as SSE event names. */
export const EVENT_CHANNEL = 'rally_events';
export const EVENT_TYPES = ['scan', 'incident', 'course', 'position', 'receipt'] as const;
export type EventTypeName = (typeof EVENT_TYPES)[number];
