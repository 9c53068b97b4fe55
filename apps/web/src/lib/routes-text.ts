// A station's routes in words, for the console's stations table and the scanner's station
// list. Apart from lib/format.ts, which the riders' first screens load: this needs the
// route catalogue, and they do not.
import type { RallyRouteId } from '@rally/shared/catalog/event-day';
import { RALLY_ROUTES } from '@rally/shared/catalog/landing';

/** `routes: []` means the station serves every route. */
export function routesText(routes: readonly RallyRouteId[]): string {
  if (routes.length === 0) return 'All routes';
  return routes.map((r) => RALLY_ROUTES[r].name).join(', ');
}
