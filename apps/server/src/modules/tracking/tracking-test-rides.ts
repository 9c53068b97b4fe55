// Test rides for the alerts, the board and the overdue list: a straight route along latitude
// 8 (0.01° of longitude is 1.10 km there), stations on it, riders put on course by real
// scans, and positions fed the way the ingest feeds them (stored, the tracker's last position
// moved, judged in the same transaction with the tracker row locked), so a test sets the
// alert thresholds and the judging clock itself. The end-to-end path through
// POST /api/tracking/osmand is tested on its own (tracking-alerts.test.ts).
import { randomBytes } from 'node:crypto';
import { distanceM } from '@rally/shared/geo';
import { and, eq } from 'drizzle-orm';
import type { FastifyInstance } from 'fastify';
import type { Db } from '../../db/client';
import { entries } from '../../db/schema/entries';
import { positions, routeTracks, trackers } from '../../db/schema/tracking';
import { type Actor, approvedRider, injectAs, syncScan } from '../../test/factories';
import { currentEdition } from '../editions/editions.service';
import { type AlertThresholds, type Judgement, judgeTracker } from './tracking-alerts';

export const LAT = 8;
export const LNG0 = 125;
/** Metres per 0.01° of longitude at latitude 8. */
export const KM_PER_CENTI = distanceM({ lat: LAT, lng: LNG0 }, { lat: LAT, lng: LNG0 + 0.01 });
export const MIN = 60_000;

/** The Bagani line: 0.5° east from (8, 125), a point each 0.01°. */
export async function putBaganiLine(db: Db): Promise<void> {
  const edition = await currentEdition(db);
  const points = Array.from({ length: 51 }, (_, i) => [LAT, LNG0 + i * 0.01] as [number, number]);
  const lengthM = distanceM({ lat: LAT, lng: LNG0 }, { lat: LAT, lng: LNG0 + 0.5 });
  await db
    .insert(routeTracks)
    .values({ editionId: edition.id, trial: 'bagani', name: 'Bagani', points, drawn: points, lengthM })
    .onConflictDoNothing();
}

export async function createStation(app: FastifyInstance, admin: Actor, body: Record<string, unknown>) {
  const res = await injectAs(app, admin, 'POST', '/api/admin/stations', body);
  if (res.statusCode !== 201) throw new Error(`station: ${res.statusCode} ${res.body}`);
  return res.json().data.id as string;
}

export type TestStations = Record<'start' | 'cp' | 'finish', string>;

/** The Bagani line and its three stations on it: the flag-off, Valencia CP (33 km) and the finish (55 km). */
export async function putTestCourse(app: FastifyInstance, db: Db, admin: Actor): Promise<TestStations> {
  await putBaganiLine(db);
  return {
    start: await createStation(app, admin, { name: 'Flag-off', kind: 'start', order: 0, lat: LAT, lng: LNG0 }),
    cp: await createStation(app, admin, { name: 'Valencia CP', kind: 'checkpoint', order: 1, lat: LAT, lng: 125.3 }),
    finish: await createStation(app, admin, { name: 'Finish', kind: 'finish', order: 2, lat: LAT, lng: 125.5 }),
  };
}

export interface TrackedRider extends Actor {
  riderNumber: number;
  riderCode: string;
}

/** A verified Bagani rider with tracking on (as PUT /api/my/tracking leaves it). */
export async function trackedRider(app: FastifyInstance, db: Db, admin: Actor): Promise<TrackedRider> {
  const rider = await approvedRider(app, admin);
  const edition = await currentEdition(db);
  const [row] = await db
    .select({ code: entries.riderCode })
    .from(entries)
    .where(and(eq(entries.userId, rider.userId), eq(entries.editionId, edition.id)));
  await db.insert(trackers).values({
    editionId: edition.id,
    userId: rider.userId,
    trackingId: randomBytes(18).toString('base64url'),
    enabled: true,
    consentVersion: 'test',
    consentedAt: new Date(),
  });
  return { ...rider, riderCode: row?.code as string };
}

export async function pass(app: FastifyInstance, marshall: Actor, rider: TrackedRider, stationId: string, at: Date) {
  const r = await syncScan(app, marshall, {
    stationId,
    riderCode: rider.riderCode,
    scannedAt: at.toISOString(),
    deviceId: 'cp-phone',
  });
  if (r.status !== 'accepted') throw new Error(`scan ${r.status} ${r.reason ?? ''}`);
}

export interface Fix {
  at: Date;
  lng: number;
  lat?: number;
  battery?: number;
  charging?: boolean;
}

/** A fix each minute from `start`, at the longitudes given. */
export const everyMinute = (start: number, lngs: readonly number[], lat = LAT): Fix[] =>
  lngs.map((lng, i) => ({ at: new Date(start + i * MIN), lng, lat }));

/** Staying put: `minutes + 1` fixes a minute apart, jittering a few metres around one spot. */
export const stay = (start: number, lng: number, minutes: number, lat = LAT): Fix[] =>
  Array.from({ length: minutes + 1 }, (_, i) => ({
    at: new Date(start + i * MIN),
    lng: lng + (i % 2 ? 0.0002 : -0.0002),
    lat,
  }));

/** Stores the fixes and judges the newer ones, as the ingest does; `now`: the last fix + 30 s. */
export async function feed(
  db: Db,
  app: FastifyInstance,
  userId: string,
  fixes: readonly Fix[],
  opts: { thresholds?: AlertThresholds; now?: Date } = {},
): Promise<Judgement> {
  return db.transaction(async (tx) => {
    const edition = await currentEdition(tx);
    const where = and(eq(trackers.editionId, edition.id), eq(trackers.userId, userId));
    const [tracker] = await tx.select().from(trackers).where(where).for('update');
    if (!tracker) throw new Error('no tracker');
    const rows = fixes.map((f) => ({
      editionId: edition.id,
      userId,
      at: f.at,
      lat: f.lat ?? LAT,
      lng: f.lng,
      speed: null,
      accuracy: 8,
      battery: f.battery ?? 80,
      charging: f.charging ?? false,
    }));
    await tx.insert(positions).values(rows).onConflictDoNothing();
    const previous = tracker.lastAt?.getTime() ?? Number.NEGATIVE_INFINITY;
    const fresh = rows.filter((r) => r.at.getTime() > previous).sort((a, b) => a.at.getTime() - b.at.getTime());
    const newest = fresh.at(-1);
    if (!newest) throw new Error('nothing fresh');
    const last = {
      lastLat: newest.lat,
      lastLng: newest.lng,
      lastAt: newest.at,
      lastSpeed: null,
      lastAccuracy: newest.accuracy,
      lastBattery: newest.battery,
      lastCharging: newest.charging,
    };
    await tx.update(trackers).set(last).where(where);
    const now = opts.now ?? new Date(newest.at.getTime() + 30_000);
    return judgeTracker(tx, { ...tracker, ...last }, fresh, now, app.messenger, opts.thresholds);
  });
}

export async function trackerOf(db: Db, userId: string) {
  const [row] = await db.select().from(trackers).where(eq(trackers.userId, userId));
  if (!row) throw new Error('no tracker');
  return row;
}
