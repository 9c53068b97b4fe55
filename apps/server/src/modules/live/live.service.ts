// The public live tracker's data, built on the course module's derived state (the same
// function the control board reads), so spectators and staff never disagree. This module
// only decides what of it may be public (live.presenter.ts).
import type { RallyRouteId } from '@rally/shared/catalog/event-day';
import type { LiveState } from '@rally/shared/contracts/live';
import { and, eq, sql } from 'drizzle-orm';
import type { DbOrTx } from '../../db/client';
import { scans, stations } from '../../db/schema/event-day';
import { inEdition } from '../../lib/edition-of';
import { courseSnapshot } from '../course/course.service';
import { countsAsPassage } from '../course/passages';
import { usersWithdrawn } from '../privacy/consents.service';

/** One rider as the tracker sees them: public fields and the course facts it shows. */
export interface LiveEntry {
  riderNumber: number;
  kitName: string;
  category: string;
  route: RallyRouteId;
  state: LiveState;
  lastStation: string | null;
  lastSeenAt: Date | null;
  elapsedMs: number | null;
  finishedAt: Date | null;
}

export interface LiveSnapshot {
  /** True once any rider has an accepted start scan: station names may then be shown. */
  started: boolean;
  entries: LiveEntry[];
}

/**
 * "The event has started" is the first accepted (or review-accepted) scan at a `start`
 * station, on any day: the flag-off itself, recorded by the marshals, with no separate
 * setting to forget.
 */
export async function eventStarted(db: DbOrTx): Promise<boolean> {
  const [row] = await db
    .select({ yes: sql<number>`1` })
    .from(scans)
    .innerJoin(stations, and(eq(stations.id, scans.stationId), eq(stations.editionId, scans.editionId)))
    .where(and(inEdition(scans.editionId), eq(stations.kind, 'start'), countsAsPassage))
    .limit(1);
  return row !== undefined;
}

export async function liveSnapshot(db: DbOrTx, now: Date): Promise<LiveSnapshot> {
  const [started, snapshot, unnamed] = await Promise.all([
    eventStarted(db),
    courseSnapshot(db, { now }),
    usersWithdrawn(db, 'public_profile'),
  ]);
  const entries: LiveEntry[] = [];
  for (const s of snapshot.states) {
    // A rider without a number or a route cannot be followed on the tracker.
    if (s.riderNumber === null || s.route === null) continue;
    entries.push({
      riderNumber: s.riderNumber,
      // A rider who withdrew their public profile (DESIGN.md §12) is listed by number only:
      // the counts and results stay true, and no one is named who asked not to be.
      kitName: unnamed.has(s.riderId) ? `Rider ${s.riderNumber}` : s.kitName?.trim() || s.firstName,
      category: s.category ?? '',
      route: s.route,
      state: s.state,
      lastStation: s.lastStation?.name ?? null,
      lastSeenAt: s.lastSeenAt,
      elapsedMs: s.state === 'finished' ? s.elapsedMs : null,
      finishedAt: s.state === 'finished' ? s.finishedAt : null,
    });
  }
  return { started, entries };
}
