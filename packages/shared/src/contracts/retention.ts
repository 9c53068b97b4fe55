// Data retention per edition (DESIGN.md §12): how many days after the edition's last day each
// kind of personal data is kept, and what the daily job did. The organiser edits the days
// in the console's Editions tab; a kind left unset keeps the catalog's default.
import { z } from 'zod';
import { RETENTION_KINDS, type RetentionKind } from '../catalog/privacy';
import { envelope } from './common';

/** The most days an organiser may set: ten years. */
export const RETENTION_DAYS_MAX = 3650;

const days = (kind: RetentionKind) =>
  z
    .number({ message: `${kind} must be a number of days` })
    .int({ message: `${kind} must be a whole number of days` })
    .min(0, { message: `${kind} must be at least 0 days` })
    .max(RETENTION_DAYS_MAX, { message: `${kind} must be at most ${RETENTION_DAYS_MAX} days` })
    .nullable()
    .optional();

/** Days per kind; a kind left out or null keeps the default. The whole setting is replaced. */
export const updateRetentionRequest = z.object(
  Object.fromEntries(RETENTION_KINDS.map((kind) => [kind, days(kind)])) as Record<
    RetentionKind,
    ReturnType<typeof days>
  >,
);
export type UpdateRetentionRequest = z.infer<typeof updateRetentionRequest>;

export const retentionKindState = z.object({
  kind: z.enum(RETENTION_KINDS),
  label: z.string(),
  /** Days after the edition's last day: the edition's own, or the default. */
  days: z.number().int(),
  isDefault: z.boolean(),
  defaultDays: z.number().int(),
  /** When it goes (the job runs daily, so within a day of it); null: the edition has no end date. */
  goesOn: z.string().nullable(),
  /** When the job removed or anonymised it; null: not yet. */
  wentAt: z.string().nullable(),
  /** How many records went then; null: not yet. */
  rows: z.number().int().nullable(),
});
export type RetentionKindState = z.infer<typeof retentionKindState>;

export const retention = z.object({
  editionId: z.string(),
  /** The edition's last day (YYYY-MM-DD); the days count from the end of it, in the Philippines. */
  endsOn: z.string().nullable(),
  /** The current edition with its registration open: nothing goes until registration closes. */
  heldOpen: z.boolean(),
  kinds: z.array(retentionKindState),
});
export type Retention = z.infer<typeof retention>;

export const retentionResponse = envelope(z.object({ retention }));
