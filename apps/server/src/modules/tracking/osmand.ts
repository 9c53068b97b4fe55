// The OsmAnd protocol as Traccar Client speaks it (DESIGN.md §11), read by hand: its three
// forms carry the same position in different shapes and units, and a phone's answer decides
// whether it keeps its buffer, so every refusal names its reason. Pure: no database here.
//
// - the Android app (and the iOS one): a POST whose parameters are the query string and whose
//   body is empty; other senders put the same keys in an `application/x-www-form-urlencoded`
//   body. Speed in knots, battery 0–100, timestamp in Unix seconds;
// - app 9.x (flutter_background_geolocation): a JSON object `{ location: { timestamp (ISO),
//   coords: { latitude, longitude, accuracy, speed (m/s), heading, altitude }, battery: {
//   level (0–1), is_charging }, extras: { alarm } }, device_id }`; -1 means "unknown";
// - app 10.x "upload JSON": a JSON array of objects with the form's keys and units.
import { createHash } from 'node:crypto';
import { KNOTS_TO_MS, POSITION_FUTURE_MS } from '@rally/shared/catalog/tracking';
import { envelope } from '@rally/shared/contracts/common';
import { z } from 'zod';
import { BadRequestError } from '../../lib/errors';

/** One position as read, in the product's units (m/s, percent). */
export interface OsmandPoint {
  at: Date;
  lat: number;
  lng: number;
  speed: number | null;
  bearing: number | null;
  altitude: number | null;
  accuracy: number | null;
  battery: number | null;
  charging: boolean | null;
  /** The app's SOS button. */
  sos: boolean;
}

export interface OsmandRequest {
  trackingId: string;
  points: OsmandPoint[];
}

/** A batch larger than this is no buffer flush Traccar Client would send (it sends one at a time or a page). */
export const MAX_POINTS_PER_REQUEST = 5000;
/** Tracking ids the server hands out are 22–64 characters; anything far longer is not one. */
const MAX_ID_LENGTH = 128;

const invalid = (message: string) => new BadRequestError(message, 'INVALID_POSITION');

type Fields = Record<string, unknown>;

function first(value: unknown): unknown {
  return Array.isArray(value) ? value[0] : value;
}

function text(value: unknown): string | undefined {
  const v = first(value);
  if (v === undefined || v === null) return undefined;
  if (typeof v === 'string') return v.trim() === '' ? undefined : v.trim();
  if (typeof v === 'number' || typeof v === 'boolean') return String(v);
  return undefined;
}

/** A number, or undefined when absent; a value that is there but no finite number is refused. */
function number(value: unknown, name: string, where: string): number | undefined {
  const v = first(value);
  if (v === undefined || v === null || (typeof v === 'string' && v.trim() === '')) return undefined;
  const n = typeof v === 'number' ? v : typeof v === 'string' ? Number(v.trim()) : Number.NaN;
  if (!Number.isFinite(n)) throw invalid(`${where}${name} must be a number, got ${JSON.stringify(v)}`);
  return n;
}

function bool(value: unknown): boolean | null {
  const v = first(value);
  if (v === true || v === 'true' || v === '1' || v === 1) return true;
  if (v === false || v === 'false' || v === '0' || v === 0) return false;
  return null;
}

const ISO_8601 = /^\d{4}-\d{2}-\d{2}[T ]\d{2}:\d{2}(:\d{2}(\.\d+)?)?(Z|[+-]\d{2}:?\d{2})?$/i;

/**
 * Unix seconds or milliseconds (as Traccar's own server tells them apart: below 2^31 is
 * seconds), or ISO 8601; a time without a zone is UTC, as the apps send it.
 */
export function parseTimestamp(value: unknown, where = ''): Date {
  const v = first(value);
  if (v === undefined || v === null || v === '') throw invalid(`${where}timestamp is required`);
  const raw = typeof v === 'number' ? String(v) : typeof v === 'string' ? v.trim() : '';
  let ms: number;
  if (/^\d+(\.\d+)?$/.test(raw)) {
    const n = Number(raw);
    ms = n < 2 ** 31 ? Math.round(n * 1000) : Math.round(n);
  } else if (ISO_8601.test(raw)) {
    const zoned = /(Z|[+-]\d{2}:?\d{2})$/i.test(raw) ? raw : `${raw}Z`;
    ms = Date.parse(zoned.replace(' ', 'T'));
  } else {
    ms = Number.NaN;
  }
  if (!Number.isFinite(ms) || ms < 0) {
    throw invalid(`${where}timestamp must be Unix seconds, milliseconds or an ISO 8601 time, got ${JSON.stringify(v)}`);
  }
  return new Date(ms);
}

