// The course's two spreadsheets (the Reports tab, `/api/admin/exports/{name}`): finishers
// with their times, and every DNF and DNS with why. Both read the same derived states as
// the board, for every day that has stations, so a list never disagrees with the board.
import { COURSE_STATE_LABELS, DNF_REASON_LABELS } from '@rally/shared/catalog/event-day';
import { RALLY_ROUTES } from '@rally/shared/catalog/landing';
import { asc } from 'drizzle-orm';
import type { Db } from '../../../db/client';
import { stations } from '../../../db/schema/event-day';
import { type EditionRead, inEdition } from '../../../lib/edition-of';
import { fullName } from '../../../lib/sql-text';
import { courseSnapshot } from '../../course/course.service';
import type { CourseState } from '../../course/course-state';
import { defineExport } from '../export-definition';
import { categoryCell } from './rider-cells';

/** Every rider's state on every day of `edition` (the current one when undefined), day by day. */
async function statesOfEveryDay(db: Db, edition?: EditionRead): Promise<CourseState[]> {
  const days = await db
    .selectDistinct({ day: stations.day })
    .from(stations)
    .where(inEdition(stations.editionId, edition))
    .orderBy(asc(stations.day));
  const now = new Date();
  const out: CourseState[] = [];
  for (const { day } of days) out.push(...(await courseSnapshot(db, { now, day, edition })).states);
  return out;
}

/** h:mm:ss, as timing sheets print an elapsed time. */
export function elapsedCell(ms: number | null): string {
  if (ms === null) return '';
  const s = Math.round(ms / 1000);
  const h = Math.floor(s / 3600);
  const m = Math.floor((s % 3600) / 60);
  return `${h}:${String(m).padStart(2, '0')}:${String(s % 60).padStart(2, '0')}`;
}

const routeName = (route: CourseState['route']) => (route ? RALLY_ROUTES[route].name : '');

export const finishersExport = defineExport({
  name: 'finishers',
  title: 'Finishers',
  description: 'Riders who finished each day with every required station passed, fastest first.',
  columns: [
    { key: 'day', header: 'Day', width: 6 },
    { key: 'rank', header: 'Rank', width: 6 },
    { key: 'riderNumber', header: 'Rider #', width: 8 },
    { key: 'kitName', header: 'Kit Name', width: 22 },
    { key: 'rider', header: 'Rider', width: 24 },
    { key: 'category', header: 'Category', width: 14 },
    { key: 'route', header: 'Route', width: 18 },
    { key: 'startedAt', header: 'Started (Manila)', width: 18 },
    { key: 'finishedAt', header: 'Finished (Manila)', width: 18 },
    { key: 'elapsed', header: 'Elapsed (h:mm:ss)', width: 14 },
  ],
  async rows(db, _viewer, edition) {
    const finished = (await statesOfEveryDay(db, edition)).filter((s) => s.state === 'finished');
    // Per day and route, fastest first; a finisher without a start scan has no time and goes last.
    finished.sort(
      (a, b) =>
        a.day - b.day ||
        routeName(a.route).localeCompare(routeName(b.route)) ||
        (a.elapsedMs ?? Number.POSITIVE_INFINITY) - (b.elapsedMs ?? Number.POSITIVE_INFINITY) ||
        (a.riderNumber ?? 0) - (b.riderNumber ?? 0),
    );
    let rank = 0;
    let group = '';
    return finished.map((s) => {
      const key = `${s.day}/${s.route}`;
      rank = key === group ? rank + 1 : 1;
      group = key;
      return {
        day: s.day,
        rank,
        riderNumber: s.riderNumber,
        kitName: s.kitName,
        rider: fullName(s.firstName, s.lastName),
        category: categoryCell(s.category),
        route: routeName(s.route),
        startedAt: s.startedAt,
        finishedAt: s.finishedAt,
        elapsed: elapsedCell(s.elapsedMs),
      };
    });
  },
});

export const dnfExport = defineExport({
  name: 'dnf',
  title: 'DNF and DNS',
  description: 'Riders who did not finish or did not start each day, with the reason and who decided.',
  columns: [
    { key: 'day', header: 'Day', width: 6 },
    { key: 'riderNumber', header: 'Rider #', width: 8 },
    { key: 'kitName', header: 'Kit Name', width: 22 },
    { key: 'rider', header: 'Rider', width: 24 },
    { key: 'category', header: 'Category', width: 14 },
    { key: 'route', header: 'Route', width: 18 },
    { key: 'state', header: 'State', width: 8 },
    { key: 'reason', header: 'Reason', width: 24 },
    { key: 'stations', header: 'Stations Missed', width: 24 },
    { key: 'lastStation', header: 'Last Station', width: 20 },
    { key: 'lastSeenAt', header: 'Last Seen (Manila)', width: 18 },
    { key: 'note', header: 'Note', width: 30 },
    { key: 'decidedBy', header: 'Decided By', width: 22 },
    { key: 'decidedAt', header: 'Decided (Manila)', width: 18 },
  ],
  async rows(db, _viewer, edition) {
    const out = (await statesOfEveryDay(db, edition)).filter((s) => s.state === 'dnf' || s.state === 'dns');
    out.sort((a, b) => a.day - b.day || (a.riderNumber ?? 0) - (b.riderNumber ?? 0));
    return out.map((s) => ({
      day: s.day,
      riderNumber: s.riderNumber,
      kitName: s.kitName,
      rider: fullName(s.firstName, s.lastName),
      category: categoryCell(s.category),
      route: routeName(s.route),
      state: COURSE_STATE_LABELS[s.state],
      reason: s.dnfReason ? DNF_REASON_LABELS[s.dnfReason] : '',
      stations: s.dnfStations.map((st) => st.name).join(', '),
      lastStation: s.lastStation?.name ?? '',
      lastSeenAt: s.lastSeenAt,
      note: s.decision?.note ?? '',
      decidedBy: s.decision?.decidedByName ?? '',
      decidedAt: s.decision?.decidedAt ?? null,
    }));
  },
});
