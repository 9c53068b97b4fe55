// Auth and registration contracts. The registration
// checks run in their fixed order on the client (as toasts) and again on the server (as
// 400 messages), from this one function.
import { z } from 'zod';
import { GENDERS, PASSWORD_MIN_LENGTH, RIDER_ENTRY_STATUSES, ROLES, USER_STATUSES } from '../catalog/accounts';
import { CATEGORIES, CUSTOM_SIZE_MAX, PAYMENT_METHODS, SIZES } from '../catalog/registration';
import { isRiderNumber, RIDER_NUMBER_MESSAGE } from '../catalog/rider-number';
import { birthdateText, envelope, TEXT_LIMITS } from './common';
import { BLOOD_TYPES, MEDICAL_TEXT_MAX } from './id-cards';
import { consentVersionField } from './privacy';
import { philippineMobile } from './rider-details';
import { riderNumberSchema } from './rider-numbers';

/** The fields named by check 8, in the order the message lists them. */
export const REGISTRATION_REQUIRED_FIELDS = [
  'firstName',
  'lastName',
  'email',
  'password',
  'phoneNumber',
  'category',
] as const;

export interface RegistrationCheckInput {
  riderNumber?: number | string | null;
  tshirtSize?: string | null;
  customTshirtSize?: string | null;
  finisherSleeveSize?: string | null;
  customFinisherSleeveSize?: string | null;
  vestSize?: string | null;
  customVestSize?: string | null;
  firstName?: string | null;
  lastName?: string | null;
  email?: string | null;
  password?: string | null;
  confirmPassword?: string | null;
  phoneNumber?: string | null;
  category?: string | null;
  paymentMethod?: string | null;
  hasReceipt?: boolean;
  agreedToTerms?: boolean;
}

const blank = (v: unknown) => v === undefined || v === null || (typeof v === 'string' && v.trim() === '');

/**
 * The twelve registration checks, in their fixed order; the first failure's message, or
 * null. Confirmation and terms exist only on the client, so the server passes
 * `undefined` for them and those checks are skipped.
 */
export function registrationProblem(input: RegistrationCheckInput): string | null {
  const entry = numberAndSizesProblem(input);
  if (entry) return entry;
  const missing = REGISTRATION_REQUIRED_FIELDS.filter((f) => blank(input[f]));
  if (missing.length > 0) return `Please fill in all required fields: ${missing.join(', ')}`;
  if (input.confirmPassword !== undefined && input.password !== input.confirmPassword) {
    return 'Passwords do not match. Please try again.';
  }
  if ((input.password ?? '').length < PASSWORD_MIN_LENGTH) return 'Password must be at least 8 characters long.';
  return receiptOrTermsProblem(input);
}

/**
 * The checks of a returning rider's entry (DESIGN.md §9): the registration's rider part, in
 * the registration's order, without the account fields.
 */
export function entryProblem(input: RegistrationCheckInput): string | null {
  const entry = numberAndSizesProblem(input);
  if (entry) return entry;
  if (blank(input.category)) return 'Please fill in all required fields: category';
  return receiptOrTermsProblem(input);
}

function receiptOrTermsProblem(input: RegistrationCheckInput): string | null {
  if (!blank(input.paymentMethod) && input.paymentMethod !== 'cash' && input.hasReceipt === false) {
    return 'Payment receipt is required for non-cash payments.';
  }
  if (input.agreedToTerms === false) return 'Please agree to the terms and conditions before submitting.';
  return null;
}

function numberAndSizesProblem(input: RegistrationCheckInput): string | null {
  if (blank(input.riderNumber) || !isRiderNumber(Number(input.riderNumber))) return RIDER_NUMBER_MESSAGE;
  if (blank(input.tshirtSize)) return 'Please select a T-shirt size.';
  if (input.tshirtSize === 'CUSTOM' && blank(input.customTshirtSize)) return 'Please enter your custom T-shirt size.';
  if (blank(input.finisherSleeveSize)) return 'Please select a finisher sleeve size.';
  if (blank(input.vestSize)) return 'Please select a vest size.';
  if (input.finisherSleeveSize === 'CUSTOM' && blank(input.customFinisherSleeveSize)) {
    return 'Please enter your custom finisher sleeve size.';
  }
  if (input.vestSize === 'CUSTOM' && blank(input.customVestSize)) return 'Please enter your custom vest size.';
  return null;
}

