// The rally's fixed content and business constants of the rider site and the staff
// console. Defined once; the server's Postgres enums, the zod
// contracts and the web UI all read from here.

export const ROLES = ['admin', 'marshall', 'officer', 'developer', 'guest', 'participant'] as const;
export type Role = (typeof ROLES)[number];
export const DEFAULT_ROLE: Role = 'participant';

export const ROLE_LABELS: Record<Role, string> = {
  admin: 'Admin',
  marshall: 'Marshall',
  officer: 'Officer',
  developer: 'Developer',
  guest: 'Guest Rider',
  participant: 'Participant',
};
/** The label staff lists and the edit modal use for guests. */
export const GUEST_STAFF_LABEL = 'Guest (Organizer Sponsored)';

export const STAFF_ROLES = ['admin', 'marshall', 'developer', 'officer'] as const satisfies readonly Role[];
/** Rider accounts, as opposed to staff ones. */
export const RIDER_ROLES = ['participant', 'guest'] as const satisfies readonly Role[];
/** Roles that land on /admin after login or verification (others land on /me). */
export const ADMIN_LANDING_ROLES = ['admin', 'marshall'] as const satisfies readonly Role[];
/** Roles that see the Admin Panel entry in the My Profile menu. */
export const ADMIN_PANEL_ROLES = ['admin', 'officer', 'marshall', 'developer'] as const satisfies readonly Role[];
export const PRINT_QR_ROLES = ['admin', 'developer'] as const satisfies readonly Role[];

export const VERIFICATION_STATUSES = ['pending', 'verified', 'rejected'] as const;
export type VerificationStatus = (typeof VERIFICATION_STATUSES)[number];
export const VERIFICATION_ACTIONS = ['verified', 'rejected'] as const;
export type VerificationAction = (typeof VERIFICATION_ACTIONS)[number];

export const USER_STATUSES = ['active', 'inactive'] as const;
export type UserStatus = (typeof USER_STATUSES)[number];

export const GENDERS = ['male', 'female'] as const;
export type Gender = (typeof GENDERS)[number];

export const PAYMENT_METHODS = ['cash', 'gcash', 'bank_transfer'] as const;
export type PaymentMethod = (typeof PAYMENT_METHODS)[number];
export const PAYMENT_METHOD_LABELS: Record<PaymentMethod, string> = {
  cash: 'Cash',
  gcash: 'GCash',
  bank_transfer: 'Bank Transfer',
};

export const BASE_CATEGORIES = ['lakambini', 'lakan', 'bagani', 'magani'] as const;
export type BaseCategory = (typeof BASE_CATEGORIES)[number];
export const CATEGORIES = [
  'lakambini',
  'lakan',
  'bagani',
  'magani',
  'lakambini-obr',
  'lakan-obr',
  'bagani-obr',
  'magani-obr',
] as const;
export type Category = (typeof CATEGORIES)[number];

export const OBR_DISCOUNT = 200;
export const OBR_BADGE = 'P200 OFF';

/** Base prices in pesos. Magani is the men's track of Lakambini and costs the same. */
export const PRICES: Record<Category | 'guest', number> = {
  lakambini: 2700,
  lakan: 2700,
  bagani: 3000,
  magani: 2700,
  'lakambini-obr': 2500,
  'lakan-obr': 2500,
  'bagani-obr': 2800,
  'magani-obr': 2500,
  guest: 0,
};

export const EARLY_BIRD = { active: false, percent: 10, fixedDiscount: 300, guestDiscount: 0 } as const;

/** The amount a rider owes for a category; computed on the server, shown on the client. */
export function paymentAmountFor(category: Category | 'guest'): number {
  const price = PRICES[category];
  if (!EARLY_BIRD.active || category === 'guest') return price;
  return Math.max(0, price - EARLY_BIRD.fixedDiscount);
}

