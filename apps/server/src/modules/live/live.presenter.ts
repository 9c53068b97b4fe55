// What of the course may be public: number, kit name, category, route,
// state, station names and times. The presenter builds the answer field by field from a
// LiveEntry, so nothing private can ride along, and withholds every station name and
// passage time until the event has started.

import { RALLY_ROUTE_IDS } from '@rally/shared/catalog/event-day';
import {
  LIVE_STATES,
  type LiveFinisher,
  type LiveResponse,
  type LiveRider,
  type LiveRoute,
  type LiveState,
} from '@rally/shared/contracts/live';
import type { LiveEntry, LiveSnapshot } from './live.service';

const DONE: ReadonlySet<LiveState> = new Set(['finished', 'dnf', 'dns']);

function elapsedOf(e: LiveEntry): number | null {
  if (e.state !== 'finished' || e.elapsedMs === null || !e.finishedAt) return null;
  return Math.max(0, e.elapsedMs);
}

function presentRider(e: LiveEntry, started: boolean): LiveRider {
  const elapsed = elapsedOf(e);
  return {
    riderNumber: e.riderNumber,
    kitName: e.kitName,
    category: e.category,
    state: e.state,
    lastStation: started ? e.lastStation : null,
    lastSeenAt: started && e.lastSeenAt ? e.lastSeenAt.toISOString() : null,
    ...(started && elapsed !== null ? { elapsedMs: elapsed } : {}),
  };
}

function presentRoute(routeId: LiveRoute['routeId'], entries: LiveEntry[], started: boolean): LiveRoute {
  const counts = Object.fromEntries(LIVE_STATES.map((s) => [s, 0])) as Record<LiveState, number>;
  for (const e of entries) counts[e.state]++;
  const finishers: LiveFinisher[] = [];
  if (started) {
    const timed = entries
      .map((e) => ({ e, elapsed: elapsedOf(e) }))
      .filter((x): x is { e: LiveEntry; elapsed: number } => x.elapsed !== null && x.e.finishedAt !== null)
      .sort((a, b) => a.elapsed - b.elapsed || a.e.riderNumber - b.e.riderNumber);
    timed.forEach(({ e, elapsed }, i) => {
      finishers.push({
        riderNumber: e.riderNumber,
        kitName: e.kitName,
        category: e.category,
        elapsedMs: elapsed,
        finishedAt: (e.finishedAt as Date).toISOString(),
        rank: i + 1,
      });
    });
  }
  return {
    routeId,
    riders: [...entries].sort((a, b) => a.riderNumber - b.riderNumber).map((e) => presentRider(e, started)),
    finishers,
    dnfCount: counts.dnf,
    counts,
  };
}

export function presentLive(snapshot: LiveSnapshot): LiveResponse {
  const { started, entries } = snapshot;
  return {
    success: true,
    data: RALLY_ROUTE_IDS.map((id) =>
      presentRoute(
        id,
        entries.filter((e) => e.route === id),
        started,
      ),
    ),
    meta: { started, over: started && entries.length > 0 && entries.every((e) => DONE.has(e.state)) },
  };
}