/** Rules of a new password (reset and operator-created accounts), length first, then the character classes. */
export function passwordStrengthProblem(password: string): string | null {
  if (password.length < PASSWORD_MIN_LENGTH) return 'Password must be at least 8 characters long';
  if (!/[a-z]/.test(password)) return 'Password must contain at least one lowercase letter';
  if (!/[A-Z]/.test(password)) return 'Password must contain at least one uppercase letter';
  if (!/[0-9]/.test(password)) return 'Password must contain at least one number';
  return null;
}

const text = (field: string, max: number) =>
  z
    .string({ message: `${field} must be text` })
    .trim()
    .max(max, { message: `${field} must be at most ${max} characters` });
const optionalText = (field: string, max: number) =>
  z.preprocess((v) => (typeof v === 'string' && v.trim() === '' ? undefined : v), text(field, max).optional());
const enumOf = <T extends readonly [string, ...string[]]>(field: string, values: T) =>
  z.enum(values, { message: `${field} must be one of: ${values.join(', ')}` });
const optionalEnum = <T extends readonly [string, ...string[]]>(field: string, values: T) =>
  z.preprocess((v) => (v === '' || v === null ? undefined : v), enumOf(field, values).optional());

export const emailSchema = z
  .string({ message: 'email must be text' })
  .trim()
  .toLowerCase()
  .max(254, { message: 'email must be at most 254 characters' })
  .pipe(z.email({ message: 'email must be a valid email address' }));

export const birthdateSchema = z.preprocess(
  (v) => (typeof v === 'string' && v.trim() === '' ? undefined : v),
  birthdateText().optional(),
);

/**
 * The registration payload's shape and formats. Multipart sends every value
 * as text, so numbers are coerced. `paymentAmount` is accepted but ignored: the server
 * computes the amount from the category.
 */
export const registrationSchema = z.object({
  firstName: text('firstName', TEXT_LIMITS.firstName).min(1, { message: 'firstName is required' }),
  lastName: text('lastName', TEXT_LIMITS.lastName).min(1, { message: 'lastName is required' }),
  email: emailSchema,
  password: z
    .string({ message: 'password must be text' })
    .min(PASSWORD_MIN_LENGTH, { message: 'Password must be at least 8 characters long.' })
    .max(200, { message: 'password must be at most 200 characters' }),
  phoneNumber: text('phoneNumber', TEXT_LIMITS.phoneNumber).min(1, { message: 'phoneNumber is required' }),
  address: optionalText('address', TEXT_LIMITS.address),
  gender: optionalEnum('gender', GENDERS),
  birthdate: birthdateSchema,
  motorcycleModel: optionalText('motorcycleModel', TEXT_LIMITS.motorcycleModel),
  category: enumOf('category', CATEGORIES),
  kitName: optionalText('kitName', TEXT_LIMITS.kitName),
  clubName: optionalText('clubName', TEXT_LIMITS.clubName),
  paymentMethod: optionalEnum('paymentMethod', PAYMENT_METHODS),
  emergencyContactName: optionalText('emergencyContactName', TEXT_LIMITS.emergencyContactName),
  // Optional here (the spec's payload has it optional), but when given it must be a number
  // someone can actually dial; the web form asks for it.
  emergencyContactNumber: z.preprocess(
    (v) => (typeof v === 'string' && v.trim() === '' ? undefined : v),
    philippineMobile('emergencyContactNumber').optional(),
  ),
  // Medical notes a rider may give at sign-up; staff see and edit the same columns on the rider's card.
  bloodType: optionalEnum('bloodType', BLOOD_TYPES),
  allergies: optionalText('allergies', MEDICAL_TEXT_MAX),
  medicalConditions: optionalText('medicalConditions', MEDICAL_TEXT_MAX),
  riderNumber: riderNumberSchema,
  tshirtSize: enumOf('tshirtSize', SIZES),
  customTshirtSize: optionalText('customTshirtSize', CUSTOM_SIZE_MAX),
  finisherSleeveSize: enumOf('finisherSleeveSize', SIZES),
  customFinisherSleeveSize: optionalText('customFinisherSleeveSize', CUSTOM_SIZE_MAX),
  vestSize: enumOf('vestSize', SIZES),
  customVestSize: optionalText('customVestSize', CUSTOM_SIZE_MAX),
  paymentAmount: z.unknown().optional(),
  // The privacy notice version the form showed (DESIGN.md §12); optional on the specs' calls.
  consentVersion: consentVersionField.optional(),
});
export type RegistrationInput = z.infer<typeof registrationSchema>;

