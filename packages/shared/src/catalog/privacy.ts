// What the Data Privacy Act (RA 10173) and DESIGN.md §12 call sensitive in a staff answer:
// the kinds whose every read is logged (who looked), and the answer keys that carry each.

export const SENSITIVE_KINDS = ['medical', 'emergency_contact', 'birthdate', 'licence', 'position'] as const;
export type SensitiveKind = (typeof SENSITIVE_KINDS)[number];

/** How My Profile and the console name each kind. */
export const SENSITIVE_KIND_LABELS: Record<SensitiveKind, string> = {
  medical: 'Medical notes',
  emergency_contact: 'Emergency contact',
  birthdate: 'Birthdate',
  licence: 'Licence',
  position: 'Position',
};

/**
 * Every key under which an answer (JSON, or an export's row) carries a sensitive kind, as the
 * API spells it (camelCase, and snake_case where the specs use it). A key holding null or
 * an empty text carries nothing. A new answer field of one of these kinds must be named here:
 * modules/data-access/data-access.test.ts reads every staff answer for the seeded values.
 */
export const SENSITIVE_KEYS: Readonly<Record<string, SensitiveKind>> = {
  bloodType: 'medical',
  blood_type: 'medical',
  allergies: 'medical',
  medicalConditions: 'medical',
  medical_conditions: 'medical',
  emergencyContactName: 'emergency_contact',
  emergencyContactNumber: 'emergency_contact',
  emergency_contact_name: 'emergency_contact',
  emergency_contact_number: 'emergency_contact',
  emergencyName: 'emergency_contact',
  emergencyNumber: 'emergency_contact',
  birthdate: 'birthdate',
  licenseNumber: 'licence',
  license_number: 'licence',
  lat: 'position',
  lon: 'position',
  lng: 'position',
  latitude: 'position',
  longitude: 'position',
};

/**
 * The optional purposes a rider consents to separately (DESIGN.md §12): none is a condition of
 * entering the rally, each is withdrawn in My Profile with effect at once. A rider who never
 * chose has the rally's default (`CONSENT_DEFAULTS`): what the specs promise every rider.
 */
export const CONSENT_PURPOSES = ['public_profile', 'followers', 'tracking', 'public_photo'] as const;
export type ConsentPurpose = (typeof CONSENT_PURPOSES)[number];

export const CONSENT_PURPOSE_LABELS: Record<ConsentPurpose, { title: string; detail: string }> = {
  public_profile: {
    title: 'Public profile',
    detail: 'Your kit name, number, motorcycle, club and what riders write there, on a page anyone can open.',
  },
  followers: {
    title: 'Followers',
    detail: 'Family and friends with your follow link hear when you pass a checkpoint or finish.',
  },
  tracking: {
    title: 'Live tracking',
    detail: 'Your phone sends its position to the safety team while you ride.',
  },
  public_photo: {
    title: 'Photo on your public page',
    detail: 'Your profile picture shows on your public profile.',
  },
};

/** A rider who never chose: the specs' public profile, photo and follow link; tracking is opt-in. */
export const CONSENT_DEFAULTS: Record<ConsentPurpose, boolean> = {
  public_profile: true,
  followers: true,
  tracking: false,
  public_photo: true,
};

/** Where a consent was given: stored with it, shown back to the rider. */
export const CONSENT_SCREENS = ['registration', 'join', 'tracking', 'sign-in', 'my-profile'] as const;
export type ConsentScreen = (typeof CONSENT_SCREENS)[number];

/** What the daily job removes or anonymises after an edition ends (DESIGN.md §12). */
export const RETENTION_KINDS = ['medical', 'contact', 'positions', 'receipts', 'incidents'] as const;
export type RetentionKind = (typeof RETENTION_KINDS)[number];

/** Days after the edition's last day; the organiser sets them per edition. */
export const RETENTION_DEFAULTS: Record<RetentionKind, number> = {
  medical: 30,
  contact: 30,
  positions: 30,
  receipts: 365,
  incidents: 730,
};

export const RETENTION_KIND_LABELS: Record<RetentionKind, string> = {
  medical: 'Medical notes',
  contact: 'Emergency contacts',
  positions: 'Positions',
  receipts: 'Payment receipts',
  incidents: 'Incidents',
};

/** How long a prepared data export is offered. */
export const DATA_EXPORT_DAYS = 7;
