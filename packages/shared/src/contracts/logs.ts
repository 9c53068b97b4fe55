// System log contracts: one
// list over activities, verification history and login attempts.
import { z } from 'zod';
import { LOG_DATE_RANGES, LOG_TYPES, LOGS_PAGE_SIZE } from '../catalog/console';
import { envelope, intParam } from './common';

export const LOGS_MAX_LIMIT = 200;
export const LOG_TYPE_FILTERS = ['all', ...LOG_TYPES] as const;
export type LogTypeFilter = (typeof LOG_TYPE_FILTERS)[number];

/** Where each log type comes from, for the details modal. */
export const LOG_SOURCE_TABLES: Record<(typeof LOG_TYPES)[number], string> = {
  activities: 'activities',
  verifications: 'verification_history',
  login_activities: 'login_activities',
};

const filters = {
  logType: z
    .enum(LOG_TYPE_FILTERS, { message: `logType must be one of: ${LOG_TYPE_FILTERS.join(', ')}` })
    .default('all'),
  search: z.string().trim().max(200, { message: 'search must be at most 200 characters' }).optional(),
  dateRange: z
    .enum(LOG_DATE_RANGES, { message: `dateRange must be one of: ${LOG_DATE_RANGES.join(', ')}` })
    .default('all'),
};

export const logsQuery = z.object({
  page: intParam('page', { min: 1, max: 100_000, default: 1 }),
  limit: intParam('limit', { min: 1, max: LOGS_MAX_LIMIT, default: LOGS_PAGE_SIZE }),
  ...filters,
  sortBy: z.enum(['timestamp'], { message: 'sortBy must be timestamp' }).default('timestamp'),
  sortOrder: z.enum(['desc', 'asc'], { message: 'sortOrder must be one of: desc, asc' }).default('desc'),
});
export type LogsQuery = z.infer<typeof logsQuery>;

export const logStatsQuery = z.object(filters);
export type LogStatsQuery = z.infer<typeof logStatsQuery>;

export const logEntry = z.object({
  id: z.string(),
  log_type: z.enum(LOG_TYPES),
  user_id: z.string().nullable(),
  user_name: z.string().nullable(),
  user_email: z.string().nullable(),
  user_role: z.string().nullable(),
  description: z.string(),
  details: z.string().nullable(),
  location: z.string().nullable(),
  log_timestamp: z.string(),
  formatted_timestamp: z.string(),
});
export type LogEntry = z.infer<typeof logEntry>;

export const logsPagination = z.object({
  page: z.number().int(),
  limit: z.number().int(),
  total: z.number().int(),
  totalPages: z.number().int(),
});

export const logsResponse = envelope(z.object({ logs: z.array(logEntry), pagination: logsPagination }));
export type LogsResponse = z.infer<typeof logsResponse>;

export const logStats = z.object({
  total_logs: z.number().int(),
  activities: z.object({ total_activities: z.number().int() }),
  verifications: z.object({ total_verifications: z.number().int() }),
  login_activities: z.object({ total_login_activities: z.number().int() }),
});
export type LogStats = z.infer<typeof logStats>;
export const logStatsResponse = envelope(logStats);