/**
 * The kit size fields, each size followed by its custom text: the order the checks test
 * them in and the form shows them in (the web's error list builds on it).
 */
export const REGISTRATION_SIZE_FIELDS = [
  'tshirtSize',
  'customTshirtSize',
  'finisherSleeveSize',
  'customFinisherSleeveSize',
  'vestSize',
  'customVestSize',
] as const;

const REGISTRATION_CHECKED_FIELDS = [
  'riderNumber',
  ...REGISTRATION_SIZE_FIELDS,
  'firstName',
  'lastName',
  'email',
  'phoneNumber',
  'category',
  'paymentMethod',
] as const;

/**
 * The registration payload as a route receives it, validated once: first the
 * registration checks in their order (registrationProblem, the first failure's message), then the
 * formats (registrationSchema), giving typed input. `hasReceipt` says whether a receipt
 * file came with it (the multipart route); the JSON route has none to tell about.
 */
export function registrationPayload(hasReceipt?: boolean) {
  return checkedPayload(registrationProblem, registrationSchema, hasReceipt);
}

/** A payload checked in order by `problem` (the first failure's message), then by `schema`'s formats. */
function checkedPayload<S extends z.ZodType<unknown, Record<string, unknown>>>(
  problem: (input: RegistrationCheckInput) => string | null,
  schema: S,
  hasReceipt: boolean | undefined,
) {
  return z
    .record(z.string(), z.unknown())
    .superRefine((raw, ctx) => {
      const check: RegistrationCheckInput = { hasReceipt };
      for (const field of REGISTRATION_CHECKED_FIELDS) {
        const v = raw[field];
        if (typeof v === 'string' || typeof v === 'number') check[field] = String(v);
      }
      if (typeof raw.password === 'string') check.password = raw.password;
      const found = problem(check);
      if (found) ctx.addIssue({ code: 'custom', message: found });
    })
    .pipe(schema);
}

/** The fields of a returning rider's entry: the registration's rider part (DESIGN.md §9). */
export const entrySchema = registrationSchema.pick({
  riderNumber: true,
  category: true,
  paymentMethod: true,
  paymentAmount: true,
  kitName: true,
  motorcycleModel: true,
  emergencyContactName: true,
  emergencyContactNumber: true,
  tshirtSize: true,
  customTshirtSize: true,
  finisherSleeveSize: true,
  customFinisherSleeveSize: true,
  vestSize: true,
  customVestSize: true,
  consentVersion: true,
});
export type EntryInput = z.infer<typeof entrySchema>;

/** A returning rider's entry as `POST /api/my/entries` receives it: the entry checks in order, then the formats. */
export function entryPayload(hasReceipt?: boolean) {
  return checkedPayload(entryProblem, entrySchema, hasReceipt);
}

export const loginSchema = z.object({
  email: z
    .string({ message: 'Please enter both email and password' })
    .trim()
    .min(1, {
      message: 'Please enter both email and password',
    })
    .max(254, { message: 'email must be at most 254 characters' }),
  password: z
    .string({ message: 'Please enter both email and password' })
    .min(1, {
      message: 'Please enter both email and password',
    })
    .max(200, { message: 'password must be at most 200 characters' }),
  remember: z.boolean().optional(),
});

