// Who looked (DESIGN.md §12): the access log of riders' sensitive fields, the rider's own
// view of it, the staff's view by rider and by staff member, and the breach kit.
import { z } from 'zod';
import { SENSITIVE_KINDS } from '../catalog/privacy';
import { envelope, intParam, isoDateTime, pagination, TEXT_LIMITS } from './common';

export const sensitiveKind = z.enum(SENSITIVE_KINDS);

/** One answer that carried a rider's sensitive fields. */
export const dataAccessEntry = z.object({
  id: z.string(),
  at: z.string(),
  staffId: z.string().nullable(),
  staffName: z.string(),
  riderId: z.string(),
  riderName: z.string(),
  fields: z.array(sensitiveKind),
  /** The route (`GET /api/admin/users/:id`) or the export (`export insurance-bagani.csv`). */
  source: z.string(),
  /** Why, when the staff member was asked (an export with sensitive columns); else null. */
  reason: z.string().nullable(),
});
export type DataAccessEntry = z.infer<typeof dataAccessEntry>;

/** GET /api/my/data-access: who on the staff read the rider's sensitive fields, newest first. */
export const myDataAccessResponse = envelope(z.array(dataAccessEntry.omit({ riderId: true, riderName: true })));

const window = {
  from: isoDateTime('from').optional(),
  to: isoDateTime('to').optional(),
};

/** GET /api/admin/data-access (view_logs). */
export const dataAccessQuery = z.object({
  userId: z.uuid({ message: 'userId must be an account id' }).optional(),
  staffId: z.uuid({ message: 'staffId must be an account id' }).optional(),
  ...window,
  page: intParam('page', { min: 1, max: 100_000, default: 1 }),
  limit: intParam('limit', { min: 1, max: 200, default: 50 }),
});
export type DataAccessQuery = z.infer<typeof dataAccessQuery>;
export const dataAccessResponse = envelope(z.object({ entries: z.array(dataAccessEntry), pagination }));

/**
 * GET /api/admin/data-access/affected (view_logs): the breach kit. Every rider whose
 * sensitive fields were read in the window, by the staff account or from the address given.
 */
export const affectedQuery = z
  .object({
    from: isoDateTime('from'),
    to: isoDateTime('to'),
    staffId: z.uuid({ message: 'staffId must be an account id' }).optional(),
    ip: z.string().trim().min(1).max(64, { message: 'ip must be at most 64 characters' }).optional(),
    format: z.enum(['json', 'csv'], { message: 'format must be json or csv' }).default('json'),
  })
  .refine((q) => Date.parse(q.from) <= Date.parse(q.to), { message: 'from must not be after to', path: ['from'] });
export type AffectedQuery = z.infer<typeof affectedQuery>;

export const affectedRider = z.object({
  riderId: z.string(),
  name: z.string(),
  email: z.string().nullable(),
  phoneNumber: z.string().nullable(),
  fields: z.array(sensitiveKind),
  reads: z.number().int(),
  firstAt: z.string(),
  lastAt: z.string(),
});
export type AffectedRider = z.infer<typeof affectedRider>;
export const affectedResponse = envelope(z.array(affectedRider));

/**
 * GET /api/admin/data-access/people (view_logs): the riders or the staff members whose name or
 * email matches, to pick one for the log. Names, emails and roles only: looking someone up
 * on the privacy screen is not itself a read of their sensitive data.
 */
export const DATA_ACCESS_PEOPLE = ['riders', 'staff'] as const;
export const dataAccessPeopleQuery = z.object({
  who: z.enum(DATA_ACCESS_PEOPLE, { message: 'who must be riders or staff' }).default('riders'),
  search: z
    .string({ message: 'search must be text' })
    .trim()
    .max(TEXT_LIMITS.search, { message: `search must be at most ${TEXT_LIMITS.search} characters` })
    .optional(),
  limit: intParam('limit', { min: 1, max: 50, default: 10 }),
});
export type DataAccessPeopleQuery = z.infer<typeof dataAccessPeopleQuery>;
export const dataAccessPerson = z.object({
  id: z.string(),
  name: z.string(),
  email: z.string(),
  role: z.string(),
});
export type DataAccessPerson = z.infer<typeof dataAccessPerson>;
export const dataAccessPeopleResponse = envelope(z.array(dataAccessPerson));