function coordinates(lat: number | undefined, lng: number | undefined, where: string) {
  if (lat === undefined) throw invalid(`${where}lat is required`);
  if (lng === undefined) throw invalid(`${where}lon is required`);
  if (lat < -90 || lat > 90) throw invalid(`${where}lat must be between -90 and 90, got ${lat}`);
  if (lng < -180 || lng > 180) throw invalid(`${where}lon must be between -180 and 180, got ${lng}`);
  return { lat, lng };
}

/** Unknown (-1, or absent) reads as null; the apps never mean a negative speed, accuracy or heading. */
const known = (n: number | undefined) => (n === undefined || n < 0 ? null : n);

function battery(percent: number | undefined, where: string): number | null {
  if (percent === undefined || percent < 0) return null;
  if (percent > 100) throw invalid(`${where}batt must be a percentage (0–100), got ${percent}`);
  return percent;
}

/** One position of the form's keys (query string, form body, or an item of the JSON array). */
function formPoint(f: Fields, where = ''): OsmandPoint {
  const { lat, lng } = coordinates(number(f.lat, 'lat', where), number(f.lon, 'lon', where), where);
  const knots = known(number(f.speed, 'speed', where));
  return {
    at: parseTimestamp(f.timestamp, where),
    lat,
    lng,
    speed: knots === null ? null : knots * KNOTS_TO_MS,
    bearing: known(number(f.bearing ?? f.heading, 'bearing', where)),
    altitude: number(f.altitude, 'altitude', where) ?? null,
    accuracy: known(number(f.accuracy, 'accuracy', where)),
    battery: battery(number(f.batt, 'batt', where), where),
    charging: bool(f.charge),
    sos: text(f.alarm)?.toLowerCase() === 'sos',
  };
}

const isObject = (v: unknown): v is Fields => typeof v === 'object' && v !== null && !Array.isArray(v);

/** App 9.x's location object (flutter_background_geolocation's template). */
function locationPoint(location: Fields): OsmandPoint {
  const where = 'location.';
  const coords = isObject(location.coords) ? location.coords : {};
  const { lat, lng } = coordinates(
    number(coords.latitude, 'coords.latitude', where),
    number(coords.longitude, 'coords.longitude', where),
    where,
  );
  const batt = isObject(location.battery) ? location.battery : {};
  const level = known(number(batt.level, 'battery.level', where));
  if (level !== null && level > 1) throw invalid(`location.battery.level must be between 0 and 1, got ${level}`);
  const extras = isObject(location.extras) ? location.extras : {};
  return {
    at: parseTimestamp(location.timestamp, where),
    lat,
    lng,
    speed: known(number(coords.speed, 'coords.speed', where)),
    bearing: known(number(coords.heading, 'coords.heading', where)),
    altitude: number(coords.altitude, 'coords.altitude', where) ?? null,
    accuracy: known(number(coords.accuracy, 'coords.accuracy', where)),
    battery: level === null ? null : Math.round(level * 1000) / 10,
    charging: bool(batt.is_charging),
    sos: text(extras.alarm ?? location.alarm)?.toLowerCase() === 'sos',
  };
}

function idOf(...candidates: unknown[]): string {
  for (const c of candidates) {
    const id = text(c);
    if (id !== undefined) {
      if (id.length > MAX_ID_LENGTH) throw invalid('id is too long to be a tracking id');
      return id;
    }
  }
  throw invalid('id is required: the tracking id from your rider pass');
}

/**
 * Reads a request in any of the three forms. `body`: the parsed JSON (object or array), the
 * parsed form (an object of strings), or nothing. The query string's `id` serves a body that
 * names none (the Android app's URL may carry it).
 */
export function readOsmand(query: Fields, body: unknown): OsmandRequest {
  if (Array.isArray(body)) {
    if (body.length === 0) throw invalid('The JSON array holds no position');
    if (body.length > MAX_POINTS_PER_REQUEST)
      throw invalid(`At most ${MAX_POINTS_PER_REQUEST} positions in one request, got ${body.length}`);
    let trackingId: string | undefined;
    const points = body.map((item, i) => {
      const where = `[${i}].`;
      if (!isObject(item)) throw invalid(`${where.slice(0, -1)} must be an object of the OsmAnd keys`);
      const id = idOf(item.id, item.deviceid, query.id, query.deviceid);
      if (trackingId !== undefined && id !== trackingId)
        throw invalid('Every position of one request must carry the same id');
      trackingId = id;
      return formPoint(item, where);
    });
    return { trackingId: trackingId as string, points };
  }
  if (isObject(body) && isObject(body.location)) {
    return {
      trackingId: idOf(body.device_id, body.id, query.id, query.deviceid),
      points: [locationPoint(body.location)],
    };
  }
  // The same plugin's batch upload (batchSync): `location` holds a list.
  if (isObject(body) && Array.isArray(body.location)) {
    const list = body.location;
    if (list.length === 0) throw invalid('location holds no position');
    if (list.length > MAX_POINTS_PER_REQUEST)
      throw invalid(`At most ${MAX_POINTS_PER_REQUEST} positions in one request, got ${list.length}`);
    return {
      trackingId: idOf(body.device_id, body.id, query.id, query.deviceid),
      points: list.map((item, i) => {
        if (!isObject(item)) throw invalid(`location[${i}] must be an object`);
        return locationPoint(item);
      }),
    };
  }
  // The query string, completed (or overridden) by a form body's keys.
  const fields: Fields = { ...query, ...(isObject(body) ? body : {}) };
  return { trackingId: idOf(fields.id, fields.deviceid), points: [formPoint(fields)] };
}

