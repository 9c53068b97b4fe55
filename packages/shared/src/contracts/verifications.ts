// Verification Center contracts: the queues, decisions and history. The population is
// rider accounts (roles participant and guest): staff accounts are created verified by
// an operator and are not payment verifications, so they appear in neither the pending
// list nor the stats.
import { z } from 'zod';
import { VERIFICATION_ACTIONS } from '../catalog/accounts';
import { CATEGORIES, PAYMENT_METHODS } from '../catalog/registration';
import { envelope, limitParam, pageParam, pagination } from './common';
import { receiptCheck } from './receipts';

const nullableString = z.string().nullable();

export const VERIFICATION_NOTES_MAX = 1000;

export const pendingVerification = z.object({
  id: z.string(),
  user_id: z.string(),
  kit_name: nullableString,
  first_name: z.string(),
  last_name: z.string(),
  full_name: z.string(),
  email: z.string(),
  verification_code: z.string(),
  payment_method: z.enum(PAYMENT_METHODS).nullable(),
  payment_amount: z.number().int().nullable(),
  has_payment_receipt: z.boolean(),
  created_at: z.string(),
  // What the receipt must match, shown beside it at the desk.
  category: z.enum(CATEGORIES).nullable(),
  rider_number: z.number().int().nullable(),
  /** The category's price from the catalog; null when no category is set. */
  expected_amount: z.number().int().nullable(),
  /** Notes of the decision before the rider went back to pending (a rejection's reason). */
  previous_notes: nullableString,
  /** Receipts the rider replaced after a rejection, newest first; each readable by its file id. */
  previous_receipts: z.array(z.object({ id: z.string(), mime_type: z.string(), superseded_at: z.string() })),
  /** The current receipt read and checked (DESIGN.md §13); null without a receipt. */
  receipt_check: receiptCheck.nullable(),
});
export type PendingVerification = z.infer<typeof pendingVerification>;

export const pendingQuery = z.object({
  page: pageParam,
  limit: limitParam(20),
  search: z
    .string({ message: 'search must be text' })
    .trim()
    .max(100, { message: 'search must be at most 100 characters' })
    .optional(),
});

export const pendingResponse = z.object({
  success: z.literal(true),
  data: z.array(pendingVerification),
  pagination,
});

export const verifyBody = z.object({
  verification_code: z
    .string({ message: 'verification_code is required' })
    .trim()
    .min(1, { message: 'verification_code is required' })
    .max(40, { message: 'verification_code must be at most 40 characters' }),
  action: z.enum(VERIFICATION_ACTIONS, { message: "action must be 'verified' or 'rejected'" }),
  notes: z
    .string({ message: 'notes must be text' })
    .trim()
    .max(VERIFICATION_NOTES_MAX, { message: `notes must be at most ${VERIFICATION_NOTES_MAX} characters` })
    .optional()
    .nullable(),
});
export type VerifyBody = z.infer<typeof verifyBody>;

export const verifyResult = envelope(
  z.object({
    user_id: z.string(),
    verification_code: z.string(),
    status: z.enum(['pending', 'verified', 'rejected']),
    rider_code: nullableString,
  }),
);

export const historyEntry = z.object({
  id: z.string(),
  action: z.enum(['verified', 'rejected', 'undone']),
  user_first_name: nullableString,
  user_last_name: nullableString,
  kit_name: nullableString,
  verification_code: nullableString,
  verified_at: z.string(),
  admin_first_name: nullableString,
  admin_last_name: nullableString,
  notes: nullableString,
});
export type HistoryEntry = z.infer<typeof historyEntry>;

export const historyQuery = z.object({
  page: pageParam,
  limit: limitParam(50),
});

export const historyResponse = z.object({
  success: z.literal(true),
  data: z.array(historyEntry),
  pagination,
});

export const verificationStats = z.object({
  pending: z.number().int(),
  approved: z.number().int(),
  rejected: z.number().int(),
  total: z.number().int(),
});
export type VerificationStats = z.infer<typeof verificationStats>;
export const verificationStatsResponse = envelope(verificationStats);

/** The rider's own verification, with the reason when it was rejected. */
export const myVerification = z.object({
  status: z.enum(['pending', 'verified', 'rejected']),
  verification_code: z.string(),
  /** The staff notes of a rejection; null unless the status is rejected. */
  rejection_notes: nullableString,
  decided_at: nullableString,
  has_payment_receipt: z.boolean(),
  /** Whether a new receipt may be sent now (rejected, or pending without a receipt). */
  can_resubmit: z.boolean(),
});
export type MyVerification = z.infer<typeof myVerification>;
export const myVerificationResponse = envelope(myVerification);
