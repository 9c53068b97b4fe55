import { MARKER_COLORS, type RallyRoute, type WaypointType } from '@rally/shared/catalog/landing';

export const WAYPOINT_LABELS: Record<WaypointType, string> = {
  start: 'Start/Finish',
  mountain: 'Mountain',
  major: 'Major Stop',
  checkpoint: 'Checkpoint',
};

/** Marker colour: fixed per type, except checkpoints which take the route's colour. */
export function waypointColor(type: WaypointType, route: RallyRoute): string {
  return MARKER_COLORS[type] ?? route.color;
}
