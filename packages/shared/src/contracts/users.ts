// Staff-side user contracts: the admin user list, its edits and their checks.
// Staff lists are snake_case; the kit-size body keeps the camelCase names the console
// has always sent. The same schemas validate the server's input and type the console.
import { z } from 'zod';
import { ROLES, USER_STATUSES, VERIFICATION_STATUSES } from '../catalog/accounts';
import { CATEGORIES, CUSTOM_SIZE_MAX, SIZES } from '../catalog/registration';
import { birthdateText, envelope, limitParam, pageParam, pagination, TEXT_LIMITS } from './common';

const nullableString = z.string().nullable();

/** One user as staff lists show it (users list, user detail, masterlist rows). */
export const adminUser = z.object({
  id: z.string(),
  kit_name: nullableString,
  first_name: z.string(),
  last_name: z.string(),
  role_name: z.enum(ROLES),
  category: nullableString,
  gender: nullableString,
  motorcycle_model: nullableString,
  phone_number: nullableString,
  email: z.string(),
  address: nullableString,
  birthdate: nullableString,
  rider_number: z.number().int().nullable(),
  rider_code: nullableString,
  club_name: nullableString,
  emergency_contact_name: nullableString,
  emergency_contact_number: nullableString,
  tshirt_size: nullableString,
  custom_tshirt_size: nullableString,
  tshirt_submitted_at: nullableString,
  finisher_sleeve_size: nullableString,
  vest_size: nullableString,
  custom_finisher_sleeve_size: nullableString,
  custom_vest_size: nullableString,
  payment_method: nullableString,
  payment_amount: z.number().int().nullable(),
  status: z.enum(USER_STATUSES),
  verification_status: z.enum(VERIFICATION_STATUSES).nullable(),
  verification_code: nullableString,
  has_payment_receipt: z.boolean(),
  has_profile_image: z.boolean(),
  fires: z.number().int(),
  checkpoints: z.number().int(),
  bike_check_status: z.string(),
  rider_kit_status: z.string(),
  last_login: nullableString,
  created_at: z.string(),
});
export type AdminUser = z.infer<typeof adminUser>;

export const RIDER_NUMBER_FILTERS = ['all', 'with', 'without'] as const;
export type RiderNumberFilter = (typeof RIDER_NUMBER_FILTERS)[number];
/** The category filter adds 'not_set' (category null) to the eight categories. */
export const CATEGORY_FILTERS = [...CATEGORIES, 'not_set'] as const;
export const USERS_PAGE_SIZE = 20;
export const MAX_PAGE_SIZE = 100;

const searchParam = z
  .string({ message: 'search must be text' })
  .trim()
  .max(TEXT_LIMITS.search, { message: `search must be at most ${TEXT_LIMITS.search} characters` })
  .optional();

/** Query strings send '' for "no filter"; treat it as absent. */
const emptyAsUndefined = (v: unknown) => (v === '' || v === 'all' ? undefined : v);

export const listUsersQuery = z.object({
  page: pageParam,
  limit: limitParam(USERS_PAGE_SIZE),
  search: searchParam,
  role: z.preprocess(
    emptyAsUndefined,
    z.enum(ROLES, { message: `role must be one of: all, ${ROLES.join(', ')}` }).optional(),
  ),
  category: z.preprocess(
    emptyAsUndefined,
    z.enum(CATEGORY_FILTERS, { message: `category must be one of: all, ${CATEGORY_FILTERS.join(', ')}` }).optional(),
  ),
  riderNumber: z.preprocess(
    (v) => (v === '' ? undefined : v),
    z.enum(RIDER_NUMBER_FILTERS, { message: 'riderNumber must be one of: all, with, without' }).default('all'),
  ),
  status: z.preprocess(
    emptyAsUndefined,
    z.enum(USER_STATUSES, { message: 'status must be one of: all, active, inactive' }).optional(),
  ),
});
export type ListUsersQuery = z.infer<typeof listUsersQuery>;

export const usersListResponse = envelope(z.object({ users: z.array(adminUser), pagination }));
export const userResponse = envelope(z.object({ user: adminUser }));

/** Optional free text: '' and whitespace clear the field (stored as null). */
export const clearableText = (field: string, max: number) =>
  z.preprocess(
    (v) => (typeof v === 'string' && v.trim() === '' ? null : v),
    z
      .string({ message: `${field} must be text` })
      .trim()
      .max(max, { message: `${field} must be at most ${max} characters` })
      .nullable()
      .optional(),
  );

/** A real past date (YYYY-MM-DD); '' or null clears it. */
const birthdateField = z.preprocess(
  (v) => (typeof v === 'string' && v.trim() === '' ? null : v),
  birthdateText('birthdate must be a date (YYYY-MM-DD)').nullable().optional(),
);

const requiredText = (field: string, label: string, max: number) =>
  z
    .string({ message: `${label} is required` })
    .trim()
    .min(1, { message: `${label} is required` })
    .max(max, { message: `${field} must be at most ${max} characters` });

/**
 * PATCH /admin/users/{id}. Every field is optional (only sent fields change); kit name
 * and first name cannot be blanked, last name may be empty for one-word names, category
 * null is 'Not Set'. Unknown fields are refused rather than silently ignored.
 */
