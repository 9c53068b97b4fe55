// Dates at and beyond what the database keeps, on every event-day route that takes one.
// `0000-01-01T00:00:00Z` and `9999-12-31T23:59:59-10:00` are valid ISO 8601, but PostgreSQL
// has no year 0 and JavaScript writes year 10000 as `+010000-…`, which it cannot read (and a
// year below 100 came back as this century's): such
// a date once failed a whole scan batch with 500 (and the phone re-sent it forever). Each is
// refused with its field named; its neighbours in a batch are stored.
import { randomUUID } from 'node:crypto';
import { RALLY_ROUTE_IDS } from '@rally/shared/catalog/event-day';
import { eq } from 'drizzle-orm';
import { beforeAll, describe, expect, it } from 'vitest';
import { entries } from '../db/schema/entries';
import { scans } from '../db/schema/event-day';
import { DB_KINDS, useTestApp } from '../test/build-app';
import { type Actor, approvedRider, injectAs } from '../test/factories';

const BEYOND = [
  '1969-12-31T23:59:59.999Z',
  '0001-01-01T00:00:00Z',
  '0099-06-01T00:00:00Z',
  '0000-01-01T00:00:00Z',
  '0000-12-31T23:59:59.999Z',
  '1970-01-01T00:00:00+01:00',
  '9999-12-31T23:59:59-10:00',
  '10000-01-01T00:00:00Z',
  '+275760-09-13T00:00:00Z',
  '-000001-01-01T00:00:00Z',
];
const AT_THE_EDGE = [
  '1970-01-01T00:00:00Z',
  '1970-01-01T00:00:00-01:00',
  '9999-12-31T23:59:59.999Z',
  '9999-12-31T14:00:00-09:59',
];

describe.each(DB_KINDS)('dates at and beyond the database range (%s)', (kind) => {
  const t = useTestApp(kind, 'admin', 'marshall');
  const { admin, marshall } = t.staff;
  let rider: Actor & { riderNumber: number };
  let riderCode: string;
  let stationId: string;
  const call = (actor: Actor, method: 'GET' | 'POST' | 'PUT' | 'PATCH', url: string, payload?: unknown) =>
    injectAs(t.app, actor, method, url, payload);

  beforeAll(async () => {
    rider = await approvedRider(t.app, admin);
    const [row] = await t.database.db
      .select({ code: entries.riderCode })
      .from(entries)
      .where(eq(entries.userId, rider.userId));
    riderCode = row?.code as string;
    const st = await call(admin, 'POST', '/api/admin/stations', { name: `Dates ${randomUUID()}`, kind: 'checkpoint' });
    expect(st.statusCode, st.body).toBe(201);
    stationId = st.json().data.id;
  });

  const scan = (scannedAt: string) => ({
    id: randomUUID(),
    stationId,
    riderCode,
    scannedAt,
    deviceId: 'phone-dates',
    source: 'camera',
  });

  it('marks a scan with such a date invalid, naming the field, and stores its neighbours', async () => {
    const good = scan(new Date().toISOString());
    const edge = AT_THE_EDGE.map(scan);
    const bad = BEYOND.map(scan);
    const res = await call(marshall, 'POST', '/api/admin/scans', { scans: [...bad, good, ...edge] });
    expect(res.statusCode, res.body).toBe(200);
    const results = res.json().data.results as Array<{ id: string; status: string; message?: string }>;
    for (const [i, item] of bad.entries()) {
      expect(results[i], item.scannedAt).toMatchObject({ id: item.id, status: 'invalid' });
      expect(results[i]?.message, item.scannedAt).toMatch(/^scannedAt must be/);
    }
    expect(results[bad.length]?.status).toBe('accepted');
    // The edges are kept, flagged as a clock gone wrong, to be reviewed.
    for (const [i, item] of edge.entries()) {
      expect(results[bad.length + 1 + i], item.scannedAt).toMatchObject({ status: 'flagged', reason: 'clock_skew' });
      const [row] = await t.database.db.select().from(scans).where(eq(scans.id, item.id));
      expect(row?.scannedAt.getTime(), item.scannedAt).toBe(Date.parse(item.scannedAt));
    }
    for (const item of bad) expect(await t.database.db.select().from(scans).where(eq(scans.id, item.id))).toEqual([]);
  });

  it('refuses an SOS whose position has such a date, and takes one at the edge', async () => {
    const position = (at: string) => ({ lat: 7.1, lng: 125.6, accuracy: 20, at });
    for (const at of BEYOND) {
      const res = await call(rider, 'POST', '/api/my/sos', { id: randomUUID(), kind: 'crash', position: position(at) });
      expect(res.statusCode, `${at}: ${res.body}`).toBe(400);
      expect(res.json().message, at).toMatch(/position\.at must be/);
    }
    const edge = await call(rider, 'POST', '/api/my/sos', {
      id: randomUUID(),
      kind: 'crash',
      position: position(AT_THE_EDGE[0] as string),
    });
    expect(edge.statusCode, edge.body).toBe(201);
  });

  it('refuses such a date as a station’s hours or a cut-off, changing nothing', async () => {
    for (const at of BEYOND) {
      for (const field of ['opensAt', 'closesAt']) {
        const res = await call(admin, 'PATCH', `/api/admin/stations/${stationId}`, { [field]: at });
        expect(res.statusCode, `${field} ${at}: ${res.body}`).toBe(400);
        expect(res.json().message).toContain(field);
      }
      const rules = await call(admin, 'PUT', `/api/admin/event/rules/${RALLY_ROUTE_IDS[0]}`, {
        stations: [{ stationId, cutoffAt: at }],
      });
      expect(rules.statusCode, `cutoffAt ${at}: ${rules.body}`).toBe(400);
      expect(rules.json().message).toContain('cutoffAt');
    }
    const station = await call(admin, 'GET', '/api/admin/stations');
    const mine = (station.json().data as Array<{ id: string; opensAt: string | null }>).find((s) => s.id === stationId);
    expect(mine?.opensAt).toBeNull();
    const edge = await call(admin, 'PATCH', `/api/admin/stations/${stationId}`, {
      opensAt: AT_THE_EDGE[0],
      closesAt: AT_THE_EDGE[1],
    });
    expect(edge.statusCode, edge.body).toBe(200);
  });

  it('answers 400 to a roster cursor beyond the range, 200 to one within', async () => {
    for (const since of ['r1.999999999999999', 'r1.253402300800000']) {
      const res = await call(marshall, 'GET', `/api/admin/scan-roster?since=${since}`);
      expect(res.statusCode, `${since}: ${res.body}`).toBe(400);
      expect(res.json()).toMatchObject({ success: false, message: 'since is not a valid cursor' });
    }
    expect((await call(marshall, 'GET', '/api/admin/scan-roster?since=r1.0')).statusCode).toBe(200);
    expect((await call(marshall, 'GET', '/api/admin/scan-roster?since=r1.253402300799999')).statusCode).toBe(200);
  });
});
