// The rider's own kit data under /my/ (T-shirt and gear sizes, rider code) and the
// rider-facing announcements. The same schemas check the forms on the client (as toasts)
// and the bodies on the server (as 400 messages), so both say the same words.
import { z } from 'zod';
import { ROLES } from '../catalog/accounts';
import { CUSTOM_SIZE_MAX, SIZES } from '../catalog/registration';
import { envelope } from './common';

export const TSHIRT_ALREADY_SUBMITTED = 'Your T-shirt size has already been submitted and can no longer be changed';
export const GEAR_ALREADY_SUBMITTED = 'Your gear sizes have already been submitted and can no longer be changed';
export const NO_RIDER_CODE_MESSAGE = 'No rider code available';

const isBlank = (v: unknown) => v === undefined || v === null || (typeof v === 'string' && v.trim() === '');

/** A size from the catalogue; missing or blank gets a "Please select …" message. */
function sizeField(field: string, missingMessage: string) {
  return z.preprocess(
    (v) => (isBlank(v) ? undefined : v),
    z.enum(SIZES, {
      error: (issue) => (issue.input === undefined ? missingMessage : `${field} must be one of: ${SIZES.join(', ')}`),
    }),
  );
}

/** Free text of a CUSTOM size; blank counts as absent. */
function customField(field: string) {
  return z.preprocess(
    (v) => (typeof v === 'string' && v.trim() === '' ? undefined : v),
    z
      .string({ message: `${field} must be text` })
      .trim()
      .max(CUSTOM_SIZE_MAX, { message: `${field} must be at most ${CUSTOM_SIZE_MAX} characters` })
      .nullish(),
  );
}

export const tshirtSizeBody = z
  .object(
    {
      size: sizeField('size', 'Please select a T-shirt size'),
      customSize: customField('customSize'),
    },
    { message: 'Please select a T-shirt size' },
  )
  .superRefine((v, ctx) => {
    if (v.size === 'CUSTOM' && isBlank(v.customSize)) {
      ctx.addIssue({ code: 'custom', path: ['customSize'], message: 'Please enter your custom T-shirt size' });
    }
  });
export type TshirtSizeBody = z.input<typeof tshirtSizeBody>;

export const gearSizesBody = z
  .object(
    {
      finisherSleeveSize: sizeField('finisherSleeveSize', 'Please select a finisher sleeve size'),
      vestSize: sizeField('vestSize', 'Please select a vest size'),
      customFinisherSleeveSize: customField('customFinisherSleeveSize'),
      customVestSize: customField('customVestSize'),
    },
    { message: 'Please select a finisher sleeve size' },
  )
  .superRefine((v, ctx) => {
    if (v.finisherSleeveSize === 'CUSTOM' && isBlank(v.customFinisherSleeveSize)) {
      ctx.addIssue({
        code: 'custom',
        path: ['customFinisherSleeveSize'],
        message: 'Please enter your custom finisher sleeve size',
      });
    } else if (v.vestSize === 'CUSTOM' && isBlank(v.customVestSize)) {
      ctx.addIssue({ code: 'custom', path: ['customVestSize'], message: 'Please enter your custom vest size' });
    }
  });
export type GearSizesBody = z.input<typeof gearSizesBody>;

/** The first problem of a form, in field order, or null; for client-side toasts. */
export function firstProblem(schema: z.ZodType, input: unknown): string | null {
  const result = schema.safeParse(input);
  return result.success ? null : (result.error.issues[0]?.message ?? 'Please check the form');
}

const nullableString = z.string().nullable();

export const tshirtStatus = z.object({
  hasSubmitted: z.boolean(),
  size: nullableString,
  customSize: nullableString,
});
export type TshirtStatus = z.infer<typeof tshirtStatus>;
export const tshirtStatusResponse = envelope(tshirtStatus);

export const gearSizes = z.object({
  finisherSleeveSize: nullableString,
  vestSize: nullableString,
  customFinisherSleeveSize: nullableString,
  customVestSize: nullableString,
  hasSubmitted: z.boolean(),
});
export type GearSizes = z.infer<typeof gearSizes>;
export const gearSizesResponse = envelope(gearSizes);

export const riderCodeResponse = envelope(z.object({ riderCode: z.string() }));

/** Staff publish these; riders read the active ones. Read flags live on the client only. */
export const announcement = z.object({
  id: z.string(),
  title: z.string(),
  content: z.string(),
  created_at: z.string(),
  author_id: nullableString,
  first_name: nullableString,
  last_name: nullableString,
  author_role: z.enum(ROLES).nullable(),
  priority: z.literal('normal'),
});
export type Announcement = z.infer<typeof announcement>;

export const ANNOUNCEMENTS_MAX = 100;
export const announcementsResponse = envelope(z.object({ announcements: z.array(announcement) }));
