// Editions (DESIGN.md §9): the list the public and the console read, and the organiser's
// create and edit. Dates are calendar days (YYYY-MM-DD); the window and the held-numbers
// date are moments (ISO 8601 with a zone).
import { z } from 'zod';
import { EDITION_YEAR_MAX, EDITION_YEAR_MIN } from '../catalog/editions';
import { COURSE_STATES, EVENT_NAME_MAX } from '../catalog/event-day';
import { PRICE_KEYS, PRICE_MAX, type PriceKey } from '../catalog/registration';
import { envelope, isoDateTime } from './common';
import { dateText, hotlineText } from './settings';
import { plainText } from './stations';

export const edition = z.object({
  id: z.string(),
  name: z.string(),
  year: z.number().int(),
  startsOn: z.string().nullable(),
  endsOn: z.string().nullable(),
  registrationOpensAt: z.string().nullable(),
  registrationClosesAt: z.string().nullable(),
  numbersHeldUntil: z.string().nullable(),
  current: z.boolean(),
  /** When another edition was made current: a past edition, read-only history (null: never was current, or is). */
  closedAt: z.string().nullable(),
  hotline: z.string().nullable(),
  /** Entry prices in pesos, by category and guest: the edition's own, else the catalog's. */
  prices: z.object(
    Object.fromEntries(PRICE_KEYS.map((key) => [key, z.number().int()])) as Record<PriceKey, z.ZodNumber>,
  ),
  /** The edition its settings were copied from, when it was made from one. */
  copiedFrom: z.string().nullable(),
  /** Where the server's clock stands in the window now. */
  registration: z.enum(['open', 'not_yet', 'closed']),
});
export type Edition = z.infer<typeof edition>;
export const editionsResponse = envelope(z.array(edition));
export const editionResponse = envelope(z.object({ edition }));

const moment = (field: string) => isoDateTime(field).nullable();

const editionFields = z.object({
  name: plainText('name', EVENT_NAME_MAX),
  year: z
    .number({ message: 'year must be a number' })
    .int({ message: 'year must be a whole number' })
    .min(EDITION_YEAR_MIN, { message: `year must be at least ${EDITION_YEAR_MIN}` })
    .max(EDITION_YEAR_MAX, { message: `year must be at most ${EDITION_YEAR_MAX}` }),
  startsOn: dateText('startsOn').nullable(),
  endsOn: dateText('endsOn').nullable(),
  registrationOpensAt: moment('registrationOpensAt'),
  registrationClosesAt: moment('registrationClosesAt'),
  numbersHeldUntil: moment('numbersHeldUntil'),
  hotline: hotlineText.nullable(),
  /** Any of the prices (pesos); the others stay as they are (or as copied). */
  prices: z
    .object(
      Object.fromEntries(
        PRICE_KEYS.map((key) => [
          key,
          z
            .number({ message: `the ${key} price must be a number` })
            .int({ message: `the ${key} price must be whole pesos` })
            .min(0, { message: `the ${key} price must not be negative` })
            .max(PRICE_MAX, { message: `the ${key} price must be at most ${PRICE_MAX}` })
            .optional(),
        ]),
      ) as Record<PriceKey, z.ZodOptional<z.ZodNumber>>,
    )
    .strict(),
});

type Moment = string | Date | null | undefined;
type Orderable = {
  startsOn?: string | null;
  endsOn?: string | null;
  registrationOpensAt?: Moment;
  registrationClosesAt?: Moment;
};
const time = (m: string | Date) => (m instanceof Date ? m.getTime() : Date.parse(m));

/**
 * The order of an edition's dates: the create request's refinements, and the server's check
 * of an edition as a change would leave it (a PATCH holds only what it changes).
 */
export const EDITION_ORDER_RULES = [
  {
    holds: (v: Orderable) => !v.startsOn || !v.endsOn || v.endsOn >= v.startsOn,
    message: 'endsOn must not be before startsOn',
    path: ['endsOn'],
  },
  {
    holds: (v: Orderable) =>
      !v.registrationOpensAt || !v.registrationClosesAt || time(v.registrationClosesAt) > time(v.registrationOpensAt),
    message: 'registrationClosesAt must be after registrationOpensAt',
    path: ['registrationClosesAt'],
  },
] as const;

/** The first order rule the edition breaks, or undefined. */
export function editionOrderProblem(v: Orderable): string | undefined {
  return EDITION_ORDER_RULES.find((rule) => !rule.holds(v))?.message;
}
const [datesInOrder, windowInOrder] = EDITION_ORDER_RULES;

