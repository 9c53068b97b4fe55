// Tracking riders between stations (DESIGN.md §11): Traccar Client's settings, the alert
// thresholds' defaults and the words the rider and the board read.
// One topic of the catalog: the rally's fixed content and business constants, defined once;
// the server's Postgres enums, the zod contracts and the web UI read them from here.

/** What Traccar Client is set to by the rider pass's QR code (its configuration link). */
export const TRACKING_CLIENT_SETTINGS = {
  /** Seconds between positions while moving. */
  interval: 60,
  /** Metres moved that also send one. */
  distance: 100,
  accuracy: 'high',
  /** Keep positions while there is no signal and send them, oldest first, when there is. */
  buffer: true,
} as const;

/**
 * Traccar Client's configuration link: the server URL carrying the tracking id, and the
 * settings as query parameters. Scanned from the rider pass, it sets the app up in one go.
 */
export function trackingSetupUrl(publicUrl: string, trackingId: string): string {
  const base = publicUrl.replace(/\/+$/, '');
  const s = TRACKING_CLIENT_SETTINGS;
  return `${base}/api/tracking/osmand?id=${encodeURIComponent(trackingId)}&interval=${s.interval}&distance=${s.distance}&accuracy=${s.accuracy}&buffer=${s.buffer}`;
}

/** The states a tracked rider is in on the board. */
export const TRACK_STATES = ['moving', 'stopped', 'no_signal', 'off_route', 'finished', 'dnf'] as const;
export type TrackState = (typeof TRACK_STATES)[number];
export const TRACK_STATE_LABELS: Record<TrackState, string> = {
  moving: 'Moving',
  stopped: 'Stopped',
  no_signal: 'No signal',
  off_route: 'Off route',
  finished: 'Finished',
  dnf: 'DNF',
};
/** Colours of the board's map (bold, readable in the sun; the same in the legend). */
export const TRACK_STATE_COLORS: Record<TrackState, string> = {
  moving: '#16a34a',
  stopped: '#f59e0b',
  no_signal: '#6b7280',
  off_route: '#dc2626',
  finished: '#2563eb',
  dnf: '#111827',
};

/** Defaults of the server's settings (TRACKING_STOPPED_MIN, TRACKING_OFF_ROUTE_M). */
export const TRACKING_DEFAULTS = {
  stoppedMinutes: 15,
  offRouteM: 500,
} as const;
/** A rider who has not moved beyond this many metres is not moving. */
export const STOPPED_RADIUS_M = 100;
/** Positions in a row beyond the off-route distance that raise the alert. */
export const OFF_ROUTE_POSITIONS = 3;
/** Within this many metres of a station, a stop is the station's business (fuel, food, a check). */
export const STATION_RADIUS_M = 300;
/** No position for this long: "no signal" on the board (not an incident: mountains). */
export const NO_SIGNAL_AFTER_MS = 10 * 60_000;
/** Battery at or below this (percent), not charging: "low battery" on the board. */
export const LOW_BATTERY_PERCENT = 20;
/** A position more than this far ahead of the server's clock is refused. */
export const POSITION_FUTURE_MS = 24 * 60 * 60_000;
/** Knots to metres per second (Traccar Client's form speed is in knots). */
export const KNOTS_TO_MS = 1852 / 3600;

/** The consent a rider gives to be tracked: what is collected, who sees it, how long it is kept. */
export const TRACKING_CONSENT_VERSION = '2026-12-06';
export const TRACKING_CONSENT_TEXT = [
  'While you ride, your phone sends its position (place, time, speed, battery) to the rally about once a minute.',
  'Only the safety team (staff who handle incidents) sees where you are. Followers and the public never see your live position.',
  'If you stop for a long time away from a station, or leave the route, the safety team is alerted and may call you.',
  'Your positions are deleted 30 days after the edition ends. You can turn tracking off at any time here; it stops at once.',
];

/** What the rider pass says under the QR code. */
export const TRACKING_SETUP_STEPS = [
  'Install Traccar Client (free) from the Play Store or the App Store.',
  'Open it, tap the QR icon and scan this code: the server and your tracking id are set for you.',
  'Switch the service on. Keep the app running for the whole ride.',
];
export const TRACKING_BATTERY_HINT =
  'Battery settings: turn off battery optimisation (Settings → Apps → Traccar Client → Battery → Unrestricted) and power saving mode, or the phone stops the app when the screen is off.';

/** Reasons staff give for dismissing a tracker alert, offered as quick picks. */
export const DISMISS_REASON_EXAMPLES = ['Fuel stop', 'Lunch stop', 'Called the rider: all fine', 'Repair by the road'];