export const forgotPasswordSchema = z.object({ email: z.string().max(254).optional() });

export const resetTokenParam = z.object({ token: z.string().min(1).max(200) });

/** A new password (reset link or signed-in change): filled in, bounded, and strong enough. */
const newPasswordField = z
  .string({ message: 'Please fill in all fields' })
  .min(1, { message: 'Please fill in all fields' })
  .max(200, { message: 'newPassword must be at most 200 characters' })
  .superRefine((p, ctx) => {
    const problem = passwordStrengthProblem(p);
    if (problem) ctx.addIssue({ code: 'custom', message: problem });
  });

export const resetPasswordSchema = z.object({
  token: z.string({ message: 'Invalid reset link' }).min(1, { message: 'Invalid reset link' }).max(200),
  newPassword: newPasswordField,
});

const nullableString = z.string().nullable();

/** The rider-side user record, kept by the client as userData. */
export const userRecord = z.object({
  id: z.string(),
  firstName: z.string(),
  lastName: z.string(),
  kitName: nullableString,
  email: z.string(),
  phoneNumber: nullableString,
  address: nullableString,
  birthdate: nullableString,
  gender: nullableString,
  role: z.enum(ROLES),
  status: z.enum(USER_STATUSES),
  /** The current edition's entry; `not_entered`: a returning rider with no entry in it yet (DESIGN.md §9). */
  verificationStatus: z.enum(RIDER_ENTRY_STATUSES).nullable(),
  verificationCode: nullableString,
  riderNumber: z.number().int().nullable(),
  riderCode: nullableString,
  category: nullableString,
  paymentMethod: nullableString,
  paymentAmount: z.number().nullable(),
  motorcycleModel: nullableString,
  clubName: nullableString,
  emergencyContactName: nullableString,
  emergencyContactNumber: nullableString,
  // The rider's own medical notes, shown on their My Details; nobody else gets this record.
  bloodType: nullableString,
  allergies: nullableString,
  medicalConditions: nullableString,
  tshirtSize: nullableString,
  customTshirtSize: nullableString,
  finisherSleeveSize: nullableString,
  customFinisherSleeveSize: nullableString,
  vestSize: nullableString,
  customVestSize: nullableString,
  hasProfileImage: z.boolean(),
  hasPaymentReceipt: z.boolean(),
  participantDetails: z.object({
    kitName: nullableString,
    motorcycleModel: nullableString,
    emergencyContactName: nullableString,
    emergencyContactNumber: nullableString,
    riderNumber: z.number().int().nullable(),
    category: nullableString,
  }),
  clubInfo: z.object({ riderNumber: z.number().int().nullable(), clubName: nullableString }),
  bikeInfo: z.object({ model: nullableString, category: nullableString }),
  stats: z.object({ fires: z.number().int(), eventsParticipated: z.number().int() }),
  createdAt: z.string(),
});
export type UserRecord = z.infer<typeof userRecord>;

export const authResponse = z.object({
  success: z.literal(true),
  message: z.string().optional(),
  token: z.string(),
  data: z.object({ user: userRecord }),
});
export type AuthResponse = z.infer<typeof authResponse>;

export const profileResponse = envelope(z.object({ user: userRecord }));

export const resetTokenInfo = envelope(z.object({ email: z.string(), userName: z.string() }));

/** Changing one's own password while signed in (My Profile, and the console's account screen). */
export const changePasswordSchema = z.object({
  currentPassword: z
    .string({ message: 'Please fill in all fields' })
    .min(1, { message: 'Please fill in all fields' })
    .max(200, { message: 'currentPassword must be at most 200 characters' }),
  newPassword: newPasswordField,
});
export type ChangePasswordBody = z.infer<typeof changePasswordSchema>;

export const CURRENT_PASSWORD_WRONG_MESSAGE = 'Your current password is incorrect';
export const SAME_PASSWORD_MESSAGE = 'Your new password must be different from your current one';
export const PASSWORD_CHANGED_MESSAGE = 'Password changed. You have been signed out on your other devices.';
