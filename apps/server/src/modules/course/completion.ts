// A finish passage with every required station passed makes the rider a finisher of the
// day: one `rally_completion` activity (a unique index keeps it to one per rider and day)
// and a `course` event. Called by every write that can add a passage (the scan ingest, an
// accepted review, a cleared decision) inside its transaction, so it is one code path.
import { and, eq, inArray } from 'drizzle-orm';
import type { Tx } from '../../db/client';
import { stations } from '../../db/schema/event-day';
import { inEdition } from '../../lib/edition-of';
import { publishEvent } from '../../lib/event-bus';
import { displayName } from '../../lib/sql-text';
import { recordActivities } from '../activities/activities.service';
import { courseSnapshot } from './course.service';
import type { CourseState } from './course-state';

export function formatElapsed(ms: number): string {
  const minutes = Math.round(ms / 60_000);
  return `${Math.floor(minutes / 60)}h ${String(minutes % 60).padStart(2, '0')}m`;
}

/** What a `course` event says about a rider (never anything private). */
export function courseEventData(state: CourseState, change: string) {
  return {
    change,
    riderId: state.riderId,
    riderNumber: state.riderNumber,
    kitName: state.kitName,
    category: state.category,
    route: state.route,
    day: state.day,
    state: state.state,
    dnfReason: state.dnfReason,
    lastStation: state.lastStation,
    lastSeenAt: state.lastSeenAt?.toISOString() ?? null,
    elapsedMs: state.elapsedMs,
  };
}

/**
 * Records the completion of each of these riders who finished these stations' days.
 * Returns the riders newly marked finishers.
 */
export async function recordCompletions(
  tx: Tx,
  finishes: ReadonlyArray<{ riderId: string; stationId: string }>,
  now: Date,
): Promise<string[]> {
  if (finishes.length === 0) return [];
  const finishStations = await tx
    .select({ id: stations.id, day: stations.day })
    .from(stations)
    .where(
      and(
        inEdition(stations.editionId),
        inArray(stations.id, [...new Set(finishes.map((f) => f.stationId))]),
        eq(stations.kind, 'finish'),
      ),
    );
  const dayOf = new Map(finishStations.map((s) => [s.id, s.day]));
  const byDay = new Map<number, Set<string>>();
  for (const f of finishes) {
    const day = dayOf.get(f.stationId);
    if (day === undefined) continue;
    const set = byDay.get(day) ?? new Set<string>();
    byDay.set(day, set);
    set.add(f.riderId);
  }
  const marked: string[] = [];
  for (const [day, riders] of byDay) marked.push(...(await completeDay(tx, day, [...riders], now)));
  return marked;
}

/** Marks the finishers among these riders on one day (those already marked stay as they are). */
export async function completeDay(tx: Tx, day: number, riderIds: readonly string[], now: Date): Promise<string[]> {
  const marked: string[] = [];
  const { states } = await courseSnapshot(tx, { now, day, riderIds });
  for (const state of states) {
    if (state.state !== 'finished' || !state.finishedAt) continue;
    const name = displayName(state);
    const elapsed = state.elapsedMs !== null ? formatElapsed(state.elapsedMs) : null;
    const written = await recordActivities(
      tx,
      [
        {
          type: 'rally_completion',
          priority: 'normal',
          userId: state.riderId,
          userName: name,
          description: `${name}${state.riderNumber ? ` (#${state.riderNumber})` : ''} finished day ${day}${elapsed ? ` in ${elapsed}` : ''}`,
          details: state.lastStation?.name ?? null,
          location: state.lastStation?.name ?? null,
          metadata: { day, elapsedMs: state.elapsedMs, finishedAt: state.finishedAt.toISOString() },
          createdAt: now,
        },
      ],
      { once: true },
    );
    if (written === 0) continue;
    marked.push(state.riderId);
    await publishEvent(tx, 'course', courseEventData(state, 'finished'));
  }
  return marked;
}
