import {
  DEFAULT_ROUTE,
  MAP_HEIGHT_PX,
  RALLY_ROUTES,
  type RallyRoute,
  type WaypointType,
} from '@rally/shared/catalog/landing';
import type { RouteLine } from '@rally/shared/contracts/tracking';
import { Building, Flag, Lock, MapPin, Mountain } from 'lucide-react';
import { lazy, Suspense, useEffect, useRef, useState } from 'react';
import { WAYPOINT_LABELS, waypointColor } from './waypoint-style';

// Leaflet is ~45 KB gzipped: fetched only when the section comes near the viewport.
const RouteMap = lazy(() => import('./route-map'));

const ROUTE_ORDER: RallyRoute['id'][] = ['lakambini', 'lakan', 'bagani'];
const LEGEND_ORDER: WaypointType[] = ['start', 'mountain', 'major', 'checkpoint'];
const LEGEND_ICONS = { start: Flag, mountain: Mountain, major: Building, checkpoint: MapPin } as const;
// The page is prerendered and the CSP blocks style attributes, so sizes and colours go in
// classes and SVG fills. Keyed by the catalog's value: changing MAP_HEIGHT_PX fails to
// compile until its class is added here.
const MAP_HEIGHT: Record<typeof MAP_HEIGHT_PX, string> = { 500: 'h-[500px]' };

type UploadedLines = Partial<Record<RallyRoute['id'], RouteLine['points']>>;

/**
 * The organisers' uploaded route lines (GET /api/routes), fetched with the map: a plain fetch,
 * the landing page carries no API client. None (or a failed fetch) leaves the waypoint loops.
 */
async function fetchUploadedLines(signal: AbortSignal): Promise<UploadedLines> {
  const res = await fetch('/api/routes', { signal, headers: { accept: 'application/json' } });
  if (!res.ok) return {};
  const body = (await res.json()) as { data?: RouteLine[] };
  return Object.fromEntries((body.data ?? []).map((line) => [line.trial, line.points]));
}

export function RoutesSection() {
  const [selected, setSelected] = useState<RallyRoute['id']>(DEFAULT_ROUTE);
  const route = RALLY_ROUTES[selected];
  const panelRef = useRef<HTMLDivElement>(null);
  const [mapWanted, setMapWanted] = useState(false);
  const [uploaded, setUploaded] = useState<UploadedLines>({});
  const line = uploaded[selected];

  useEffect(() => {
    if (!mapWanted) return;
    const controller = new AbortController();
    fetchUploadedLines(controller.signal)
      .then(setUploaded)
      .catch(() => undefined);
    return () => controller.abort();
  }, [mapWanted]);

  useEffect(() => {
    const panel = panelRef.current;
    if (!panel) return;
    if (!('IntersectionObserver' in window)) {
      setMapWanted(true);
      return;
    }
    const observer = new IntersectionObserver(
      (entries) => {
        if (entries.some((e) => e.isIntersecting)) {
          setMapWanted(true);
          observer.disconnect();
        }
      },
      { rootMargin: '600px 0px' },
    );
    observer.observe(panel);
    return () => observer.disconnect();
  }, []);

  return (
    <section id="routes" aria-labelledby="routes-title" className="scroll-mt-4 border-y border-ink-800 bg-ink-900">
      <div className="mx-auto max-w-6xl px-4 py-16 sm:py-20">
        <p className="font-display text-lg tracking-[0.3em] text-fire-400">Know your road</p>
        <h2 id="routes-title" className="mt-1 text-5xl sm:text-6xl">
          The Routes
        </h2>
        <fieldset className="mt-8">
          <legend className="sr-only">Choose a route to preview</legend>
          <div className="grid gap-3 sm:grid-cols-3">
            {ROUTE_ORDER.map((id) => {
              const r = RALLY_ROUTES[id];
              const active = id === selected;
              return (
                <button
                  key={id}
                  type="button"
                  aria-pressed={active}
                  onClick={() => setSelected(id)}
                  className={`flex items-center gap-3 rounded-lg border-2 px-4 py-3 text-left transition-colors ${
                    active ? 'border-fire-500 bg-ink-800' : 'border-ink-700 bg-ink-950 hover:border-ink-600'
                  }`}
                >
                  <svg className="size-4 shrink-0" viewBox="0 0 16 16" aria-hidden="true">
                    <circle cx="8" cy="8" r="8" fill={r.color} />
                  </svg>
                  <span className="min-w-0">
                    <span className="block font-display text-2xl leading-tight">{r.name}</span>
                    <span className="block text-sm text-ash">
                      {r.distance} · {r.tagline}
                    </span>
                  </span>
                </button>
              );
            })}
          </div>
        </fieldset>

        <div className="mt-6 overflow-hidden rounded-xl border border-ink-700 bg-ink-950" ref={panelRef}>
          <div className="flex flex-wrap items-end justify-between gap-2 border-b border-ink-700 px-4 py-3">
            <h3 className="text-3xl" aria-live="polite">
              {route.name}
            </h3>
            <p className="text-sm font-bold tracking-wide text-ash uppercase">
              {route.distance} · {route.waypoints.length} stops
            </p>
          </div>
          <div className={`relative ${MAP_HEIGHT[MAP_HEIGHT_PX]}`}>
            {/* The map sits under the overlay and must not take focus or be read out. */}
            <div className="absolute inset-0" aria-hidden="true" inert>
              {mapWanted && (
                <Suspense fallback={null}>
                  <RouteMap route={route} line={line} />
                </Suspense>
              )}
            </div>
            {/* A line the organisers uploaded is public (GET /api/routes): the route is revealed. */}
            {!line && <ClassifiedOverlay />}
          </div>
          <ul
            className="flex flex-wrap gap-x-6 gap-y-2 border-t border-ink-700 px-4 py-3 text-sm"
            aria-label="Map legend"
          >
            {LEGEND_ORDER.map((type) => {
              const Icon = LEGEND_ICONS[type];
              return (
                <li key={type} className="flex items-center gap-2 text-ash">
                  <span className="relative flex size-6 items-center justify-center" aria-hidden="true">
                    <svg className="absolute inset-0 size-full" viewBox="0 0 24 24">
                      <circle cx="12" cy="12" r="12" fill={waypointColor(type, route)} />
                    </svg>
                    <Icon className="relative size-3.5 text-white" />
                  </span>
                  {WAYPOINT_LABELS[type]}
                </li>
              );
            })}
            <li className="ml-auto text-xs text-smoke">Map data © OpenStreetMap contributors</li>
          </ul>
        </div>
      </div>
    </section>
  );
}

function ClassifiedOverlay() {
  return (
    <div
      data-testid="route-overlay"
      className="absolute inset-0 z-[1100] flex items-center justify-center bg-ink-950/90 px-4 backdrop-blur-sm"
    >
      <div className="tribal-stripes absolute inset-0" aria-hidden="true" />
      <div className="relative max-w-md text-center">
        <Lock className="mx-auto size-12 text-fire-400" aria-hidden="true" />
        <p className="mt-4 font-display text-4xl text-bone sm:text-5xl">ROUTE CLASSIFIED</p>
        <p className="mt-2 font-display text-xl tracking-[0.3em] text-fire-300">FINAL COORDINATES</p>
        <p className="mt-4 text-ash">
          Our trail masters are finalizing the exact route. It will be revealed soon, warrior.
        </p>
        <p className="mt-6 inline-block -rotate-2 rounded border-2 border-gold-400 px-4 py-1 font-display text-2xl tracking-widest text-gold-300">
          COMING SOON
        </p>
      </div>
    </div>
  );
}
