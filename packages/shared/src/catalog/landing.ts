// The landing page's fixed content: the rally's routes on the map, and the event's facts.
// One topic of the catalog: the rally's fixed content and business constants, defined once;
// the server's Postgres enums, the zod contracts and the web UI read them from here.

// Routes of the landing-page picker (fixed content).
export type WaypointType = 'start' | 'checkpoint' | 'major' | 'mountain';
export interface Waypoint {
  position: [number, number];
  name: string;
  type: WaypointType;
  description?: string;
}
export interface RallyRoute {
  id: 'lakambini' | 'lakan' | 'bagani';
  name: string;
  distance: string;
  tagline: string;
  color: string;
  loop: Array<[number, number]>;
  waypoints: Waypoint[];
}

const DAVAO: [number, number] = [7.0731, 125.6128];

export const RALLY_ROUTES: Record<RallyRoute['id'], RallyRoute> = {
  lakambini: {
    id: 'lakambini',
    name: 'Lakambini/Magani',
    distance: '359KM',
    tagline: 'Open to all riders',
    color: '#ec4899',
    loop: [DAVAO, [7.5306, 125.2472], [7.205, 125.4533], [7.0167, 125.4833], DAVAO],
    waypoints: [
      { position: DAVAO, name: 'Davao City', type: 'start' },
      { position: [7.5306, 125.2472], name: 'Marilog', type: 'checkpoint' },
      { position: [7.205, 125.4533], name: 'Calinan', type: 'checkpoint' },
      { position: [7.0167, 125.4833], name: 'Toril', type: 'checkpoint' },
    ],
  },
  lakan: {
    id: 'lakan',
    name: 'Lakan',
    distance: '603KM',
    tagline: 'Open/Mixed',
    color: '#14b8a6',
    loop: [DAVAO, [6.1164, 125.1716], [6.5008, 124.8469], [8.0542, 124.9236], DAVAO],
    waypoints: [
      { position: DAVAO, name: 'Davao City', type: 'start' },
      { position: [6.1164, 125.1716], name: 'General Santos', type: 'major', description: 'Major stop' },
      { position: [6.5008, 124.8469], name: 'Koronadal', type: 'mountain', description: 'Mountain pass' },
      { position: [8.0542, 124.9236], name: 'Bukidnon', type: 'mountain', description: 'Highland challenge' },
    ],
  },
  bagani: {
    id: 'bagani',
    name: 'Bagani',
    distance: '1213KM',
    tagline: 'Elite warriors only',
    color: '#f97316',
    loop: [DAVAO, [6.1164, 125.1716], [6.9214, 122.079], [8.4542, 124.6319], [6.9874, 125.2733], DAVAO],
    waypoints: [
      { position: DAVAO, name: 'Davao City', type: 'start' },
      { position: [6.1164, 125.1716], name: 'General Santos', type: 'checkpoint' },
      { position: [8.4542, 124.6319], name: 'Cagayan de Oro', type: 'major', description: 'Major stop' },
      { position: [6.9214, 122.079], name: 'Zamboanga', type: 'checkpoint', description: 'Western challenge' },
      { position: [6.9874, 125.2733], name: 'Mt. Apo', type: 'mountain', description: 'Sacred Peak' },
    ],
  },
};
export const DEFAULT_ROUTE: RallyRoute['id'] = 'bagani';
export const MAP_CENTER: [number, number] = [7.5, 125];
export const MAP_ZOOM = 7;
export const MAP_HEIGHT_PX = 500;
export const MAP_TILE_URL = 'https://{s}.tile.openstreetmap.org/{z}/{x}/{y}.png';
export const MAP_TILE_HOST = 'https://*.tile.openstreetmap.org';
export const MARKER_COLORS: Record<WaypointType, string | null> = {
  start: '#16a34a',
  mountain: '#7c3aed',
  major: '#f59e0b',
  checkpoint: null,
};

export const EVENT = {
  name: 'Mindanao Warriors Endurance Rally',
  dates: 'November 15-16, 2025',
  registration: 'Open now — limited slots',
  terrain: 'Highways, mountain passes and highland roads across Mindanao',
  insurers: { standard: 'Insurer for Lakambini, Magani and Lakan', bagani: 'Insurer for Bagani' },
} as const;
