import { KNOTS_TO_MS } from '@rally/shared/catalog/tracking';
import { describe, expect, it } from 'vitest';
import { androidQuery, kotlinDouble, legacyJsonBody } from '../../test/traccar-client';
import { checkTimes, parseTimestamp, readOsmand, trackerSosId } from './osmand';

const query = (text: string) => Object.fromEntries(new URLSearchParams(text));
const AT = new Date('2026-12-06T00:30:00Z');
const fix = {
  at: AT,
  lat: 8.367912,
  lon: 124.864123,
  speed: 12.5,
  bearing: 135,
  altitude: 640.5,
  accuracy: 6,
  battery: 81,
  charging: false,
};

describe('the OsmAnd protocol as Traccar Client sends it', () => {
  it('reads the Android app’s query string: knots to m/s, battery in percent', () => {
    const line = androidQuery('abc_DEF-123', fix);
    expect(line).toBe(
      'id=abc_DEF-123&timestamp=1796517000&lat=8.367912&lon=124.864123&speed=24.29805&bearing=135.0&altitude=640.5&accuracy=6.0&batt=81.0&charge=false',
    );
    const { trackingId, points } = readOsmand(query(line), undefined);
    expect(trackingId).toBe('abc_DEF-123');
    expect(points).toHaveLength(1);
    expect(points[0]).toMatchObject({ at: AT, lat: 8.367912, lng: 124.864123, bearing: 135, altitude: 640.5 });
    expect(points[0]?.speed).toBeCloseTo(24.29805 * KNOTS_TO_MS, 9);
    expect(points[0]).toMatchObject({ accuracy: 6, battery: 81, charging: false, sos: false });
  });

  it('reads app 9.x’s JSON: m/s as it is, battery 0–1, -1 as unknown, the SOS in extras', () => {
    const body = JSON.parse(legacyJsonBody('tid', { ...fix, sos: true }));
    expect(body.device_id).toBe('tid');
    const { trackingId, points } = readOsmand({}, body);
    expect(trackingId).toBe('tid');
    expect(points[0]).toMatchObject({ at: AT, speed: 12.5, bearing: 135, battery: 81, charging: false, sos: true });
    body.location.coords.speed = -1;
    body.location.coords.heading = -1;
    body.location.battery.level = -1;
    expect(readOsmand({}, body).points[0]).toMatchObject({ speed: null, bearing: null, battery: null });
    // The plugin's batch upload: `location` holds a list.
    const batch = readOsmand(
      {},
      { location: [body.location, { ...body.location, timestamp: '2026-12-06T00:31:00Z' }], device_id: 'tid' },
    );
    expect(batch.points.map((p) => p.at.toISOString())).toEqual([AT.toISOString(), '2026-12-06T00:31:00.000Z']);
  });

  it('reads a JSON array of form objects, and a form body over the query string', () => {
    const { points } = readOsmand({}, [
      { id: 't', lat: 8.1, lon: 125.1, timestamp: AT.getTime(), speed: 10, batt: 50, charge: true },
      { id: 't', lat: '8.2', lon: '125.2', timestamp: AT.toISOString(), alarm: 'SOS' },
    ]);
    expect(points.map((p) => [p.lat, p.at.toISOString(), p.sos])).toEqual([
      [8.1, AT.toISOString(), false],
      [8.2, AT.toISOString(), true],
    ]);
    expect(points[0]).toMatchObject({ battery: 50, charging: true });
    expect(points[0]?.speed).toBeCloseTo(10 * KNOTS_TO_MS, 9);
    const form = readOsmand({ id: 'from-url' }, { lat: '7.9', lon: '125.09', timestamp: '1796517000' });
    expect(form.trackingId).toBe('from-url');
    expect(form.points[0]).toMatchObject({ lat: 7.9, lng: 125.09, at: AT });
  });

  it('tells seconds, milliseconds and ISO 8601 apart', () => {
    expect(parseTimestamp('1796517000')).toEqual(AT);
    expect(parseTimestamp(1796517000000)).toEqual(AT);
    expect(parseTimestamp('1796517000.5')).toEqual(new Date(AT.getTime() + 500));
    expect(parseTimestamp('2026-12-06T08:30:00+08:00')).toEqual(AT);
    expect(parseTimestamp('2026-12-06 00:30:00')).toEqual(AT);
    expect(() => parseTimestamp('06/12/2026')).toThrow(/Unix seconds, milliseconds or an ISO 8601/);
  });

  it('names the problem of a malformed position', () => {
    const at = '1796517000';
    expect(() => readOsmand(query(`id=x&lat=91&lon=1&timestamp=${at}`), undefined)).toThrow(
      'lat must be between -90 and 90, got 91',
    );
    expect(() => readOsmand(query(`id=x&lat=1&lon=181&timestamp=${at}`), undefined)).toThrow('lon must be between');
    expect(() => readOsmand(query(`id=x&lat=NaN&lon=1&timestamp=${at}`), undefined)).toThrow('lat must be a number');
    expect(() => readOsmand({}, [])).toThrow('holds no position');
    expect(() => readOsmand({}, [{ id: 'x', lat: 1, lon: 1, timestamp: at }, 'x'])).toThrow('[1] must be an object');
    expect(() => readOsmand({}, { location: { coords: { latitude: 1, longitude: 1 } } })).toThrow('id is required');
    expect(() =>
      checkTimes(
        readOsmand(query(`id=x&lat=1&lon=1&timestamp=${at}`), undefined).points,
        new Date(AT.getTime() - 25 * 3_600_000),
        new Date(0),
        'E',
      ),
    ).toThrow('more than 24 hours ahead');
    expect(() =>
      checkTimes(
        readOsmand(query(`id=x&lat=1&lon=1&timestamp=${at}`), undefined).points,
        AT,
        new Date(AT.getTime() + 1),
        'Rally 2026',
      ),
    ).toThrow('before Rally 2026 started');
  });

  it('writes doubles as Kotlin does, and makes the same SOS id for the same alarm', () => {
    expect([95, 0, 7.4823, 0.0001, 12345678.5, -3].map(kotlinDouble)).toEqual([
      '95.0',
      '0.0',
      '7.4823',
      '1.0E-4',
      '1.23456785E7',
      '-3.0',
    ]);
    expect(trackerSosId('t', AT)).toBe(trackerSosId('t', new Date(AT.getTime())));
    expect(trackerSosId('t', AT)).not.toBe(trackerSosId('t', new Date(AT.getTime() + 1000)));
    expect(trackerSosId('t', AT)).toMatch(/^[0-9a-f]{8}-[0-9a-f]{4}-8[0-9a-f]{3}-[89ab][0-9a-f]{3}-[0-9a-f]{12}$/);
  });
});
