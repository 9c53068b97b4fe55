// Kit tracker contracts: verified riders with their kit status, and the kit stats.
// Staff lists are snake_case; the stats keep the camelCase the console has always read.
import { z } from 'zod';
import { KIT_PAGE_SIZE } from '../catalog/console';
import { envelope, intParam, pagination } from './common';

export const KIT_SORT_FIELDS = ['verification_date', 'name', 'rider_number', 'payment_amount'] as const;
export type KitSortField = (typeof KIT_SORT_FIELDS)[number];
export const KIT_FILTERS = ['all', 'pending', 'completed'] as const;
export type KitFilter = (typeof KIT_FILTERS)[number];
export const SORT_ORDERS = ['desc', 'asc'] as const;
export type SortOrder = (typeof SORT_ORDERS)[number];

export const KIT_NOTES_MAX = 2000;
export const KIT_BULK_MAX = 200;
/** The three hand-over flags, as the API names them. */
export const KIT_GIVEN_FIELDS = ['tshirt_given', 'vest_given', 'finisher_sleeve_given'] as const;
export type KitGivenField = (typeof KIT_GIVEN_FIELDS)[number];

const oneOf = <T extends readonly [string, ...string[]]>(field: string, values: T) =>
  z.enum(values, { message: `${field} must be one of: ${values.join(', ')}` });

export const kitListQuery = z.object({
  page: intParam('page', { min: 1, max: 100_000, default: 1 }),
  limit: intParam('limit', { min: 1, max: 200, default: KIT_PAGE_SIZE }),
  search: z.string().trim().max(200, { message: 'search must be at most 200 characters' }).optional(),
  sort_by: oneOf('sort_by', KIT_SORT_FIELDS).default('verification_date'),
  sort_order: oneOf('sort_order', SORT_ORDERS).default('desc'),
  filter_status: oneOf('filter_status', KIT_FILTERS).default('all'),
});
export type KitListQuery = z.infer<typeof kitListQuery>;

export const kitSizes = z.object({
  tshirt: z.string().nullable(),
  vest: z.string().nullable(),
  finisher_sleeve: z.string().nullable(),
  custom_tshirt: z.string().nullable(),
  custom_vest: z.string().nullable(),
  custom_finisher_sleeve: z.string().nullable(),
});

export const kitParticipant = z.object({
  user_id: z.string(),
  kit_name: z.string().nullable(),
  participant_name: z.string(),
  email: z.string(),
  phone_number: z.string().nullable(),
  rider_number: z.number().int().nullable(),
  category: z.string().nullable(),
  payment_amount: z.number().nullable(),
  club_name: z.string().nullable(),
  sizes: kitSizes,
  tshirt_given: z.boolean(),
  vest_given: z.boolean(),
  finisher_sleeve_given: z.boolean(),
  tshirt_given_at: z.string().nullable(),
  vest_given_at: z.string().nullable(),
  finisher_sleeve_given_at: z.string().nullable(),
  kit_notes: z.string().nullable(),
  kit_last_updated: z.string().nullable(),
  verification_date: z.string().nullable(),
  verified_by: z.string().nullable(),
});
export type KitParticipant = z.infer<typeof kitParticipant>;

export const kitStats = z.object({
  total: z.number().int(),
  pendingKits: z.number().int(),
  completedKits: z.number().int(),
  totalAmount: z.number(),
  actualPayments: z.number().optional(),
  itemsGiven: z.object({ tshirts: z.number().int(), vests: z.number().int(), sleeves: z.number().int() }),
});
export type KitStats = z.infer<typeof kitStats>;

export const kitListResponse = envelope(
  z.object({ participants: z.array(kitParticipant), pagination, stats: kitStats }),
);
export type KitListResponse = z.infer<typeof kitListResponse>;

const notesField = z
  .string({ message: 'notes must be text' })
  .max(KIT_NOTES_MAX, { message: `notes must be at most ${KIT_NOTES_MAX} characters` });
const givenField = (field: string) => z.boolean({ message: `${field} must be true or false` });

const itemFields = {
  tshirt_given: givenField('tshirt_given').optional(),
  vest_given: givenField('vest_given').optional(),
  finisher_sleeve_given: givenField('finisher_sleeve_given').optional(),
  notes: notesField.optional(),
};
const CHANGE_FIELDS = ['tshirt_given', 'vest_given', 'finisher_sleeve_given', 'notes'] as const;
const changedCount = (v: Record<string, unknown>) => CHANGE_FIELDS.filter((f) => v[f] !== undefined).length;

/** One change per call: a checkbox toggle or the notes' autosave. */
export const kitUpdateBody = z
  .strictObject(itemFields, {
    error: (issue) =>
      issue.code === 'unrecognized_keys'
        ? `Unknown field: ${issue.keys.join(', ')}. Send one of tshirt_given, vest_given, finisher_sleeve_given or notes`
        : 'The body must be an object',
  })
  .refine((v) => changedCount(v) === 1, {
    message: 'Send exactly one of tshirt_given, vest_given, finisher_sleeve_given or notes',
  });
export type KitUpdateBody = z.infer<typeof kitUpdateBody>;

/** One item of a bulk update; checked item by item so the error can name the item. */
export const kitBulkItem = z
  .strictObject(
    { user_id: z.uuid({ message: 'user_id must be a valid id' }), ...itemFields },
    {
      error: (issue) =>
        issue.code === 'unrecognized_keys'
          ? `Unknown field: ${issue.keys.join(', ')}`
          : 'each update must be an object',
    },
  )
  .refine((v) => changedCount(v) >= 1, {
    message: 'needs at least one of tshirt_given, vest_given, finisher_sleeve_given or notes',
  });
export type KitBulkItem = z.infer<typeof kitBulkItem>;

export const kitBulkBody = z.object({
  updates: z
    .array(z.unknown(), { message: 'updates must be a list' })
    .min(1, { message: 'updates must hold at least one item' })
    .max(KIT_BULK_MAX, { message: `updates may hold at most ${KIT_BULK_MAX} items` }),
});

export const kitUpdateResponse = envelope(kitParticipant);
export const kitBulkResponse = envelope(z.object({ updated: z.number().int(), participants: z.array(kitParticipant) }));

/** POST /api/admin/kit-tracking/{userId}/hand-over-all (manage_kits): the three items at once, as the Kit Tracker records them. */
export const KIT_ALL_GIVEN = { tshirt_given: true, vest_given: true, finisher_sleeve_given: true } as const;
/** GET /api/admin/kit-tracking/{userId} (qr_scan or manage_kits): one rider's kit, read-only for scanners. */
export const kitStateResponse = kitUpdateResponse;
