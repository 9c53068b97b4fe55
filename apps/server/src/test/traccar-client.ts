// A test client that sends what Traccar Client sends, byte for byte, in each of its forms,
// and replays a GPX track through them (DESIGN.md §11):
// - `android`: the Android app (ProtocolFormatter + RequestManager): a POST whose parameters
//   are the URL's query string, in the app's order, numbers as Kotlin's Double.toString()
//   writes them, speed in knots (the app's own factor), battery as a percentage; empty body,
//   no content type, HttpURLConnection's headers;
// - `json`: app 9.x (flutter_background_geolocation with Traccar's location template): a JSON
//   object `{ location, device_id }` to the server URL with no query, speed in m/s, battery
//   0–1, the SOS button as `extras.alarm`;
// - `array`: app 10.x's "upload JSON": an array of objects with the form's keys (a buffer
//   flush in one request), timestamps in milliseconds;
// - `form`: the keys in an `application/x-www-form-urlencoded` body (other senders of the
//   protocol; Traccar's server reads it too).
import { readFileSync } from 'node:fs';
import type { FastifyInstance, InjectOptions, LightMyRequestResponse } from 'fastify';

export const OSMAND_PATH = '/api/tracking/osmand';

/** One fix as the phone has it (SI units, battery percent). */
export interface Fix {
  at: Date;
  lat: number;
  lon: number;
  /** m/s */
  speed: number;
  bearing: number;
  altitude: number;
  accuracy: number;
  /** percent 0–100 */
  battery: number;
  charging: boolean;
  sos?: boolean;
}

export type TraccarForm = 'android' | 'json' | 'array' | 'form';

/** The Android app's own factor (Position.kt): `location.speed * 1.943844`. */
const ANDROID_KNOTS = 1.943844;
const ANDROID_HEADERS = {
  'user-agent': 'Dalvik/2.1.0 (Linux; U; Android 13; SM-A145F Build/TP1A.220624.014)',
  host: 'rally.test',
  connection: 'Keep-Alive',
  'accept-encoding': 'gzip',
  'content-length': '0',
};
const JSON_HEADERS = {
  'user-agent': 'okhttp/4.12.0',
  'content-type': 'application/json',
  host: 'rally.test',
  connection: 'Keep-Alive',
  'accept-encoding': 'gzip',
};

/** Kotlin's Double.toString(): `95.0`, `7.4823`, `1.0E-4`, `1.2345678E7`. */
export function kotlinDouble(n: number): string {
  if (Number.isNaN(n)) return 'NaN';
  const abs = Math.abs(n);
  if (abs !== 0 && (abs < 1e-3 || abs >= 1e7)) {
    const [mantissa = '0', exponent = '0'] = n.toExponential().split('e');
    return `${mantissa.includes('.') ? mantissa : `${mantissa}.0`}E${Number(exponent)}`;
  }
  const s = String(n);
  return s.includes('.') ? s : `${s}.0`;
}

/** The Android app's request line: ProtocolFormatter.formatRequest's parameters, in its order. */
export function androidQuery(trackingId: string, fix: Fix): string {
  const params: Array<[string, string]> = [
    ['id', trackingId],
    ['timestamp', String(Math.floor(fix.at.getTime() / 1000))],
    ['lat', kotlinDouble(fix.lat)],
    ['lon', kotlinDouble(fix.lon)],
    ['speed', kotlinDouble(fix.speed * ANDROID_KNOTS)],
    ['bearing', kotlinDouble(fix.bearing)],
    ['altitude', kotlinDouble(fix.altitude)],
    ['accuracy', kotlinDouble(fix.accuracy)],
    ['batt', kotlinDouble(fix.battery)],
    ['charge', String(fix.charging)],
  ];
  if (fix.sos) params.push(['alarm', 'sos']);
  // Uri.Builder.appendQueryParameter encodes as encodeURIComponent does (and leaves - _ . ~ alone).
  return params.map(([k, v]) => `${k}=${encodeURIComponent(v)}`).join('&');
}

