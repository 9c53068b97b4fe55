// Route rules: per station a cutoff, a required flag (the station's own by default) and the
// minutes after a rider's start at which they are due there. Read by view_dashboard
// roles, replaced whole per route by manage_event, audited; every board hears of it.
import { RALLY_ROUTE_IDS, type RallyRouteId } from '@rally/shared/catalog/event-day';
import type { RouteRulesView, UpdateRouteRulesRequest } from '@rally/shared/contracts/course';
import type { Db, DbOrTx } from '../../db/client';
import { courseRules, type StationRule } from '../../db/schema/course';
import type { Actor } from '../../lib/actor';
import { type EditionRead, inEdition } from '../../lib/edition-of';
import { BadRequestError } from '../../lib/errors';
import { publishEvent } from '../../lib/event-bus';
import { recordActivity } from '../activities/activities.service';
import { defaultRules, loadCourseStations, loadRules } from './course.service';
import { effectiveRequired, stationsOfRoute } from './course-state';

/** Every route's rules over every station it rides (all days) in `edition` (default: the current one), defaults filled in. */
export async function listRouteRules(
  db: DbOrTx,
  only?: RallyRouteId,
  edition?: EditionRead,
): Promise<RouteRulesView[]> {
  const [all, rules, rows] = await Promise.all([
    loadCourseStations(db, undefined, edition),
    loadRules(db, edition),
    db.select().from(courseRules).where(inEdition(courseRules.editionId, edition)),
  ]);
  const updatedAt = new Map(rows.map((r) => [r.routeId, r.updatedAt.toISOString()]));
  return RALLY_ROUTE_IDS.filter((id) => !only || id === only).map((routeId) => {
    const route = rules.get(routeId) ?? defaultRules();
    const own = stationsOfRoute(all, routeId).sort((a, b) => a.day - b.day || a.order - b.order);
    return {
      routeId,
      overdueAfterMinutes: route.overdueAfterMinutes,
      updatedAt: updatedAt.get(routeId) ?? null,
      stations: own.map((s) => {
        const rule = route.stations.get(s.id);
        return {
          stationId: s.id,
          name: s.name,
          kind: s.kind,
          day: s.day,
          order: s.order,
          stationRequired: s.required,
          required: effectiveRequired(s, route),
          requiredOverride: rule?.required ?? null,
          cutoffAt: rule?.cutoffAt ? new Date(rule.cutoffAt).toISOString() : null,
          dueMinutes: rule?.dueMinutes ?? null,
        };
      }),
    };
  });
}

export async function updateRouteRules(
  db: Db,
  routeId: RallyRouteId,
  body: UpdateRouteRulesRequest,
  actor: Actor,
  now: Date,
): Promise<RouteRulesView> {
  const all = await loadCourseStations(db);
  const own = new Map(stationsOfRoute(all, routeId).map((s) => [s.id, s]));
  const seen = new Set<string>();
  const entries: StationRule[] = [];
  for (const rule of body.stations) {
    const station = own.get(rule.stationId);
    if (!station) {
      throw new BadRequestError(`Station ${rule.stationId} is not on the ${routeId} route`, 'STATION_NOT_ON_ROUTE');
    }
    if (seen.has(rule.stationId))
      throw new BadRequestError(`Station ${station.name} is listed twice`, 'DUPLICATE_RULE');
    seen.add(rule.stationId);
    const entry: StationRule = {
      stationId: rule.stationId,
      cutoffAt: rule.cutoffAt ? new Date(rule.cutoffAt).toISOString() : null,
      required: rule.required ?? null,
      dueMinutes: rule.dueMinutes ?? null,
    };
    // A rule that says nothing is no rule.
    if (entry.cutoffAt !== null || entry.required !== null || entry.dueMinutes !== null) entries.push(entry);
  }
  await db.transaction(async (tx) => {
    const current = (await loadRules(tx)).get(routeId) ?? defaultRules();
    const overdueAfterMinutes = body.overdueAfterMinutes ?? current.overdueAfterMinutes;
    await tx
      .insert(courseRules)
      .values({ routeId, overdueAfterMinutes, stations: entries, updatedAt: now, updatedBy: actor.id })
      .onConflictDoUpdate({
        target: [courseRules.editionId, courseRules.routeId],
        set: { overdueAfterMinutes, stations: entries, updatedAt: now, updatedBy: actor.id },
      });
    const summary = entries.map((e) => {
      const name = own.get(e.stationId)?.name ?? e.stationId;
      const parts = [
        e.cutoffAt ? `cutoff ${e.cutoffAt}` : null,
        e.required === null ? null : e.required ? 'required' : 'not required',
        e.dueMinutes === null ? null : `due +${e.dueMinutes} min`,
      ].filter(Boolean);
      return `${name}: ${parts.join(', ')}`;
    });
    await recordActivity(tx, {
      type: 'course_rules_updated',
      actorId: actor.id,
      actorName: actor.name,
      description: `${actor.name} updated the course rules of the ${routeId} route`,
      details: [`overdue after ${overdueAfterMinutes} min`, ...summary].join('; ').slice(0, 1000),
      metadata: { routeId, overdueAfterMinutes, stations: entries.length },
    });
    await publishEvent(tx, 'course', { change: 'rules', routeId });
  });
  const [view] = await listRouteRules(db, routeId);
  if (!view) throw new Error(`rules of ${routeId} vanished`);
  return view;
}
