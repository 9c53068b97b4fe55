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

/** Query-string integers arrive as text; bad values are refused with a message naming the field. */
export function queryInt(opts: { min?: number; max?: number; default?: number } = {}) {
  let s = z.coerce.number().int();
  if (opts.min !== undefined) s = s.min(opts.min);
  if (opts.max !== undefined) s = s.max(opts.max);
  return opts.default === undefined ? s.optional() : s.default(opts.default);
}

export const uuidParam = z.object({ id: z.uuid({ message: 'id must be a valid id' }) });

export function makePagination(page: number, limit: number, total: number): Pagination {
  return { page, limit, total, total_pages: Math.max(1, Math.ceil(total / limit)) };
}
