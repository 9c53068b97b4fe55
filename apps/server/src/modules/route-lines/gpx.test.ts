import { readFileSync } from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { lineLengthM } from '@rally/shared/geo';
import { describe, expect, it } from 'vitest';
import { GPX_MAX_POINTS, parseGpx } from './gpx';

const fixtures = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '../../test/fixtures/routes');
const fixture = (name: string) => readFileSync(path.join(fixtures, name));
const gpx = (text: string) => parseGpx(Buffer.from(text));

/** The refusal's message, or a failure when the file was taken. */
function refusal(text: string | Buffer): string {
  try {
    parseGpx(typeof text === 'string' ? Buffer.from(text) : text);
  } catch (err) {
    expect((err as { code?: string }).code).toBe('GPX_INVALID');
    expect((err as { statusCode?: number }).statusCode).toBe(400);
    return (err as Error).message;
  }
  throw new Error('the file was taken');
}

describe('parseGpx', () => {
  it('reads a GPX 1.1 track: both segments joined in order, its CDATA name, the whole length', () => {
    const parsed = parseGpx(fixture('davao-calinan-1.1.gpx'));
    expect(parsed.version).toBe('1.1');
    expect(parsed.name).toBe('Davao → Calinan & back');
    expect(parsed.points).toHaveLength(920);
    expect(parsed.points[0]).toEqual({ lat: 7.0731, lng: 125.6128 });
    expect(parsed.points.at(-1)).toEqual({ lat: 7.205, lng: 125.4533 });
    // Davao to Calinan by road is about 23 km; the drawn road winds 40 m either side.
    expect(lineLengthM(parsed.points)).toBeGreaterThan(22_000);
    expect(lineLengthM(parsed.points)).toBeLessThan(32_000);
  });

  it('reads a GPX 1.0 route (rte/rtept, CRLF, Latin-1 declared) of the same road', () => {
    const v10 = parseGpx(fixture('davao-calinan-1.0.gpx'));
    const v11 = parseGpx(fixture('davao-calinan-1.1.gpx'));
    expect(v10.version).toBe('1.0');
    expect(v10.name).toBe('Calinan leg');
    expect(v10.points).toHaveLength(231);
    expect(v10.points[0]).toEqual(v11.points[0]);
    expect(v10.points.at(-1)).toEqual(v11.points.at(-1));
    // Every fourth point of the same road: a little shorter, never longer.
    expect(lineLengthM(v10.points)).toBeLessThanOrEqual(lineLengthM(v11.points));
    expect(lineLengthM(v10.points)).toBeGreaterThan(0.85 * lineLengthM(v11.points));
  });

  it('joins several tracks in file order, takes prefixed names and single quotes, skips repeats', () => {
    const parsed = gpx(`<?xml version='1.0'?>
      <g:gpx xmlns:g='http://www.topografix.com/GPX/1/1' version='1.1'>
        <g:trk><g:trkseg>
          <g:trkpt lat='7.0' lon='125.0'/><g:trkpt lat='7.0' lon='125.0'/><g:trkpt lat=' 7.1 ' lon='125.1'></g:trkpt>
        </g:trkseg></g:trk>
        <g:trk><g:name>Second &amp; last</g:name><g:trkseg><g:trkpt lat="7.2" lon="125.2"/></g:trkseg></g:trk>
      </g:gpx>`);
    expect(parsed.points).toEqual([
      { lat: 7, lng: 125 },
      { lat: 7.1, lng: 125.1 },
      { lat: 7.2, lng: 125.2 },
    ]);
    expect(parsed.name).toBe('Second & last');
  });

  it('prefers the track to the planned route when a file holds both, and ignores waypoints', () => {
    const parsed = gpx(`<gpx version="1.1" xmlns="http://www.topografix.com/GPX/1/1">
      <wpt lat="1" lon="1"><name>Fuel</name></wpt>
      <rte><name>Plan</name><rtept lat="7" lon="125"/><rtept lat="8" lon="126"/></rte>
      <trk><trkseg><trkpt lat="7" lon="125"/><trkpt lat="7.5" lon="125.2"/><trkpt lat="8" lon="126"/></trkseg></trk>
      <extensions><trkpt lat="50" lon="50"/></extensions>
    </gpx>`);
    expect(parsed.points).toHaveLength(3);
    expect(parsed.name).toBeNull();
  });

  it('takes a file without a namespace, with a byte-order mark, a DOCTYPE and comments anywhere', () => {
    const body = `<!DOCTYPE gpx [<!ENTITY boom "x">]>
      <!-- before --><gpx version="1.0"><!-- <trkpt lat="1" lon="1"/> -->
      <trk><trkseg><trkpt lat="6.9" lon="122.0"/><trkpt lat="8.45" lon="124.63"/></trkseg></trk></gpx>
      <!-- after -->`;
    const parsed = parseGpx(Buffer.concat([Buffer.from([0xef, 0xbb, 0xbf]), Buffer.from(body)]));
    expect(parsed.points).toEqual([
      { lat: 6.9, lng: 122 },
      { lat: 8.45, lng: 124.63 },
    ]);
  });

  it('refuses what is not a GPX track, saying why', () => {
    expect(refusal('')).toBe('The file is not a GPX track: the file is empty');
    expect(refusal('lat,lon\n7,125\n')).toMatch(/it is not XML/);
    expect(refusal(Buffer.from([0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a]))).toMatch(/it is not XML/);
    expect(refusal('<kml xmlns="http://www.opengis.net/kml/2.2"><Document/></kml>')).toMatch(
      /its root element is <kml>, not <gpx>/,
    );
    expect(refusal('<gpx xmlns="http://example.com/other"><trk/></gpx>')).toMatch(/its namespace is http:\/\/example/);
    expect(refusal('<gpx version="1.1"><wpt lat="7" lon="125"/></gpx>')).toMatch(/holds no track points/);
    expect(refusal('<gpx><trk><trkseg><trkpt lat="7" lon="125"/></trkseg></trk></gpx>')).toMatch(/a single point/);
  });

  it('refuses broken or cut-short XML and impossible coordinates, naming the point and line', () => {
    expect(refusal('<gpx><trk><trkseg><trkpt lat="7" lon="125"/><trkpt lat="8" lon="126"/>')).toMatch(
      /ends before <\/trkseg>: was it cut short/,
    );
    expect(refusal('<gpx><trk><trkseg><trkpt lat="7" lon="125"/><trkpt lat="8" lon="12')).toMatch(/ends inside a tag/);
    expect(refusal('<gpx><trk></trkseg></trk></gpx>')).toMatch(/<\/trkseg> closes <trk>/);
    expect(refusal('<gpx>\n<trk><trkseg>\n<trkpt lat="91" lon="125"/></trkseg></trk></gpx>')).toBe(
      'The file is not a GPX track: track point 1 (line 3) has lat="91" (lat must be a number from -90 to 90)',
    );
    expect(refusal('<gpx><rte><rtept lat="7" lon="125"/><rtept lat="7" lon="east"/></rte></gpx>')).toMatch(
      /route point 2 \(line 1\) has lon="east"/,
    );
    expect(refusal('<gpx><rte><rtept lon="125"/></rte></gpx>')).toMatch(/route point 1 \(line 1\) has no lat/);
    expect(refusal('<gpx><trk/></gpx><gpx/>')).toMatch(/second root element/);
    expect(refusal('<gpx><!-- never closed </gpx>')).toMatch(/comment is never closed/);
  });

  it(`refuses more than ${GPX_MAX_POINTS.toLocaleString('en')} points`, () => {
    const points = Array.from(
      { length: GPX_MAX_POINTS + 1 },
      (_, i) => `<trkpt lat="${(7 + i * 1e-5).toFixed(5)}" lon="125"/>`,
    );
    const message = refusal(`<gpx><trk><trkseg>${points.join('')}</trkseg></trk></gpx>`);
    expect(message).toMatch(/more than 500,000 points/);
  });
});