/** A man choosing lakambini (the women's track) rides magani. */
export function normaliseCategory(category: Category, gender: Gender | undefined | null): Category {
  if (gender !== 'male') return category;
  if (category === 'lakambini') return 'magani';
  if (category === 'lakambini-obr') return 'magani-obr';
  return category;
}

export function isObr(category: string | null | undefined): boolean {
  return typeof category === 'string' && category.endsWith('-obr');
}

export function baseCategoryOf(category: string | null | undefined): BaseCategory | null {
  if (!category) return null;
  const base = category.replace(/-obr$/, '');
  return (BASE_CATEGORIES as readonly string[]).includes(base) ? (base as BaseCategory) : null;
}

export const CATEGORY_DISPLAY: Record<BaseCategory, { name: string; distance: string; tagline: string }> = {
  bagani: { name: 'BAGANI', distance: '1213KM+', tagline: 'Elite warriors only' },
  lakan: { name: 'LAKAN', distance: '603KM+', tagline: 'Chiefs challenge' },
  lakambini: { name: 'LAKAMBINI', distance: '300KM+', tagline: 'Queens of the road' },
  magani: { name: 'MAGANI', distance: '300KM+', tagline: 'Warriors of the road' },
};

/**
 * Display data of a category. Unknown or unset categories show as bagani (rider side);
 * pass `unsetAs: 'not-set'` for the staff user list, which shows NOT SET / TBD.
 */
export function categoryDisplay(
  category: string | null | undefined,
  opts: { gender?: string | null; unsetAs?: 'bagani' | 'not-set' } = {},
): { name: string; distance: string; tagline: string; obr: boolean } {
  let base = baseCategoryOf(category);
  if (base === 'lakambini' && opts.gender === 'male') base = 'magani';
  if (!base) {
    if (opts.unsetAs === 'not-set' && !category) return { name: 'NOT SET', distance: 'TBD', tagline: '', obr: false };
    base = 'bagani';
  }
  const d = CATEGORY_DISPLAY[base];
  return { ...d, name: isObr(category) ? `${d.name} OBR` : d.name, obr: isObr(category) };
}

export const SIZES = ['XS', 'S', 'M', 'L', 'XL', 'XXL', 'XXXL', 'CUSTOM'] as const;
export type Size = (typeof SIZES)[number];
/** Sizing guide by chest, in inches. */
export const SIZE_CHEST_GUIDE: Record<Exclude<Size, 'CUSTOM'>, string> = {
  XS: '30-32',
  S: '34-36',
  M: '38-40',
  L: '42-44',
  XL: '46-48',
  XXL: '50-52',
  XXXL: '54-56',
};
export const CUSTOM_SIZE_MAX = 50;

// The rider number's range and picker live in their own topic file; named here too for the
// modules that still read them from the catalog.
export { RIDER_NUMBER_MAX, RIDER_NUMBER_MIN, RIDER_NUMBER_RANGES, RIDER_NUMBERS_PER_PAGE } from './rider-number';

export const PASSWORD_MIN_LENGTH = 8;
export const MAX_UPLOAD_BYTES = 10 * 1024 * 1024;
export const UPLOAD_TOO_LARGE_MESSAGE = 'File size must be less than 10MB';
/** Re-encoded images are capped to this many pixels on their longest side. */
export const IMAGE_MAX_EDGE = 2048;
/** Uploads whose declared dimensions exceed this are refused before decoding (pixel floods). */
export const IMAGE_MAX_INPUT_PIXELS = 40_000_000;
/**
 * Smaller copies of a profile picture, by their longest edge in pixels (`?size=`): `thumb`
 * for avatars in lists and the scanner's offline roster, `display` for the head of a
 * profile (160 CSS px at up to 3 device pixels). A stored picture can be 2048 px; a list
 * of commenters on mobile data should not download it twenty times.
 */
export const PROFILE_IMAGE_SIZES = { thumb: 128, display: 480 } as const;
export type ProfileImageSize = keyof typeof PROFILE_IMAGE_SIZES;

