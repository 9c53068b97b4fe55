// Messages (DESIGN.md §10): the channels, what a delivery can be, and the texts people read
// on their phones. The server's templates and the web's screens read them from here.

export const MESSAGE_CHANNELS = ['push', 'email', 'sms'] as const;
export type MessageChannel = (typeof MESSAGE_CHANNELS)[number];
export const MESSAGE_CHANNEL_LABELS: Record<MessageChannel, string> = {
  push: 'Push',
  email: 'Email',
  sms: 'SMS',
};

export const MESSAGE_STATUSES = ['pending', 'sent', 'failed'] as const;
export type MessageStatus = (typeof MESSAGE_STATUSES)[number];
export const MESSAGE_STATUS_LABELS: Record<MessageStatus, string> = {
  pending: 'Queued',
  sent: 'Sent',
  failed: 'Failed',
};

/** What a message says: each is one template on the server (modules/messages/templates.ts). */
export const MESSAGE_TEMPLATES = [
  'registration_received',
  'verified',
  'rejected',
  'sos_acknowledged',
  'dnf_decided',
  'incident_opened',
  'incident_escalated',
  'follow_confirm',
  'follower_passage',
  'follower_finish',
  'follower_out',
  'sms_reply',
  'test_message',
] as const;
export type MessageTemplate = (typeof MESSAGE_TEMPLATES)[number];

/** What staff read for each template in the delivery log and an incident's timeline. */
export const MESSAGE_TEMPLATE_LABELS: Record<MessageTemplate, string> = {
  registration_received: 'Registration received',
  verified: 'Verified',
  rejected: 'Receipt rejected',
  sos_acknowledged: 'SOS answered (to the rider)',
  dnf_decided: 'DNF decision',
  incident_opened: 'New incident alert',
  incident_escalated: 'Unanswered SOS escalation',
  follow_confirm: 'Follow confirmation',
  follower_passage: 'Follower: station passed',
  follower_finish: 'Follower: finished',
  follower_out: 'Follower: out of the rally',
  sms_reply: 'Reply to a text',
  test_message: 'Test message',
};

/** A delivery is tried this many times, with growing waits, before it counts as failed. */
export const MESSAGE_MAX_ATTEMPTS = 6;
/** Seconds before try n+1 (the last one repeats). */
export const MESSAGE_BACKOFF_SECONDS = [10, 30, 120, 600, 1800] as const;

/** An unacknowledged incident is texted to the on-call phones after this many seconds, and again each period. */
export const DEFAULT_SOS_ESCALATE_AFTER_S = 120;

/** One SMS segment of 7-bit text; the gateway splits longer texts itself, up to this many parts. */
export const SMS_SEGMENT_CHARS = 160;
export const SMS_MAX_PARTS = 3;
/** The longest inbound text read at all; longer ones get the help text. */
export const INBOUND_TEXT_MAX = 480;

/** The text back to anything the SMS line does not understand. */
export const SMS_HELP_TEXT =
  'Rally SMS line. For help: SOS <rider no.> <what happened>, e.g. SOS 42 crash near the bridge. Marshals: <station code> <rider nos.> PIN <your PIN>, e.g. CP3 42 57 PIN 4821.';

/** A staff member's SMS PIN (PUT /api/my/sms-pin): what proves a text's scans are theirs. */
export const SMS_PIN_PATTERN = /^\d{4,8}$/;
export const SMS_PIN_RULE = 'pin must be 4 to 8 digits';
/** Wrong PINs from one number within an hour of the first that hold all its texts for review till that hour ends. */
export const SMS_PIN_WRONG_MAX = 5;
export const SMS_PIN_WINDOW_MS = 60 * 60_000;
/** Replies to texts that did nothing (help, refusals, scans held for review): per number, per day. */
export const SMS_REPLIES_PER_DAY = 3;
export const SMS_REPLY_WINDOW_MS = 24 * 60 * 60_000;
/** Help replies go abroad only to a number that belongs to an account: this country's code. */
export const SMS_HOME_COUNTRY_CODE = '+63';

export const NOTIFICATION_CHANNEL_HINTS = {
  email: 'Email: registration, verification and safety updates to your inbox.',
  push: 'Push: alerts on this phone, even when the page is closed.',
  sms: 'SMS: texts to your registered mobile number, for when data fails.',
  onCall: 'On call: every new SOS at once, and a text if nobody acknowledges it.',
} as const;

/** A station's short code for texts (CP3): letters then digits, unique. */
export const STATION_CODE_PATTERN = /^[A-Z][A-Z0-9]{0,7}$/;
export const STATION_CODE_MAX = 8;
/** The prefix of a generated station code, by kind (the migration numbered existing stations alike). */
export const STATION_CODE_PREFIXES = {
  kit: 'KIT',
  'bike-check': 'BC',
  start: 'ST',
  checkpoint: 'CP',
  finish: 'FIN',
} as const;

/** What an inbound text was understood as (inbound_texts.outcome; `received` while it is being handled). */
export const INBOUND_TEXT_OUTCOMES = [
  'received',
  'sos',
  'sos_refused',
  'scans',
  'scans_refused',
  'scans_unverified',
  'help',
  'ignored',
] as const;
export type InboundTextOutcome = (typeof INBOUND_TEXT_OUTCOMES)[number];
