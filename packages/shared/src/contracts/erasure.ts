// Erasure on request (DESIGN.md §12): the rider asks, staff with `delete_user` approve (the
// account is deleted in the same transaction) or refuse with a reason. What remains of an
// approved request is a line saying that it happened.
import { z } from 'zod';
import { envelope, intParam, pagination } from './common';

export const ERASURE_STATUSES = ['pending', 'approved', 'refused'] as const;
export type ErasureStatus = (typeof ERASURE_STATUSES)[number];
export const erasureStatus = z.enum(ERASURE_STATUSES);

/** How long the rider's own words may be, and a staff member's reason. */
export const ERASURE_NOTE_MAX = 1000;
export const ERASURE_REASON_MIN = 3;
export const ERASURE_REASON_MAX = 1000;

/** POST /api/my/erasure-request: an optional note (an empty one is stored as none). */
export const erasureRequestBody = z.object({
  note: z
    .string({ message: 'note must be text' })
    .trim()
    .max(ERASURE_NOTE_MAX, { message: `note must be at most ${ERASURE_NOTE_MAX} characters` })
    .nullish(),
});
export type ErasureRequestBody = z.infer<typeof erasureRequestBody>;

/** The rider's own request, as My Profile shows it. */
export const myErasureRequest = z.object({
  id: z.string(),
  status: erasureStatus,
  note: z.string().nullable(),
  requestedAt: z.string(),
  decidedAt: z.string().nullable(),
  /** Why staff refused (or approved); shown to the rider with a refusal. */
  reason: z.string().nullable(),
});
export type MyErasureRequest = z.infer<typeof myErasureRequest>;

/** GET /api/my/erasure-request: the rider's latest request, or null when they never asked. */
export const myErasureRequestResponse = envelope(myErasureRequest.nullable());

/** The rider behind a request while the account exists (null once erased). */
export const erasureRider = z.object({
  id: z.string(),
  name: z.string(),
  email: z.string(),
  /** In the current edition, when they hold one. */
  riderNumber: z.number().int().nullable(),
});

export const adminErasureRequest = z.object({
  id: z.string(),
  status: erasureStatus,
  /** Null once the account is gone: an approved request names nobody. */
  rider: erasureRider.nullable(),
  note: z.string().nullable(),
  requestedAt: z.string(),
  decidedAt: z.string().nullable(),
  decidedByName: z.string().nullable(),
  reason: z.string().nullable(),
});
export type AdminErasureRequest = z.infer<typeof adminErasureRequest>;

/** GET /api/admin/erasure-requests (delete_user): newest first; `decided` is approved or refused. */
export const erasureRequestsQuery = z.object({
  status: z
    .enum([...ERASURE_STATUSES, 'decided'], { message: 'status must be pending, approved, refused or decided' })
    .optional(),
  page: intParam('page', { min: 1, max: 100_000, default: 1 }),
  limit: intParam('limit', { min: 1, max: 100, default: 25 }),
});
export type ErasureRequestsQuery = z.infer<typeof erasureRequestsQuery>;
export const erasureRequestsResponse = envelope(z.object({ requests: z.array(adminErasureRequest), pagination }));

/** POST /api/admin/erasure-requests/{id}/approve and /refuse: the reason is required. */
export const erasureDecisionBody = z.object({
  reason: z
    .string({ message: 'reason is required' })
    .trim()
    .min(ERASURE_REASON_MIN, { message: `reason must be at least ${ERASURE_REASON_MIN} characters` })
    .max(ERASURE_REASON_MAX, { message: `reason must be at most ${ERASURE_REASON_MAX} characters` }),
});
export type ErasureDecisionBody = z.infer<typeof erasureDecisionBody>;
export const adminErasureRequestResponse = envelope(adminErasureRequest);
