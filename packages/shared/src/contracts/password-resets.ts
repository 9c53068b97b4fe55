// Staff password-reset contracts: issuing a reset link and its history. The rider-facing reset screen's calls live in auth.ts.
import { z } from 'zod';
import { ROLES } from '../catalog/accounts';
import { envelope, intParam, pagination } from './common';

export const RESET_STATUSES = ['used', 'pending', 'expired'] as const;
export type ResetStatus = (typeof RESET_STATUSES)[number];
export const RESET_HISTORY_DEFAULT_LIMIT = 20;
export const RESET_USERS_DEFAULT_LIMIT = 20;

export const generateResetBody = z.object({
  userId: z.uuid({ message: 'userId must be a valid user id' }),
});

export const resetLinkResult = z.object({
  resetUrl: z.string(),
  resetToken: z.string(),
  expiresAt: z.string(),
  user: z.object({ fullName: z.string(), email: z.string() }),
});
export type ResetLinkResult = z.infer<typeof resetLinkResult>;
export const generateResetResponse = envelope(resetLinkResult);

export const resetHistoryQuery = z.object({
  page: intParam('page', { min: 1, max: 100_000, default: 1 }),
  limit: intParam('limit', { min: 1, max: 200, default: RESET_HISTORY_DEFAULT_LIMIT }),
  email: z.string().trim().max(254, { message: 'email must be at most 254 characters' }).optional(),
  status: z.enum(RESET_STATUSES, { message: `status must be one of: ${RESET_STATUSES.join(', ')}` }).optional(),
});
export type ResetHistoryQuery = z.infer<typeof resetHistoryQuery>;

export const resetHistoryEntry = z.object({
  id: z.string(),
  userId: z.string(),
  userEmail: z.string(),
  userName: z.string(),
  createdAt: z.string(),
  expiresAt: z.string(),
  used: z.boolean(),
  usedAt: z.string().nullable(),
  status: z.enum(RESET_STATUSES),
  createdBy: z.string().nullable(),
});
export type ResetHistoryEntry = z.infer<typeof resetHistoryEntry>;
export const resetHistoryResponse = envelope(z.object({ resets: z.array(resetHistoryEntry), pagination }));
export type ResetHistoryResponse = z.infer<typeof resetHistoryResponse>;

export const resetCleanupResponse = envelope(z.object({ deleted: z.number().int() }));

export const resetUsersQuery = z.object({
  search: z.string().trim().max(200, { message: 'search must be at most 200 characters' }).optional(),
  page: intParam('page', { min: 1, max: 100_000, default: 1 }),
  limit: intParam('limit', { min: 1, max: 100, default: RESET_USERS_DEFAULT_LIMIT }),
});
export type ResetUsersQuery = z.infer<typeof resetUsersQuery>;

export const resetUser = z.object({
  id: z.string(),
  first_name: z.string(),
  last_name: z.string(),
  kit_name: z.string().nullable(),
  email: z.string(),
  role: z.enum(ROLES),
});
export type ResetUser = z.infer<typeof resetUser>;
export const resetUsersResponse = envelope(z.object({ users: z.array(resetUser), pagination }));
export type ResetUsersResponse = z.infer<typeof resetUsersResponse>;
