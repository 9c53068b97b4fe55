import { z } from 'zod';

/** The error half of the spec's JSON envelope. */
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
