// Loaded on demand: every tracked rider's last position on one map, coloured by state with
// the rider's number and the state's short word on each marker (colour is never the only
// signal), the trials' route lines beneath, and the chosen rider's track drawn over them.
import 'leaflet/dist/leaflet.css';
import { MAP_CENTER, MAP_TILE_URL, MAP_ZOOM } from '@rally/shared/catalog/landing';
import { TRACK_STATE_COLORS, type TrackState } from '@rally/shared/catalog/tracking';
import type { RouteLine, TrackedRider, TrackPoint } from '@rally/shared/contracts/tracking';
import L from 'leaflet';
import { useEffect, useRef } from 'react';
import { AttributionControl, MapContainer, Marker, Polyline, TileLayer, useMap } from 'react-leaflet';
import { riderName, riderTag, stateLabel, TRACK_STATE_SHORT } from './tracking-display';

export interface MapRider {
  rider: TrackedRider;
  state: TrackState;
}

// Colours go in SVG attributes, not style attributes: the CSP forbids inline styles. Only
// digits and the fixed state words go into the markup, never a name.
function icon(tag: string, state: TrackState, chosen: boolean): L.DivIcon {
  const fill = TRACK_STATE_COLORS[state];
  const ring = chosen ? '#fbbf24' : '#0c0a09';
  return L.divIcon({
    className: 'rally-marker',
    iconSize: [48, 56],
    iconAnchor: [24, 56],
    html: `<svg xmlns="http://www.w3.org/2000/svg" width="48" height="56" viewBox="0 0 48 56" data-testid="tracker-marker" data-rider="${tag}" data-state="${state}"><path d="M24 55S3 35 3 21a21 21 0 0 1 42 0c0 14-21 34-21 34Z" fill="${fill}" stroke="${ring}" stroke-width="${chosen ? 4 : 2}"/><text x="24" y="20" text-anchor="middle" font-family="sans-serif" font-weight="700" font-size="12" fill="#fff">${tag}</text><text x="24" y="33" text-anchor="middle" font-family="sans-serif" font-weight="700" font-size="9" fill="#fff">${TRACK_STATE_SHORT[state]}</text></svg>`,
  });
}

/**
 * Fits the view to everyone as riders appear, until the user takes the map in hand (a drag, a
 * tap, a key); then to a rider's track when one is chosen. Never on a mere new position: a
 * marshal looking at one valley must not be thrown back to the whole island every minute.
 */
function Fit({
  riders,
  track,
  chosen,
}: {
  riders: MapRider[];
  track: TrackPoint[] | undefined;
  chosen: string | null;
}) {
  const map = useMap();
  const fitted = useRef<string | null>(null);
  const userTook = useRef(false);
  useEffect(() => {
    const container = map.getContainer();
    const took = () => {
      userTook.current = true;
    };
    container.addEventListener('pointerdown', took);
    container.addEventListener('keydown', took);
    return () => {
      container.removeEventListener('pointerdown', took);
      container.removeEventListener('keydown', took);
    };
  }, [map]);
  const placed = riders.filter(({ rider }) => rider.last);
  useEffect(() => {
    // A chosen rider's track still loading: stay where the map is until it comes.
    if (chosen && !track) return;
    const key = chosen ? `rider:${chosen}` : `all:${placed.length}`;
    if (fitted.current === key || (!chosen && userTook.current)) return;
    const points: Array<[number, number]> =
      chosen && track
        ? track.map((p) => [p.lat, p.lng])
        : placed.flatMap(({ rider }) => (rider.last ? [[rider.last.lat, rider.last.lng] as [number, number]] : []));
    if (points.length === 0) return;
    fitted.current = key;
    if (points.length === 1 && points[0]) map.setView(points[0], 13);
    else map.fitBounds(L.latLngBounds(points), { padding: [48, 48], maxZoom: 14 });
  }, [map, placed, track, chosen]);
  return null;
}

export default function TrackingMap({
  riders,
  routes,
  track,
  chosen,
  onChoose,
}: {
  riders: MapRider[];
  routes: RouteLine[];
  track: TrackPoint[] | undefined;
  chosen: string | null;
  onChoose: (userId: string) => void;
}) {
  return (
    // `isolate`: Leaflet's panes (z-index 400-1000) stay under the page's dialogs and alarm bar.
    <MapContainer
      center={MAP_CENTER}
      zoom={MAP_ZOOM}
      className="isolate size-full bg-ink-800"
      scrollWheelZoom={false}
      attributionControl={false}
    >
      {/* Leaflet credited in words: its default link, coloured only, fails WCAG's link-in-text-block. */}
      <AttributionControl position="bottomright" prefix="Leaflet" />
      <TileLayer url={MAP_TILE_URL} attribution="&copy; OpenStreetMap contributors" />
      <Fit riders={riders} track={track} chosen={chosen} />
      {routes.map((route) => (
        <Polyline
          key={route.trial}
          positions={route.points}
          pathOptions={{ color: '#fb923c', weight: 3, opacity: 0.6, dashArray: '8 6' }}
        />
      ))}
      {chosen && track && track.length > 1 && (
        <>
          <Polyline
            positions={track.map((p) => [p.lat, p.lng])}
            pathOptions={{ color: '#0c0a09', weight: 7 }}
            className="rider-track"
          />
          <Polyline
            positions={track.map((p) => [p.lat, p.lng])}
            pathOptions={{ color: '#fbbf24', weight: 4 }}
            className="rider-track"
          />
        </>
      )}
      {riders.map(({ rider, state }) =>
        rider.last ? (
          <Marker
            key={rider.userId}
            position={[rider.last.lat, rider.last.lng]}
            icon={icon(riderTag(rider), state, rider.userId === chosen)}
            title={`${riderTag(rider)} ${riderName(rider)}: ${stateLabel(state)}`}
            alt={`${riderTag(rider)} ${stateLabel(state)}`}
            zIndexOffset={rider.userId === chosen ? 1000 : 0}
            eventHandlers={{ click: () => onChoose(rider.userId) }}
          />
        ) : null,
      )}
    </MapContainer>
  );
}
