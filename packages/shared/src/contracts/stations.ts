// Stations: the places on the course where marshals record riders.
// Event-day payloads are camelCase throughout.
import { z } from 'zod';
import { RALLY_ROUTE_IDS, STATION_KINDS, STATION_NAME_MAX } from '../catalog/event-day';
import { STATION_CODE_MAX, STATION_CODE_PATTERN } from '../catalog/messages';
import { envelope, isoDateTime } from './common';

/** Text a marshal or organiser types: no control characters (a NUL breaks PostgreSQL). */
export const plainText = (field: string, max: number) =>
  z
    .string({ message: `${field} must be text` })
    .trim()
    .min(1, { message: `${field} is required` })
    .max(max, { message: `${field} must be at most ${max} characters` })
    // biome-ignore lint/suspicious/noControlCharactersInRegex: refusing control characters is the point
    .refine((v) => !/[\u0000-\u001f\u007f]/.test(v), { message: `${field} must not contain control characters` });

export const stationKind = z.enum(STATION_KINDS, { message: `kind must be one of: ${STATION_KINDS.join(', ')}` });
export type StationKind = z.infer<typeof stationKind>;
export const routeId = z.enum(RALLY_ROUTE_IDS, { message: `routes must hold only: ${RALLY_ROUTE_IDS.join(', ')}` });

/**
 * A station's short code for marshals' texts (`CP3 42 57`, DESIGN.md §10): typed in any
 * case, kept upper-case. `SOS` starts a rider's help text, so it can name no station.
 */
export const stationCode = z
  .string({ message: 'code must be text' })
  // STATION_CODE_PATTERN in either case (the document shows what may be sent).
  .regex(/^[A-Za-z][A-Za-z0-9]*$/, { message: 'code must be a letter then letters or digits, e.g. CP3' })
  .max(STATION_CODE_MAX, { message: `code must be at most ${STATION_CODE_MAX} characters` })
  .toUpperCase()
  .refine((v) => STATION_CODE_PATTERN.test(v), { message: 'code must be a letter then letters or digits, e.g. CP3' })
  .refine((v) => v !== 'SOS', { message: 'code SOS is kept for riders’ help texts; choose another' });

export const station = z.object({
  id: z.string(),
  name: z.string(),
  /** Unique short code marshals text (CP3); generated from the kind when not given. */
  code: z.string(),
  kind: stationKind,
  day: z.number().int(),
  routes: z.array(routeId),
  order: z.number().int(),
  lat: z.number().nullable(),
  lng: z.number().nullable(),
  opensAt: z.string().nullable(),
  closesAt: z.string().nullable(),
  required: z.boolean(),
  closed: z.boolean(),
  scanCount: z.number().int(),
});
export type Station = z.infer<typeof station>;

const stationFields = {
  name: plainText('name', STATION_NAME_MAX),
  code: stationCode,
  kind: stationKind,
  day: z
    .number({ message: 'day must be a number' })
    .int({ message: 'day must be a whole number' })
    .min(1, { message: 'day must be at least 1' })
    .max(30, { message: 'day must be at most 30' }),
  routes: z.array(routeId).max(RALLY_ROUTE_IDS.length),
  order: z
    .number({ message: 'order must be a number' })
    .int({ message: 'order must be a whole number' })
    .min(0)
    .max(10_000),
  lat: z
    .number({ message: 'lat must be a number' })
    .min(-90, { message: 'lat must be between -90 and 90' })
    .max(90, { message: 'lat must be between -90 and 90' })
    .nullable(),
  lng: z
    .number({ message: 'lng must be a number' })
    .min(-180, { message: 'lng must be between -180 and 180' })
    .max(180, { message: 'lng must be between -180 and 180' })
    .nullable(),
  opensAt: isoDateTime('opensAt').nullable(),
  closesAt: isoDateTime('closesAt').nullable(),
  required: z.boolean({ message: 'required must be true or false' }),
};

/** Every station field optional: what a create may leave to its defaults and an update may leave alone. */
const optionalStationFields = z.object(stationFields).partial();

/**
 * POST /api/admin/stations: name and kind required; defaults day 1, routes [], order after
 * the last, required false, and a code of the kind's prefix and the next free number (CP4).
 */
export const createStationRequest = optionalStationFields.extend({
  name: stationFields.name,
  kind: stationFields.kind,
});
export type CreateStationRequest = z.infer<typeof createStationRequest>;

/** PATCH /api/admin/stations/{id}: any field; `closed` closes or reopens. */
export const updateStationRequest = optionalStationFields
  .extend({ closed: z.boolean({ message: 'closed must be true or false' }).optional() })
  .refine((v) => Object.keys(v).length > 0, { message: 'Nothing to change' });
export type UpdateStationRequest = z.infer<typeof updateStationRequest>;

/** POST /api/admin/stations/reorder: the ids of one day's stations in their new order. */
export const reorderStationsRequest = z.object({
  day: stationFields.day,
  ids: z
    .array(z.uuid({ message: 'ids must hold station ids' }))
    .min(1)
    .max(200),
});

export const stationListResponse = envelope(z.array(station));
export const stationResponse = envelope(station);