export const createEditionRequest = editionFields
  .partial({
    registrationOpensAt: true,
    registrationClosesAt: true,
    numbersHeldUntil: true,
    hotline: true,
    prices: true,
  })
  .extend({
    // A new edition is dated; the first one, made by the upgrade, may not have been.
    startsOn: dateText('startsOn'),
    endsOn: dateText('endsOn'),
    /** An edition whose settings (hotline, prices; its course at the rollover) the new one starts with. */
    copyFrom: z.uuid({ message: 'copyFrom must be an edition id' }).optional(),
  })
  .strict()
  .refine(datesInOrder.holds, { message: datesInOrder.message, path: [...datesInOrder.path] })
  .refine(windowInOrder.holds, { message: windowInOrder.message, path: [...windowInOrder.path] });
export type CreateEditionRequest = z.infer<typeof createEditionRequest>;

/** Any of the fields; the order rules are checked again on the edition as it would become. */
export const updateEditionRequest = editionFields
  .partial()
  .strict()
  .refine((v) => Object.keys(v).length > 0, { message: 'Nothing to change: send at least one field' });
export type UpdateEditionRequest = z.infer<typeof updateEditionRequest>;

/**
 * A rider's entry in one edition (GET /api/my/entries): its number, category, verification
 * and, once verified, where the rider stands or how they ended (the course state of the
 * rally's current day, the elapsed time of a finisher).
 */
export const myEntry = z.object({
  id: z.string(),
  editionId: z.string(),
  editionName: z.string(),
  year: z.number().int(),
  current: z.boolean(),
  riderNumber: z.number().int().nullable(),
  category: z.string().nullable(),
  verificationCode: z.string(),
  verificationStatus: z.enum(['pending', 'verified', 'rejected']),
  result: z
    .object({
      state: z.enum(COURSE_STATES),
      finishedAt: z.string().nullable(),
      elapsedMs: z.number().nullable(),
    })
    .nullable(),
});
export type MyEntry = z.infer<typeof myEntry>;
export const myEntriesResponse = envelope(z.array(myEntry));

/** `POST /api/my/entries`: the new entry, pending until staff verify its receipt. */
export const createdEntry = z.object({
  id: z.string(),
  editionId: z.string(),
  riderNumber: z.number().int(),
  category: z.string(),
  verificationCode: z.string(),
  verificationStatus: z.literal('pending'),
});
export const createdEntryResponse = envelope(z.object({ entry: createdEntry }));

/**
 * `GET /api/my/entries/next`: what the returning rider's "Join <edition>" form starts
 * from: the current edition, whether they entered it, and their last entry's rider part
 * with the number held for them (while it is held).
 */
export const nextEntry = z.object({
  edition: z.object({
    id: z.string(),
    name: z.string(),
    year: z.number().int(),
    registrationOpensAt: z.string().nullable(),
    registrationClosesAt: z.string().nullable(),
    registration: z.enum(['open', 'not_yet', 'closed']),
  }),
  entered: z.boolean(),
  /** The last entry's rider part, null for a rider who never entered one. */
  prefill: z
    .object({
      fromEdition: z.string(),
      category: z.string().nullable(),
      kitName: z.string().nullable(),
      motorcycleModel: z.string().nullable(),
      emergencyContactName: z.string().nullable(),
      emergencyContactNumber: z.string().nullable(),
      paymentMethod: z.string().nullable(),
      tshirtSize: z.string().nullable(),
      customTshirtSize: z.string().nullable(),
      finisherSleeveSize: z.string().nullable(),
      customFinisherSleeveSize: z.string().nullable(),
      vestSize: z.string().nullable(),
      customVestSize: z.string().nullable(),
    })
    .nullable(),
  /** Their previous number while the edition holds it for them, else null. */
  heldNumber: z.number().int().nullable(),
  heldUntil: z.string().nullable(),
});
export type NextEntry = z.infer<typeof nextEntry>;
export const nextEntryResponse = envelope(nextEntry);

/** `POST /api/admin/editions/{id}/make-current`: the new current edition and what was kept of the last one. */
export const madeCurrent = z.object({
  edition,
  archived: z.object({
    editionId: z.string(),
    entries: z.number().int(),
  }),
});
export const madeCurrentResponse = envelope(madeCurrent);

/** One edition a rider rode, on their public profile (the newest first). */
export const profileEdition = z.object({
  editionId: z.string(),
  name: z.string(),
  year: z.number().int(),
  current: z.boolean(),
  category: z.string().nullable(),
  riderNumber: z.number().int().nullable(),
  /** How it ended (or where it stands): the course state; null before the rally's day. */
  state: z.enum(COURSE_STATES).nullable(),
  elapsedMs: z.number().nullable(),
  finisher: z.boolean(),
});
export type ProfileEdition = z.infer<typeof profileEdition>;

/** This edition's registrations per day of its window against the last one's (Analytics). */
export const registrationsComparison = z.object({
  current: z.object({ edition: z.string(), days: z.array(z.number().int()) }),
  previous: z.object({ edition: z.string(), days: z.array(z.number().int()) }).nullable(),
});
export type RegistrationsComparison = z.infer<typeof registrationsComparison>;