/** App 9.x's body: Traccar's location template filled in, one line, `device_id` from its params. */
export function legacyJsonBody(trackingId: string, fix: Fix, odometer = 0): string {
  const ts = fix.at.toISOString();
  const extras = fix.sos ? '{"alarm":"sos"}' : '{}';
  const location =
    `{"timestamp":"${ts}","coords":{"latitude":${fix.lat},"longitude":${fix.lon},"accuracy":${fix.accuracy},` +
    `"speed":${fix.speed},"heading":${fix.bearing},"altitude":${fix.altitude}},"is_moving":${fix.speed > 0.5},` +
    `"odometer":${odometer},"event":"","battery":{"level":${Math.round(fix.battery * 10) / 1000},` +
    `"is_charging":${fix.charging}},"activity":{"type":"${fix.speed > 0.5 ? 'in_vehicle' : 'still'}"},"extras":${extras},` +
    `"_":"&id=${trackingId}&lat=${fix.lat}&lon=${fix.lon}&timestamp=${ts}&"}`;
  return `{"location":${location},"device_id":"${trackingId}"}`;
}

/** One object of app 10.x's JSON upload: the form's keys and units. */
export function formObject(trackingId: string, fix: Fix): Record<string, string | number | boolean> {
  const out: Record<string, string | number | boolean> = {
    id: trackingId,
    lat: fix.lat,
    lon: fix.lon,
    timestamp: fix.at.getTime(),
    speed: Math.round(fix.speed * ANDROID_KNOTS * 1000) / 1000,
    bearing: fix.bearing,
    altitude: fix.altitude,
    accuracy: fix.accuracy,
    batt: fix.battery,
    charge: fix.charging,
  };
  if (fix.sos) out.alarm = 'sos';
  return out;
}

/** The request each form makes for `fixes` (one fix, except the array form). */
export function traccarRequest(form: TraccarForm, trackingId: string, fixes: readonly Fix[]): InjectOptions {
  const [fix] = fixes;
  if (!fix) throw new Error('no fix to send');
  if (form !== 'array' && fixes.length !== 1) throw new Error(`the ${form} form sends one fix a request`);
  switch (form) {
    case 'android':
      return {
        method: 'POST',
        url: `${OSMAND_PATH}?${androidQuery(trackingId, fix)}`,
        headers: ANDROID_HEADERS,
        payload: Buffer.alloc(0),
      };
    case 'json':
      return { method: 'POST', url: OSMAND_PATH, headers: JSON_HEADERS, payload: legacyJsonBody(trackingId, fix) };
    case 'array':
      return {
        method: 'POST',
        url: OSMAND_PATH,
        headers: JSON_HEADERS,
        payload: JSON.stringify(fixes.map((f) => formObject(trackingId, f))),
      };
    case 'form':
      return {
        method: 'POST',
        url: OSMAND_PATH,
        headers: { ...JSON_HEADERS, 'content-type': 'application/x-www-form-urlencoded' },
        payload: androidQuery(trackingId, fix),
      };
  }
}

export function sendFixes(
  app: FastifyInstance,
  form: TraccarForm,
  trackingId: string,
  fixes: readonly Fix[],
): Promise<LightMyRequestResponse> {
  return app.inject(traccarRequest(form, trackingId, fixes));
}

/** A GPX track point, with its `<type>` (the fixture marks `buffered` and `detour` points). */
export interface TrackPoint {
  lat: number;
  lon: number;
  ele: number;
  at: Date;
  type: string | null;
}

/** The track points of a GPX file, in file order. */
export function readGpx(file: string | URL): TrackPoint[] {
  const xml = readFileSync(file, 'utf8');
  const points: TrackPoint[] = [];
  for (const m of xml.matchAll(/<trkpt lat="([-\d.]+)" lon="([-\d.]+)">(.*?)<\/trkpt>/g)) {
    const inner = m[3] ?? '';
    const time = /<time>([^<]+)<\/time>/.exec(inner)?.[1];
    if (!time) throw new Error('a track point without a time');
    points.push({
      lat: Number(m[1]),
      lon: Number(m[2]),
      ele: Number(/<ele>([^<]+)<\/ele>/.exec(inner)?.[1] ?? 0),
      at: new Date(time),
      type: /<type>([^<]+)<\/type>/.exec(inner)?.[1] ?? null,
    });
  }
  return points;
}

