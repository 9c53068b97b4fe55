// QR sticker (ID card) contracts: the generator's list of riders and the sticker page's data.
import { z } from 'zod';
import { ID_CARD_PAGE_SIZE } from '../catalog/console';
import { envelope, intParam, pagination } from './common';

export const BLOOD_TYPES = ['A+', 'A-', 'B+', 'B-', 'AB+', 'AB-', 'O+', 'O-'] as const;
export const MEDICAL_TEXT_MAX = 500;
export const PRINT_NOTES_MAX = 500;

export const idCardSearchQuery = z.object({
  search: z.string().trim().max(200, { message: 'search must be at most 200 characters' }).optional(),
  page: intParam('page', { min: 1, max: 100_000, default: 1 }),
  limit: intParam('limit', { min: 1, max: 200, default: ID_CARD_PAGE_SIZE }),
  isPrinted: z.enum(['true', 'false'], { message: 'isPrinted must be true or false' }).optional(),
});
export type IdCardSearchQuery = z.infer<typeof idCardSearchQuery>;

export const idCardUser = z.object({
  id: z.string(),
  first_name: z.string(),
  last_name: z.string(),
  kit_name: z.string().nullable(),
  email: z.string(),
  phone_number: z.string().nullable(),
  category: z.string().nullable(),
  rider_number: z.number().int().nullable(),
  is_printed: z.boolean(),
  print_count: z.number().int(),
  printed_at: z.string().nullable(),
});
export type IdCardUser = z.infer<typeof idCardUser>;

export const idCardSearchResponse = envelope(z.object({ users: z.array(idCardUser), pagination }));
export type IdCardSearchResponse = z.infer<typeof idCardSearchResponse>;

/** What the preview modal and the sticker page need: the list row plus the sticker fields. */
export const idCardDetail = idCardUser.extend({
  rider_code: z.string(),
  motorcycle_model: z.string().nullable(),
  emergency_contact_name: z.string().nullable(),
  emergency_contact_number: z.string().nullable(),
  blood_type: z.string().nullable(),
  allergies: z.string().nullable(),
  medical_conditions: z.string().nullable(),
});
export type IdCardDetail = z.infer<typeof idCardDetail>;
export const idCardDetailResponse = envelope(idCardDetail);
export type IdCardDetailResponse = z.infer<typeof idCardDetailResponse>;

export const markPrintedBody = z
  .object({
    notes: z
      .string({ message: 'notes must be text' })
      .trim()
      .max(PRINT_NOTES_MAX, { message: `notes must be at most ${PRINT_NOTES_MAX} characters` })
      .optional()
      .nullable(),
  })
  .optional();
export const markPrintedResponse = envelope(
  z.object({ id: z.string(), print_count: z.number().int(), printed_at: z.string() }),
);

/** A medical note (allergies, conditions): trimmed, at most MEDICAL_TEXT_MAX; null clears it. */
export const medicalText = (field: string) =>
  z
    .string({ message: `${field} must be text` })
    .trim()
    .max(MEDICAL_TEXT_MAX, { message: `${field} must be at most ${MEDICAL_TEXT_MAX} characters` })
    .nullable()
    .optional();

/** One of BLOOD_TYPES; '' or null clears it. */
export const bloodTypeField = (field: string) =>
  z
    .union([z.enum(BLOOD_TYPES), z.literal('')], { message: `${field} must be one of: ${BLOOD_TYPES.join(', ')}` })
    .nullable()
    .optional();

/** Absent fields stay as they are; null or an empty text clears one. */
export const medicalInfoBody = z
  .object({
    blood_type: bloodTypeField('blood_type'),
    allergies: medicalText('allergies'),
    medical_conditions: medicalText('medical_conditions'),
  })
  .refine((v) => v.blood_type !== undefined || v.allergies !== undefined || v.medical_conditions !== undefined, {
    message: 'Send at least one of blood_type, allergies or medical_conditions',
  });
export type MedicalInfoBody = z.infer<typeof medicalInfoBody>;
export const medicalInfoResponse = envelope(
  z.object({
    id: z.string(),
    blood_type: z.string().nullable(),
    allergies: z.string().nullable(),
    medical_conditions: z.string().nullable(),
  }),
);

export const idCardStats = z.object({
  total_users: z.number().int(),
  printed_count: z.number().int(),
  not_printed_count: z.number().int(),
  total_prints: z.number().int(),
});
export type IdCardStats = z.infer<typeof idCardStats>;
export const idCardStatsResponse = envelope(idCardStats);