export const updateUserBody = z
  .strictObject(
    {
      first_name: requiredText('first_name', 'Full Name', TEXT_LIMITS.firstName).optional(),
      last_name: z
        .string({ message: 'last_name must be text' })
        .trim()
        .max(TEXT_LIMITS.lastName, { message: `last_name must be at most ${TEXT_LIMITS.lastName} characters` })
        .optional(),
      kit_name: requiredText('kit_name', 'Kit Name', TEXT_LIMITS.kitName).optional(),
      phone_number: clearableText('phone_number', TEXT_LIMITS.phoneNumber),
      address: clearableText('address', TEXT_LIMITS.address),
      birthdate: birthdateField,
      motorcycle_model: clearableText('motorcycle_model', TEXT_LIMITS.motorcycleModel),
      category: z
        .enum(CATEGORIES, { message: `category must be one of: ${CATEGORIES.join(', ')} (or null for Not Set)` })
        .nullable()
        .optional(),
      club_name: clearableText('club_name', TEXT_LIMITS.clubName),
      emergency_contact_name: clearableText('emergency_contact_name', TEXT_LIMITS.emergencyContactName),
      emergency_contact_number: clearableText('emergency_contact_number', TEXT_LIMITS.emergencyContactNumber),
    },
    { error: (issue) => (issue.code === 'unrecognized_keys' ? `Unknown field: ${issue.keys.join(', ')}` : undefined) },
  )
  .refine((b) => Object.values(b).some((v) => v !== undefined), { message: 'Nothing to update' });
export type UpdateUserBody = z.infer<typeof updateUserBody>;

export const statusBody = z.object({
  status: z.enum(USER_STATUSES, { message: 'status must be active or inactive' }),
});

/**
 * `roleId` is the role's name, not a number. Who may grant what: a developer may grant
 * any role; an admin may grant participant, guest, marshall and officer, never admin
 * (admins cannot see other admins, so an admin-made admin would vanish from its maker)
 * and never developer.
 */
export const roleBody = z.object({
  roleId: z.enum(ROLES, { message: `roleId must be one of: ${ROLES.join(', ')}` }),
});

export function grantableRoles(viewerRole: string | null | undefined): readonly (typeof ROLES)[number][] {
  if (viewerRole === 'developer') return ROLES;
  if (viewerRole === 'admin') return ['participant', 'guest', 'marshall', 'officer'];
  return [];
}

const sizeField = (field: string) =>
  z.preprocess(
    (v) => (v === '' ? null : v),
    z
      .enum(SIZES, { message: `${field} must be one of: ${SIZES.join(', ')} (or empty)` })
      .nullable()
      .optional(),
  );
const customField = (field: string) => clearableText(field, CUSTOM_SIZE_MAX);

/** PUT /admin/users/{id}/kit-sizes: null clears a size; CUSTOM needs its text. */
export const kitSizesBody = z
  .object({
    tshirtSize: sizeField('tshirtSize'),
    customTshirtSize: customField('customTshirtSize'),
    finisherSleeveSize: sizeField('finisherSleeveSize'),
    customFinisherSleeveSize: customField('customFinisherSleeveSize'),
    vestSize: sizeField('vestSize'),
    customVestSize: customField('customVestSize'),
  })
  .superRefine((b, ctx) => {
    const pairs = [
      ['tshirtSize', 'customTshirtSize', 'Please enter the custom T-shirt size.'],
      ['finisherSleeveSize', 'customFinisherSleeveSize', 'Please enter the custom finisher sleeve size.'],
      ['vestSize', 'customVestSize', 'Please enter the custom vest size.'],
    ] as const;
    for (const [size, custom, message] of pairs) {
      if (b[size] === 'CUSTOM' && !b[custom]) ctx.addIssue({ code: 'custom', message, path: [custom] });
    }
    if (Object.values(b).every((v) => v === undefined)) ctx.addIssue({ code: 'custom', message: 'Nothing to update' });
  });
export type KitSizesBody = z.infer<typeof kitSizesBody>;

export const loginActivity = z.object({
  id: z.string(),
  user_id: nullableString,
  email: z.string(),
  first_name: nullableString,
  last_name: nullableString,
  kit_name: nullableString,
  role_name: nullableString,
  success: z.boolean(),
  failure_reason: nullableString,
  ip_address: nullableString,
  user_agent: nullableString,
  created_at: z.string(),
});
export type LoginActivity = z.infer<typeof loginActivity>;

export const userLoginActivityQuery = z.object({
  page: pageParam,
  limit: limitParam(50),
});

export const loginActivitiesQuery = z.object({
  page: pageParam,
  limit: limitParam(50),
  search: searchParam,
  success: z.preprocess(
    emptyAsUndefined,
    z.enum(['true', 'false'], { message: 'success must be true or false' }).optional(),
  ),
});

export const loginActivitiesResponse = envelope(z.object({ activities: z.array(loginActivity), pagination }));

// Participant Masterlist: every rider holding a rider number, 50 a page.
export const MASTERLIST_PAGE_SIZE = 50;
export const masterlistQuery = z.object({
  page: pageParam,
  limit: limitParam(MASTERLIST_PAGE_SIZE),
  search: searchParam,
});
export const masterlistStats = z.object({
  total_participants: z.number().int(),
  verified: z.number().int(),
  pending: z.number().int(),
  with_rider_number: z.number().int(),
  confirmed_participants: z.number().int(),
});
export type MasterlistStats = z.infer<typeof masterlistStats>;
export const masterlistResponse = envelope(
  z.object({ participants: z.array(adminUser), stats: masterlistStats, pagination }),
);