const rad = (d: number) => (d * Math.PI) / 180;
function metres(a: { lat: number; lon: number }, b: { lat: number; lon: number }): number {
  const dLat = rad(b.lat - a.lat);
  const dLon = rad(b.lon - a.lon);
  const h = Math.sin(dLat / 2) ** 2 + Math.cos(rad(a.lat)) * Math.cos(rad(b.lat)) * Math.sin(dLon / 2) ** 2;
  return 2 * 6371008.8 * Math.asin(Math.sqrt(h));
}
function bearing(a: { lat: number; lon: number }, b: { lat: number; lon: number }): number {
  const y = Math.sin(rad(b.lon - a.lon)) * Math.cos(rad(b.lat));
  const x =
    Math.cos(rad(a.lat)) * Math.sin(rad(b.lat)) -
    Math.sin(rad(a.lat)) * Math.cos(rad(b.lat)) * Math.cos(rad(b.lon - a.lon));
  return Math.round(((Math.atan2(y, x) * 180) / Math.PI + 360) % 360);
}

/**
 * The fixes a phone would have made along the track, shifted so the first is at `start`:
 * speed and bearing from the neighbouring points, GPS accuracy, a battery that drains.
 */
export function fixesOf(points: readonly TrackPoint[], start: Date): Fix[] {
  const first = points[0];
  if (!first) return [];
  const shift = start.getTime() - first.at.getTime();
  return points.map((p, i) => {
    const prev = points[i - 1];
    const seconds = prev ? (p.at.getTime() - prev.at.getTime()) / 1000 : 0;
    const speed = prev && seconds > 0 ? Math.round((metres(prev, p) / seconds) * 100) / 100 : 0;
    const minutes = (p.at.getTime() - first.at.getTime()) / 60_000;
    return {
      at: new Date(p.at.getTime() + shift),
      lat: p.lat,
      lon: p.lon,
      speed,
      bearing: prev ? bearing(prev, p) : 0,
      altitude: p.ele,
      accuracy: 4 + (i % 5),
      battery: Math.round((97 - minutes * 0.12) * 10) / 10,
      charging: false,
    };
  });
}

/**
 * Replays a track as a phone in the hills delivers it: the fixes marked `buffered` (a valley
 * without coverage) are held and sent as one JSON array after `heldFor` newer fixes went
 * ahead; the others go one request each, taking turns among the single forms.
 */
export async function replayTrack(
  app: FastifyInstance,
  trackingId: string,
  points: readonly TrackPoint[],
  start: Date,
  opts: { heldFor?: number; forms?: readonly Exclude<TraccarForm, 'array'>[] } = {},
): Promise<{ requests: number; statuses: number[]; held: Fix[] }> {
  const forms = opts.forms ?? ['android', 'json', 'form'];
  const heldFor = opts.heldFor ?? 5;
  const fixes = fixesOf(points, start);
  const statuses: number[] = [];
  const held: Fix[] = [];
  let sentSinceHeld = 0;
  let flushed = false;
  let n = 0;
  const flush = async () => {
    flushed = true;
    const res = await sendFixes(app, 'array', trackingId, held);
    statuses.push(res.statusCode);
  };
  for (const [i, fix] of fixes.entries()) {
    if (points[i]?.type === 'buffered') {
      held.push(fix);
      continue;
    }
    const res = await sendFixes(app, forms[n++ % forms.length] ?? 'android', trackingId, [fix]);
    statuses.push(res.statusCode);
    if (held.length > 0 && !flushed && ++sentSinceHeld >= heldFor) await flush();
  }
  if (held.length > 0 && !flushed) await flush();
  return { requests: statuses.length, statuses, held };
}