export const REQUEST_TIMEOUT_MS = 15_000;
export const VERIFY_POLL_INTERVAL_MS = 30_000;
export const REDIRECT_DELAY_MS = 2_000;
export const SUCCESS_DIALOG_MS = 4_000;
export const SHARE_COPY_CONFIRM_MS = 2_000;
export const COMMENTS_PAGE_SIZE = 20;
/**
 * The web client's TanStack Query key for a rider's public profile. The server renders
 * /user/{id} with the profile's answer under this key, inlined in the page, so the
 * hydrating client finds it there and asks nothing again.
 */
export const publicProfileQueryKey = (id: string) => ['public-profile', id] as const;
/**
 * One query's answer a server-rendered page was drawn with, inlined in its HTML for the web
 * client's query cache: the contract between the server (lib/page-renderer.ts) and the web
 * renderer (entry-server.tsx, lib/query-seed.ts).
 */
export interface SeededQuery {
  queryKey: readonly unknown[];
  data: unknown;
}
/**
 * My Profile's queries that the server answers when it renders /me for a signed-in rider
 * (modules/profiles/my-profile-page.routes.ts), under the keys the web client asks with.
 */
export const MY_PROFILE_QUERY_KEYS = {
  tshirt: ['my-tshirt-size'],
  gear: ['my-gear-sizes'],
} as const;
/**
 * The key of the signed-in user's record in a page the server rendered for them: the session
 * it checked (its cookie, SESSION_COOKIE), which the client adopts instead of showing the
 * checking spinner first (its own check still follows).
 */
export const SESSION_SEED_KEY = ['session'] as const;
/**
 * The cookie that lets the server render a signed-in rider's own page (/me): set by the server
 * only (HttpOnly, Path=/me and /profile), holding a credential that opens that page alone, not
 * the bearer token (apps/server/src/lib/session-cookie.ts). The API never reads it.
 */
export const SESSION_COOKIE = 'rally_session';
/**
 * Its script-readable mark, set and cleared by the server with it: the client deletes the mark
 * on sign-out, offline too, and the server renders the page only when both come.
 */
export const SESSION_MARK_COOKIE = 'rally_session_mark';
export const TOAST_LIMIT = 20;
export const TOAST_ERROR_MS = 4_000;
export const TOAST_SUCCESS_MS = 2_000;

export const STORAGE_KEYS = { token: 'authToken', user: 'userData', verificationCode: 'verificationCode' } as const;

/**
 * Smallest QR version for rider codes. At version 1 (21x21) a centre logo of 25% damages
 * up to ~8 of 26 codewords, the very limit of level H, and some codes stopped scanning;
 * from version 5 the damage spreads over four interleaved blocks with room to spare.
 */
export const RIDER_QR_MIN_VERSION = 5;

export const SESSION_TTL_MS = 7 * 24 * 60 * 60 * 1000;
export const RESET_LINK_TTL_MS = 60 * 60 * 1000;

// Staff console constants: page sizes and limits.
export const KIT_PAGE_SIZE = 50;
export const KIT_ITEM_COUNT = 3;
export const KIT_ITEMS = ['tshirt', 'vest', 'finisher_sleeve'] as const;
export type KitItem = (typeof KIT_ITEMS)[number];
export const KIT_ITEM_LABELS: Record<KitItem, string> = {
  tshirt: 'T-shirt',
  vest: 'Vest',
  finisher_sleeve: 'Finisher Sleeve',
};
export const NOTES_AUTOSAVE_MS = 1_000;
export const PENDING_VERIFICATIONS_PAGE_SIZE = 20;
export const VERIFICATION_HISTORY_PAGE_SIZE = 20;
export const ID_CARD_PAGE_SIZE = 20;
export const LOGS_PAGE_SIZE = 50;
export const RECENT_ACTIVITIES_LIMIT = 20;
export const PASSWORD_RESET_HISTORY_LIMIT = 50;
export const ANNOUNCEMENT_TITLE_MAX = 255;
export const LOG_TYPES = ['activities', 'verifications', 'login_activities'] as const;
export type LogType = (typeof LOG_TYPES)[number];
export const LOG_DATE_RANGES = ['all', 'today', 'week', 'month'] as const;
export type LogDateRange = (typeof LOG_DATE_RANGES)[number];

