// Loaded on demand (see routes-section.tsx). Fixed, non-interactive map: the overlay
// above it covers it until the organisers reveal the route by uploading its line (GPX). With
// a line, the map draws it and frames it; without, dashed straight segments between waypoints.
import 'leaflet/dist/leaflet.css';
import { MAP_CENTER, MAP_TILE_URL, MAP_ZOOM, type RallyRoute, type WaypointType } from '@rally/shared/catalog/landing';
import L from 'leaflet';
import { useEffect, useMemo } from 'react';
import { MapContainer, Marker, Polyline, Popup, TileLayer, useMap } from 'react-leaflet';
import { waypointColor } from './waypoint-style';

// Icon paths from lucide (ISC): flag, mountain, building, map-pin.
const ICON_PATHS: Record<WaypointType, string> = {
  start:
    '<path d="M4 22V4a1 1 0 0 1 .4-.8A6 6 0 0 1 8 2c3 0 5 2 7.333 2q2 0 3.067-.8A1 1 0 0 1 20 4v10a1 1 0 0 1-.4.8A6 6 0 0 1 16 16c-3 0-5-2-8-2a6 6 0 0 0-4 1.528"/>',
  mountain: '<path d="m8 3 4 8 5-5 5 15H2L8 3z"/>',
  major:
    '<rect x="4" y="2" width="16" height="20" rx="2"/><path d="M9 22v-3a1 1 0 0 1 1-1h4a1 1 0 0 1 1 1v3M8 6h.01M16 6h.01M12 6h.01M12 10h.01M12 14h.01M16 10h.01M16 14h.01M8 10h.01M8 14h.01"/>',
  checkpoint:
    '<path d="M20 10c0 4.993-5.539 10.193-7.399 11.799a1 1 0 0 1-1.202 0C9.539 20.193 4 14.993 4 10a8 8 0 0 1 16 0"/><circle cx="12" cy="10" r="3"/>',
};

const TYPE_NAMES: Record<WaypointType, string> = {
  start: 'Start',
  checkpoint: 'Checkpoint',
  major: 'Major',
  mountain: 'Mountain',
};

// Colours go in SVG attributes, not style attributes: the CSP forbids inline styles.
function markerIcon(type: WaypointType, color: string): L.DivIcon {
  return L.divIcon({
    className: 'rally-marker',
    iconSize: [40, 48],
    iconAnchor: [20, 48],
    popupAnchor: [0, -44],
    html: `<svg xmlns="http://www.w3.org/2000/svg" width="40" height="48" viewBox="0 0 40 48"><path d="M20 47S3 29.5 3 18a17 17 0 0 1 34 0c0 11.5-17 29-17 29Z" fill="${color}" stroke="#0c0a09" stroke-width="2"/><g transform="translate(10 8) scale(.8333)" fill="none" stroke="#fff" stroke-width="2.4" stroke-linecap="round" stroke-linejoin="round">${ICON_PATHS[type]}</g></svg>`,
  });
}

/** Frames the uploaded line (a trial's real road may sit off the island-wide view), or the default view. */
function Framing({ line }: { line: Array<[number, number]> | undefined }) {
  const map = useMap();
  useEffect(() => {
    if (line && line.length >= 2)
      map.fitBounds(L.latLngBounds(line), { padding: [24, 24], maxZoom: 12, animate: false });
    else map.setView(MAP_CENTER, MAP_ZOOM, { animate: false });
  }, [map, line]);
  return null;
}

export default function RouteMap({ route, line }: { route: RallyRoute; line?: Array<[number, number]> }) {
  const icons = useMemo(() => route.waypoints.map((w) => markerIcon(w.type, waypointColor(w.type, route))), [route]);
  return (
    <MapContainer
      center={MAP_CENTER}
      zoom={MAP_ZOOM}
      className="size-full bg-ink-800"
      zoomControl={false}
      attributionControl={false}
      dragging={false}
      scrollWheelZoom={false}
      doubleClickZoom={false}
      touchZoom={false}
      boxZoom={false}
      keyboard={false}
    >
      <TileLayer url={MAP_TILE_URL} />
      <Framing line={line} />
      {line ? (
        <Polyline
          key={`${route.id}-line`}
          positions={line}
          // A creation option (pathOptions are styles, set later): the class marks the uploaded road.
          className="route-line"
          pathOptions={{ color: route.color, weight: 5, opacity: 0.95 }}
        />
      ) : (
        <Polyline
          key={route.id}
          positions={route.loop}
          pathOptions={{ color: route.color, weight: 4, opacity: 0.8, dashArray: '10 10' }}
        />
      )}
      {route.waypoints.map((waypoint, i) => (
        <Marker key={`${route.id}-${waypoint.name}`} position={waypoint.position} icon={icons[i]} keyboard={false}>
          <Popup>
            <strong>{waypoint.name}</strong>
            <br />
            {TYPE_NAMES[waypoint.type]} Point
          </Popup>
        </Marker>
      ))}
    </MapContainer>
  );
}
