// Analytics contracts: the organisers' figures over the registered riders (participant and
// guest accounts the viewer may see), counted by the server in one read.
import { z } from 'zod';
import { RALLY_ROUTE_IDS } from '../catalog/event-day';
import { CATEGORIES, PAYMENT_METHODS } from '../catalog/registration';
import { envelope } from './common';
import { registrationsComparison } from './editions';

/** Riders registered on one Manila calendar day (`YYYY-MM-DD`); days without any are listed with 0. */
export const registrationDay = z.object({ date: z.string(), riders: z.number().int() });

/** One size line of a kit item: a standard size, one custom size text (as riders spelt it), or not set. */
export const sizeLine = z.object({
  size: z.string(),
  /** The custom size text when `size` is CUSTOM (grouped without regard to case and spaces), else empty. */
  custom: z.string(),
  riders: z.number().int(),
});
export type SizeLine = z.infer<typeof sizeLine>;

export const analytics = z.object({
  /** Every rider counted below. */
  riders: z.number().int(),
  registrations_per_day: z.array(registrationDay),
  status: z.object({ verified: z.number().int(), pending: z.number().int(), rejected: z.number().int() }),
  /** Every catalog category (0 included), then riders without one (`category: null`) when there are any. */
  categories: z.array(z.object({ category: z.enum(CATEGORIES).nullable(), riders: z.number().int() })),
  /** Every route (0 included); magani rides lakambini's, an OBR category its base's. */
  routes: z.array(z.object({ route: z.enum(RALLY_ROUTE_IDS).nullable(), riders: z.number().int() })),
  /** Clubs as riders typed them, grouped without regard to case and spaces, most riders first; `null` is no club. */
  clubs: z.array(z.object({ club: z.string().nullable(), riders: z.number().int() })),
  /** Every payment method (0 included), then riders without one (`method: null`) when there are any. */
  payment_methods: z.array(z.object({ method: z.enum(PAYMENT_METHODS).nullable(), riders: z.number().int() })),
  /**
   * Kit sizes of the verified riders (the ones given a kit): every standard size (0
   * included), each custom size text, then `Not set`.
   */
  sizes: z.object({ tshirt: z.array(sizeLine), finisher_sleeve: z.array(sizeLine), vest: z.array(sizeLine) }),
  /**
   * Time from a rider's registration (or their latest receipt upload, when later) to their
   * verification, over the verified riders; null while none is verified.
   */
  /**
   * Entries per day since each edition's first, this edition against the last one
   * (DESIGN.md §9): day 1 is the day of the edition's first entry.
   */
  registrations_by_edition: registrationsComparison.optional(),
  turnaround: z.object({
    verified: z.number().int(),
    median_seconds: z.number().nullable(),
    p90_seconds: z.number().nullable(),
  }),
});
export type Analytics = z.infer<typeof analytics>;
export const analyticsResponse = envelope(analytics);
