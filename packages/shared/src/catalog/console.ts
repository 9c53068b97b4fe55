// The staff console: page sizes and limits, kit items, log filters, activity types and
// the rider-number badge colours.
// One topic of the catalog: the rally's fixed content and business constants, defined once;
// the server's Postgres enums, the zod contracts and the web UI read them from here.

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
  // Editions: one made, or its dates, window or settings changed.
  'edition_updated',
  // Course rules and staff DNF/DNS decisions, audited.
  'course_rules_updated',
  'course_decision',
  // Tracking: a trial's route line (GPX) uploaded or removed.
  'route_track_updated',
  // Tracking: a rider turned their tracker on (with the consent read) or off.
  'tracking_consent',
  // Receipts (issue 44): staff typed or corrected what was read; a payment statement uploaded.
  'receipt_corrected',
  'statement_uploaded',
  // Privacy (issue 43): a rider's erasure request approved or refused; a notice published; a
  // rider's data prepared by staff for a request by letter.
  'erasure_decided',
  'privacy_notice_published',
  'data_export_prepared',
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