export const BIKE_CHECK_STATUSES = ['Not Started', 'Preparing', 'Ready', 'Deployed'] as const;
export const DEFAULT_BIKE_CHECK_STATUS = 'Not Started';
export const DEFAULT_RIDER_KIT_STATUS = 'Preparing';

export const ACTIVITY_TYPES = [
  'user_registration',
  'status_change',
  'role_change',
  'user_update',
  'user_deleted',
  'verification',
  'verification_undo',
  // A rejected rider sent a new receipt and went back to the queue.
  'verification_resubmitted',
  'fire_earned',
  'comment_added',
  'kit_handover',
  'kit_notes',
  'size_submitted',
  'id_card_printed',
  'medical_info_updated',
  'password_reset_generated',
  'password_reset_requested',
  'password_reset_completed',
  'password_resets_cleanup',
  'announcement',
  'rider_number_assigned',
  'file_uploaded',
  'file_deleted',
  'checkpoint_scan',
  'sos_call',
  'rally_completion',
  // Event day: station changes and flagged-scan decisions, audited.
  'station_updated',
  'scan_reviewed',
  // Organisers' toolkit (issue 17): spreadsheet downloads and QR sticker sheets, audited.
  'export_downloaded',
  'sticker_sheet_printed',
  // SOS and incidents: every change of an incident, and the event settings.
  'incident_updated',
  'event_settings_updated',
  // Course rules and staff DNF/DNS decisions, audited.
  'course_rules_updated',
  'course_decision',
] as const;
export type ActivityType = (typeof ACTIVITY_TYPES)[number];
export const ACTIVITY_PRIORITIES = ['high', 'normal', 'low'] as const;
export type ActivityPriority = (typeof ACTIVITY_PRIORITIES)[number];

/** Rider-number badges take one of 16 colours, chosen by number. */
export const RIDER_BADGE_COLORS = [
  '#dc2626',
  '#ea580c',
  '#d97706',
  '#ca8a04',
  '#65a30d',
  '#16a34a',
  '#059669',
  '#0d9488',
  '#0891b2',
  '#0284c7',
  '#2563eb',
  '#4f46e5',
  '#7c3aed',
  '#9333ea',
  '#c026d3',
  '#db2777',
] as const;
export function riderBadgeColor(riderNumber: number): string {
  return RIDER_BADGE_COLORS[Math.abs(Math.trunc(riderNumber)) % RIDER_BADGE_COLORS.length] ?? RIDER_BADGE_COLORS[0];
}

// Routes of the landing-page picker (fixed content).
export type WaypointType = 'start' | 'checkpoint' | 'major' | 'mountain';
export interface Waypoint {
  position: [number, number];
  name: string;
  type: WaypointType;
  description?: string;
}
export interface RallyRoute {
  id: 'lakambini' | 'lakan' | 'bagani';
  name: string;
  distance: string;
  tagline: string;
  color: string;
  loop: Array<[number, number]>;
  waypoints: Waypoint[];
}

const DAVAO: [number, number] = [7.0731, 125.6128];

