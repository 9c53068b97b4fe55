import { randomUUID } from 'node:crypto';
import { readFileSync } from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import type { RallyRouteId } from '@rally/shared/catalog/event-day';
import { MAX_UPLOAD_BYTES } from '@rally/shared/catalog/registration';
import type { RouteLine } from '@rally/shared/contracts/tracking';
import { distanceM, type LatLng, projectOnLine } from '@rally/shared/geo';
import { and, desc, eq } from 'drizzle-orm';
import { describe, expect, it } from 'vitest';
import { activities } from '../../db/schema/activities';
import { routeTracks } from '../../db/schema/tracking';
import { DB_KINDS, useTestApp } from '../../test/build-app';
import { type Actor, bearer, injectAs, multipart } from '../../test/factories';
import { currentEdition } from '../editions/editions.service';
import { parseGpx } from './gpx';
import { routeLineOf } from './route-lines.service';

const fixtures = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '../../test/fixtures/routes');
const V11 = readFileSync(path.join(fixtures, 'davao-calinan-1.1.gpx'));
const V10 = readFileSync(path.join(fixtures, 'davao-calinan-1.0.gpx'));
const toLatLng = ([lat, lng]: [number, number]): LatLng => ({ lat, lng });

describe.each(DB_KINDS)('route lines from GPX files (%s)', (kind) => {
  const t = useTestApp(kind, 'admin', 'marshall', 'developer');

  const upload = (actor: Actor | null, trial: string, data: Buffer, field = 'file', filename = 'route.gpx') =>
    t.app.inject({
      method: 'PUT',
      url: `/api/admin/routes/${trial}/track`,
      ...(() => {
        const body = multipart({}, [{ field, filename, contentType: 'application/gpx+xml', data }]);
        return { payload: body.payload, headers: { ...body.headers, ...(actor ? bearer(actor.token) : {}) } };
      })(),
    });
  const publicLines = async (): Promise<RouteLine[]> => {
    const res = await injectAs(t.app, null, 'GET', '/api/routes');
    expect(res.statusCode, res.body).toBe(200);
    return res.json().data;
  };
  const storedRow = async (trial: RallyRouteId) => {
    const edition = await currentEdition(t.database.db);
    const [row] = await t.database.db
      .select()
      .from(routeTracks)
      .where(and(eq(routeTracks.editionId, edition.id), eq(routeTracks.trial, trial)));
    return row;
  };
  const clear = async (trial: RallyRouteId) => {
    const edition = await currentEdition(t.database.db);
    await t.database.db
      .delete(routeTracks)
      .where(and(eq(routeTracks.editionId, edition.id), eq(routeTracks.trial, trial)));
  };

  it('stores a GPX 1.1 track: full length, a line for alerts within 5 m, one for maps within 45 m, logged', async () => {
    await clear('lakambini');
    const res = await upload(t.staff.admin, 'lakambini', V11, 'file', 'lakambini-2026.gpx');
    expect(res.statusCode, res.body).toBe(200);
    const line = res.json().data as RouteLine;
    const full = parseGpx(V11).points;
    expect(line).toMatchObject({
      trial: 'lakambini',
      name: 'Davao → Calinan & back',
      fileName: 'lakambini-2026.gpx',
    });
    expect(res.json().message).toBe(`Route line saved: ${(line.lengthM / 1000).toFixed(1)} km`);
    // The whole track's length, both segments (the gap between them included).
    let fullLength = 0;
    for (let i = 1; i < full.length; i++) fullLength += distanceM(full[i - 1] as LatLng, full[i] as LatLng);
    expect(line.lengthM).toBeCloseTo(fullLength, 0);

    const row = await storedRow('lakambini');
    if (!row) throw new Error('not stored');
    expect(row.uploadedBy).toBe(t.staff.admin.userId);
    // Both simplified lines keep the ends and stay within their tolerance of every original point.
    for (const [stored, tolerance] of [
      [row.points, 5.1],
      [row.drawn, 45.1],
    ] as const) {
      const simplified = stored.map(toLatLng);
      expect(simplified.length).toBeLessThan(full.length);
      expect(simplified[0]).toEqual(full[0]);
      expect(simplified.at(-1)).toEqual(full.at(-1));
      const worst = Math.max(...full.map((p) => projectOnLine(p, simplified).offM));
      expect(worst).toBeLessThanOrEqual(tolerance);
    }
    expect(row.drawn.length).toBeLessThan(row.points.length);
    expect(line.points).toEqual(row.drawn);

    const [logged] = await t.database.db
      .select()
      .from(activities)
      .where(eq(activities.type, 'route_track_updated'))
      .orderBy(desc(activities.createdAt))
      .limit(1);
    expect(logged?.actorId).toBe(t.staff.admin.userId);
    expect(logged?.description).toMatch(/uploaded the Lakambini\/Magani route line \(\d+\.\d km\)/);

    // What the alerts measure against is the 5 m line, with its distances along it.
    const measured = await routeLineOf(t.database.db, row.editionId, 'lakambini');
    expect(measured?.points).toHaveLength(row.points.length);
    expect(measured?.cumulative.at(-1)).toBeCloseTo(measured?.lengthM ?? 0, -3);
  });

  it('replaces a trial’s line on a second upload (GPX 1.0 route, field "track") and measures the new one', async () => {
    await clear('lakan');
    const first = await upload(t.staff.admin, 'lakan', V11);
    expect(first.statusCode, first.body).toBe(200);
    const edition = await currentEdition(t.database.db);
    const before = await routeLineOf(t.database.db, edition.id, 'lakan');

    const second = await upload(t.staff.developer, 'lakan', V10, 'track', 'calinan-v1.0.gpx');
    expect(second.statusCode, second.body).toBe(200);
    const line = second.json().data as RouteLine;
    expect(line).toMatchObject({ trial: 'lakan', name: 'Calinan leg', fileName: 'calinan-v1.0.gpx' });
    expect(line.lengthM).toBeLessThan(first.json().data.lengthM);
    expect(Date.parse(line.uploadedAt)).toBeGreaterThanOrEqual(Date.parse(first.json().data.uploadedAt));

    const rows = await t.database.db.select().from(routeTracks).where(eq(routeTracks.trial, 'lakan'));
    expect(rows).toHaveLength(1);
    expect(rows[0]?.uploadedBy).toBe(t.staff.developer.userId);
    const after = await routeLineOf(t.database.db, edition.id, 'lakan');
    expect(after?.lengthM).toBe(line.lengthM);
    expect(after?.points.length).toBe(rows[0]?.points.length);
    expect(after).not.toBe(before);
    // Asked again, the same line (kept in the process until the row changes).
    expect(await routeLineOf(t.database.db, edition.id, 'lakan')).toBe(after);
  });

  it('lists the current edition’s lines publicly, and drops a removed one', async () => {
    await clear('bagani');
    expect((await publicLines()).map((l) => l.trial)).not.toContain('bagani');
    const put = await upload(t.staff.admin, 'bagani', V11);
    expect(put.statusCode, put.body).toBe(200);

    const listed = (await publicLines()).find((l) => l.trial === 'bagani');
    expect(listed).toEqual(put.json().data);

    const del = await injectAs(t.app, t.staff.admin, 'DELETE', '/api/admin/routes/bagani/track');
    expect(del.statusCode, del.body).toBe(200);
    expect(del.json().message).toBe('Route line removed');
    expect((await publicLines()).map((l) => l.trial)).not.toContain('bagani');
    expect(await storedRow('bagani')).toBeUndefined();
    const edition = await currentEdition(t.database.db);
    expect(await routeLineOf(t.database.db, edition.id, 'bagani')).toBeNull();

    const again = await injectAs(t.app, t.staff.admin, 'DELETE', '/api/admin/routes/bagani/track');
    expect(again.statusCode).toBe(404);
    expect(again.json()).toMatchObject({
      code: 'ROUTE_TRACK_NOT_FOUND',
      message: 'Bagani has no route line to remove',
    });
  });

  it('lets only manage_event holders upload or remove: a marshal is 403, signed out 401', async () => {
    await clear('lakambini');
    const marshal = await upload(t.staff.marshall, 'lakambini', V11);
    expect(marshal.statusCode).toBe(403);
    const anonymous = await upload(null, 'lakambini', V11);
    expect(anonymous.statusCode).toBe(401);
    const marshalDelete = await injectAs(t.app, t.staff.marshall, 'DELETE', '/api/admin/routes/lakambini/track');
    expect(marshalDelete.statusCode).toBe(403);
    expect(await storedRow('lakambini')).toBeUndefined();
  });

  it('refuses bad files with 400 and the reason, keeping the line there was', async () => {
    await clear('lakan');
    const good = await upload(t.staff.admin, 'lakan', V11);
    expect(good.statusCode, good.body).toBe(200);
    const kept = await storedRow('lakan');

    const cases: Array<[Buffer, RegExp]> = [
      [Buffer.from('lat,lon\n7.07,125.61\n'), /^The file is not a GPX track: it is not XML/],
      [Buffer.from('<kml><Document/></kml>'), /^The file is not a GPX track: its root element is <kml>/],
      [
        Buffer.from('<gpx><trk><trkseg><trkpt lat="7" lon="125"/></trkseg></trk></gpx>'),
        /^The file is not a GPX track: it holds a single point/,
      ],
      [V11.subarray(0, V11.length / 2), /^The file is not a GPX track: .*cut short/],
      [
        Buffer.from('<gpx><trk><trkseg><trkpt lat="7" lon="125"/><trkpt lat="97" lon="125"/></trkseg></trk></gpx>'),
        /^The file is not a GPX track: track point 2 \(line 1\) has lat="97"/,
      ],
    ];
    for (const [data, message] of cases) {
      const res = await upload(t.staff.admin, 'lakan', data);
      expect(res.statusCode, res.body).toBe(400);
      expect(res.json().code).toBe('GPX_INVALID');
      expect(res.json().message).toMatch(message);
    }
    const noFile = await t.app.inject({
      method: 'PUT',
      url: '/api/admin/routes/lakan/track',
      ...(() => {
        const body = multipart({});
        return { payload: body.payload, headers: { ...body.headers, ...bearer(t.staff.admin.token) } };
      })(),
    });
    expect(noFile.statusCode).toBe(400);
    expect(noFile.json()).toMatchObject({ code: 'NO_FILE' });
    const badTrial = await upload(t.staff.admin, 'marathon', V11);
    expect(badTrial.statusCode).toBe(400);
    expect(badTrial.json().message).toMatch(/trial must be one of: lakambini, lakan, bagani/);

    expect(await storedRow('lakan')).toEqual(kept);
  });

  it('refuses a file over the upload limit with 413, storing nothing', async () => {
    await clear('bagani');
    const padding = Buffer.alloc(MAX_UPLOAD_BYTES, ' ');
    const big = Buffer.concat([V11.subarray(0, 200), padding, V11.subarray(200)]);
    const res = await upload(t.staff.admin, 'bagani', big);
    expect(res.statusCode).toBe(413);
    expect(res.json()).toMatchObject({ code: 'FILE_TOO_LARGE' });
    expect(await storedRow('bagani')).toBeUndefined();
  });

  it('keeps a past edition read-only', async () => {
    const made = await injectAs(t.app, t.staff.admin, 'POST', '/api/admin/editions', {
      name: `Warriors ${randomUUID().slice(0, 8)}`,
      year: 2031,
      startsOn: '2031-03-14',
      endsOn: '2031-03-16',
    });
    expect(made.statusCode, made.body).toBe(201);
    const other = made.json().data.edition.id as string;
    const res = await t.app.inject({
      method: 'DELETE',
      url: `/api/admin/routes/lakambini/track?edition=${other}`,
      headers: bearer(t.staff.admin.token),
    });
    expect(res.statusCode, res.body).toBe(409);
    expect(res.json().code).toBe('EDITION_READ_ONLY');
  });
});
