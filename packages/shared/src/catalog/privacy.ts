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