export const RALLY_ROUTES: Record<RallyRoute['id'], RallyRoute> = {
  lakambini: {
    id: 'lakambini',
    name: 'Lakambini/Magani',
    distance: '359KM',
    tagline: 'Open to all riders',
    color: '#ec4899',
    loop: [DAVAO, [7.5306, 125.2472], [7.205, 125.4533], [7.0167, 125.4833], DAVAO],
    waypoints: [
      { position: DAVAO, name: 'Davao City', type: 'start' },
      { position: [7.5306, 125.2472], name: 'Marilog', type: 'checkpoint' },
      { position: [7.205, 125.4533], name: 'Calinan', type: 'checkpoint' },
      { position: [7.0167, 125.4833], name: 'Toril', type: 'checkpoint' },
    ],
  },
  lakan: {
    id: 'lakan',
    name: 'Lakan',
    distance: '603KM',
    tagline: 'Open/Mixed',
    color: '#14b8a6',
    loop: [DAVAO, [6.1164, 125.1716], [6.5008, 124.8469], [8.0542, 124.9236], DAVAO],
    waypoints: [
      { position: DAVAO, name: 'Davao City', type: 'start' },
      { position: [6.1164, 125.1716], name: 'General Santos', type: 'major', description: 'Major stop' },
      { position: [6.5008, 124.8469], name: 'Koronadal', type: 'mountain', description: 'Mountain pass' },
      { position: [8.0542, 124.9236], name: 'Bukidnon', type: 'mountain', description: 'Highland challenge' },
    ],
  },
  bagani: {
    id: 'bagani',
    name: 'Bagani',
    distance: '1213KM',
    tagline: 'Elite warriors only',
    color: '#f97316',
    loop: [DAVAO, [6.1164, 125.1716], [6.9214, 122.079], [8.4542, 124.6319], [6.9874, 125.2733], DAVAO],
    waypoints: [
      { position: DAVAO, name: 'Davao City', type: 'start' },
      { position: [6.1164, 125.1716], name: 'General Santos', type: 'checkpoint' },
      { position: [8.4542, 124.6319], name: 'Cagayan de Oro', type: 'major', description: 'Major stop' },
      { position: [6.9214, 122.079], name: 'Zamboanga', type: 'checkpoint', description: 'Western challenge' },
      { position: [6.9874, 125.2733], name: 'Mt. Apo', type: 'mountain', description: 'Sacred Peak' },
    ],
  },
};
export const DEFAULT_ROUTE: RallyRoute['id'] = 'bagani';
export const MAP_CENTER: [number, number] = [7.5, 125];
export const MAP_ZOOM = 7;
export const MAP_HEIGHT_PX = 500;
export const MAP_TILE_URL = 'https://{s}.tile.openstreetmap.org/{z}/{x}/{y}.png';
export const MAP_TILE_HOST = 'https://*.tile.openstreetmap.org';
export const MARKER_COLORS: Record<WaypointType, string | null> = {
  start: '#16a34a',
  mountain: '#7c3aed',
  major: '#f59e0b',
  checkpoint: null,
};

export const EVENT = {
  name: 'Mindanao Warriors Endurance Rally',
  dates: 'November 15-16, 2025',
  registration: 'Open now — limited slots',
  terrain: 'Highways, mountain passes and highland roads across Mindanao',
  insurers: { standard: 'Insurer for Lakambini, Magani and Lakan', bagani: 'Insurer for Bagani' },
} as const;

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
export const SCAN_SOURCES = ['camera', 'manual'] as const;
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
};
export const SCAN_REVIEW_DECISIONS = ['accept', 'void'] as const;
/** A device clock further off the server's than this flags the scan. */
export const SCAN_CLOCK_SKEW_MS = 24 * 60 * 60 * 1000;

/** What a rider in trouble says happened (POST /api/my/sos). */
export const INCIDENT_KINDS = ['crash', 'medical', 'mechanical', 'lost', 'other'] as const;
export type IncidentKind = (typeof INCIDENT_KINDS)[number];
export const INCIDENT_KIND_LABELS: Record<IncidentKind, string> = {
  crash: 'Crash',
  medical: 'Medical',
  mechanical: 'Mechanical',
  lost: 'Lost',
  other: 'Other',
};
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
export const EVENT_TYPES = ['scan', 'incident', 'course'] as const;
export type EventTypeName = (typeof EVENT_TYPES)[number];