/**
 * Times the product refuses: more than a day ahead of the server's clock (a phone with a wrong
 * date would pin "last position" in the future) or before the edition started (no rider rides
 * then; it is another year's buffer, or a clock reset to 1970).
 */
export function checkTimes(points: readonly OsmandPoint[], now: Date, earliest: Date, editionName: string): void {
  const latest = now.getTime() + POSITION_FUTURE_MS;
  for (const p of points) {
    if (p.at.getTime() > latest)
      throw invalid(`timestamp ${p.at.toISOString()} is more than 24 hours ahead of the server's clock`);
    if (p.at.getTime() < earliest.getTime())
      throw invalid(`timestamp ${p.at.toISOString()} is before ${editionName} started (${earliest.toISOString()})`);
  }
}

/**
 * The SOS id of a tracker's alarm: the same tracking id and time always make the same id, so
 * the app's resend after a lost answer opens nothing twice (a UUID of version 8's layout).
 */
export function trackerSosId(trackingId: string, at: Date): string {
  const h = createHash('sha256').update(`rally tracker sos ${trackingId} ${at.toISOString()}`).digest();
  h[6] = ((h[6] as number) & 0x0f) | 0x80;
  h[8] = ((h[8] as number) & 0x3f) | 0x80;
  const hex = h.subarray(0, 16).toString('hex');
  return `${hex.slice(0, 8)}-${hex.slice(8, 12)}-${hex.slice(12, 16)}-${hex.slice(16, 20)}-${hex.slice(20)}`;
}

// The document's description of the three forms (the route reads them by hand, above).
const wireValue = z.union([z.string(), z.number(), z.boolean()]);
const formKeys = {
  id: wireValue.optional().describe('The tracking id (the credential)'),
  deviceid: wireValue.optional().describe('Same as id'),
  lat: wireValue.optional().describe('Latitude, -90 to 90'),
  lon: wireValue.optional().describe('Longitude, -180 to 180'),
  timestamp: wireValue.optional().describe('Unix seconds, milliseconds, or ISO 8601'),
  speed: wireValue.optional().describe('Knots'),
  bearing: wireValue.optional().describe('Degrees'),
  altitude: wireValue.optional().describe('Metres'),
  accuracy: wireValue.optional().describe('Metres'),
  batt: wireValue.optional().describe('Battery, percent 0–100'),
  charge: wireValue.optional().describe('true or false'),
  alarm: wireValue.optional().describe('`sos`: the app’s SOS button'),
};
export const osmandQuery = z.object(
  Object.fromEntries(
    Object.entries(formKeys).map(([k, v]) => [
      k,
      z
        .string()
        .optional()
        .describe(v.description ?? k),
    ]),
  ),
);
const osmandFields = z.looseObject(formKeys);
const locationObject = z.looseObject({
  timestamp: z.string().optional(),
  coords: z.looseObject({}).optional().describe('latitude, longitude, accuracy, speed (m/s), heading, altitude'),
  battery: z.looseObject({}).optional().describe('level (0–1), is_charging'),
  extras: z.looseObject({}).optional().describe('alarm: `sos`'),
});
const osmandLocation = z.looseObject({
  location: z.union([locationObject, z.array(locationObject)]),
  device_id: wireValue.optional(),
});
export const osmandBody = z
  .union([osmandLocation, z.array(osmandFields), osmandFields])
  .optional()
  .describe(
    'One of: the form’s keys (as a form, or a JSON object); app 9.x’s `{ location, device_id }`; app 10.x’s JSON array of form objects (a buffer flush).',
  );
export const osmandAnswer = envelope(
  z.object({
    stored: z.number().int().describe('Positions stored by this request (0 for a resend)'),
    fresh: z.number().int().describe('Of those, how many were newer than the last position'),
    sos: z.object({ incidentId: z.string(), created: z.boolean() }).nullable(),
    sosRefused: z
      .string()
      .nullable()
      .describe('Why the alarm opened no SOS (the hourly caps); the positions are stored'),
  }),
);
