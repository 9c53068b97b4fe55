import { z } from 'zod';

/** The error half of the API's JSON envelope. */
export const errorEnvelope = z.object({
  success: z.literal(false),
  message: z.string(),
  code: z.string().optional(),
});
export type ErrorEnvelope = z.infer<typeof errorEnvelope>;

/** Wraps a data schema in the success envelope `{ success: true, data, message? }`. */
export function envelope<T extends z.ZodType>(data: T) {
  return z.object({ success: z.literal(true), data, message: z.string().optional() });
}

export const messageEnvelope = z.object({ success: z.literal(true), message: z.string() });

export const pagination = z.object({
  page: z.number().int(),
  limit: z.number().int(),
  total: z.number().int(),
  total_pages: z.number().int(),
});
export type Pagination = z.infer<typeof pagination>;

/**
 * A query-string integer with a default: text is coerced, and a bad value is refused
 * with a message naming the parameter. Every paginated list uses these.
 */
export function intParam(field: string, opts: { min: number; max: number; default: number }) {
  return z.coerce
    .number({ message: `${field} must be a number` })
    .int({ message: `${field} must be a whole number` })
    .min(opts.min, { message: `${field} must be at least ${opts.min}` })
    .max(opts.max, { message: `${field} must be at most ${opts.max}` })
    .default(opts.default);
}
export const pageParam = intParam('page', { min: 1, max: 100_000, default: 1 });
export const limitParam = (def: number, max = 100) => intParam('limit', { min: 1, max, default: def });

export const uuidParam = z.object({ id: z.uuid({ message: 'id must be a valid id' }) });

export function makePagination(page: number, limit: number, total: number): Pagination {
  return { page, limit, total, total_pages: Math.max(1, Math.ceil(total / limit)) };
}

/**
 * Length limits of an account's text fields. The registration and staff-edit schemas
 * refuse longer values; the web forms cap their inputs at the same numbers.
 */
export const TEXT_LIMITS = {
  firstName: 100,
  lastName: 100,
  kitName: 50,
  phoneNumber: 30,
  address: 500,
  motorcycleModel: 100,
  clubName: 100,
  emergencyContactName: 100,
  emergencyContactNumber: 30,
  /** A staff list's search box. */
  search: 100,
} as const;

/**
 * A birthdate as text: a real date (YYYY-MM-DD) from 1900 up to today. Registration and
 * the staff edit wrap it in their own handling of an empty value (and name a non-text
 * value their own way).
 */
export const birthdateText = (typeMessage = 'birthdate must be text') =>
  z
    .string({ message: typeMessage })
    .regex(/^\d{4}-\d{2}-\d{2}$/, { message: 'birthdate must be a date (YYYY-MM-DD)' })
    .refine(
      (s) => !Number.isNaN(Date.parse(`${s}T00:00:00Z`)) && new Date(`${s}T00:00:00Z`).toISOString().startsWith(s),
      { message: 'birthdate must be a real date' },
    )
    .refine((s) => s >= BIRTHDATE_MIN && new Date(`${s}T00:00:00Z`).getTime() <= Date.now(), {
      message: 'birthdate must be in the past',
    });

export const BIRTHDATE_MIN = '1900-01-01';

/**
 * The first and last instants (UTC) a date-time field takes: what the database stores and the
 * drivers read back as written. Year 0 does not exist in PostgreSQL, year 10000 is written
 * `+010000-…` by JavaScript, which PostgreSQL cannot read, and a year below 100 comes back
 * read as this century's. 1970 is as early as a phone's clock goes (one reset to the epoch):
 * such a scan is kept, and flagged as a clock gone wrong.
 */
export const EARLIEST_STORABLE_MS = Date.parse('1970-01-01T00:00:00.000Z');
export const LATEST_STORABLE_MS = Date.parse('9999-12-31T23:59:59.999Z');

export const isStorableInstant = (ms: number) => ms >= EARLIEST_STORABLE_MS && ms <= LATEST_STORABLE_MS;

/**
 * An ISO 8601 date-time with its offset, within the years 1970 to 9999 once in UTC. A wider
 * one (`0000-01-01T00:00:00Z`, `9999-12-31T23:59:59-10:00`) is valid ISO but not a timestamp
 * the database keeps: refused here, with the field named, instead of failing the whole write.
 */
export function isoDateTime(field: string) {
  return z.iso
    .datetime({ offset: true, message: `${field} must be an ISO 8601 date-time` })
    .refine((v) => isStorableInstant(Date.parse(v)), { message: `${field} must be between the years 1970 and 9999` });
}
