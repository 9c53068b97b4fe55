// The public live tracker's data: every verified rider's course state per route, read in
// two queries (riders, passages) however many riders there are. The state rules are the
// course module's; this module only decides what of them may be public.
import { RALLY_ROUTE_IDS, type RallyRouteId, routeForCategory } from '@rally/shared/catalog';
import type { LiveState } from '@rally/shared/contracts/live';
import { and, eq, isNotNull } from 'drizzle-orm';
import type { Db } from '../../db/client';
import { scans, stations } from '../../db/schema/event-day';
import { users } from '../../db/schema/users';
import { verifications } from '../../db/schema/verifications';
import { isVerifiedRider } from '../../lib/riders';
import { countsAsPassage } from '../scans/passages';

/** One rider as the tracker sees them: public fields and the course facts it shows. */
export interface LiveEntry {
  riderNumber: number;
  kitName: string;
  category: string;
  route: RallyRouteId;
  state: LiveState;
  lastStation: string | null;
  lastSeenAt: Date | null;
  startedAt: Date | null;
  finishedAt: Date | null;
}

export interface LiveSnapshot {
  /** True once any rider has an accepted start scan: station names may then be shown. */
  started: boolean;
  entries: LiveEntry[];
}

const toDate = (v: Date | string) => (v instanceof Date ? v : new Date(v));

export async function liveSnapshot(db: Db): Promise<LiveSnapshot> {
  const riders = await db
    .select({
      id: users.id,
      riderNumber: users.riderNumber,
      kitName: users.kitName,
      firstName: users.firstName,
      category: users.category,
    })
    .from(users)
    .innerJoin(verifications, eq(verifications.userId, users.id))
    .where(and(isVerifiedRider, eq(users.status, 'active'), isNotNull(users.riderNumber)));

  const passages = await db
    .select({ riderId: scans.riderId, name: stations.name, kind: stations.kind, scannedAt: scans.scannedAt })
    .from(scans)
    .innerJoin(stations, eq(stations.id, scans.stationId))
    .where(and(countsAsPassage, isNotNull(scans.riderId)))
    .orderBy(scans.scannedAt);

  const byRider = new Map<string, { name: string; kind: string; at: Date }[]>();
  let started = false;
  for (const p of passages) {
    if (!p.riderId) continue;
    if (p.kind === 'start') started = true;
    const list = byRider.get(p.riderId) ?? [];
    list.push({ name: p.name, kind: p.kind, at: toDate(p.scannedAt) });
    byRider.set(p.riderId, list);
  }

  const entries: LiveEntry[] = [];
  for (const r of riders) {
    const route = routeForCategory(r.category);
    if (!route || r.riderNumber === null) continue;
    const list = byRider.get(r.id) ?? [];
    // Kit hand-over and bike check happen before the flag-off: they are no course position.
    const course = list.filter((p) => p.kind === 'start' || p.kind === 'checkpoint' || p.kind === 'finish');
    const last = course.at(-1) ?? null;
    const start = course.find((p) => p.kind === 'start') ?? null;
    const finish = course.find((p) => p.kind === 'finish') ?? null;
    const state: LiveState = finish ? 'finished' : last ? 'on-course' : 'not-started';
    entries.push({
      riderNumber: r.riderNumber,
      kitName: r.kitName?.trim() || r.firstName,
      category: r.category ?? '',
      route,
      state,
      lastStation: last?.name ?? null,
      lastSeenAt: last?.at ?? null,
      startedAt: start?.at ?? null,
      finishedAt: finish?.at ?? null,
    });
  }
  return { started, entries };
}

export const LIVE_ROUTES = RALLY_ROUTE_IDS;
