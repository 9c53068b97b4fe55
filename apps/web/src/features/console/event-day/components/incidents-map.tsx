// Loaded on demand: where the riders in trouble are. One marker per incident with a
// position, coloured by state; the view fits them all, or the one chosen on the board.
import 'leaflet/dist/leaflet.css';
import { INCIDENT_KIND_LABELS, type IncidentStatus } from '@rally/shared/catalog/event-day';
import { MAP_CENTER, MAP_TILE_URL, MAP_ZOOM } from '@rally/shared/catalog/landing';
import type { Incident } from '@rally/shared/contracts/incidents';
import L from 'leaflet';
import { useEffect } from 'react';
import { Circle, MapContainer, Marker, Popup, TileLayer, useMap } from 'react-leaflet';
import { coordinatesText } from '../../../../lib/incident-display';

export const STATUS_COLORS: Record<IncidentStatus, string> = {
  open: '#dc2626',
  acknowledged: '#f59e0b',
  assigned: '#f97316',
  resolved: '#6b7280',
};

// Colours go in SVG attributes, not style attributes: the CSP forbids inline styles.
function icon(status: IncidentStatus, label: string): L.DivIcon {
  return L.divIcon({
    className: 'rally-marker',
    iconSize: [40, 48],
    iconAnchor: [20, 48],
    popupAnchor: [0, -44],
    html: `<svg xmlns="http://www.w3.org/2000/svg" width="40" height="48" viewBox="0 0 40 48"><path d="M20 47S3 29.5 3 18a17 17 0 0 1 34 0c0 11.5-17 29-17 29Z" fill="${STATUS_COLORS[status]}" stroke="#0c0a09" stroke-width="2"/><text x="20" y="23" text-anchor="middle" font-family="sans-serif" font-weight="700" font-size="11" fill="#fff">${label}</text></svg>`,
  });
}

function Fit({ incidents, focus }: { incidents: Incident[]; focus: string | null }) {
  const map = useMap();
  useEffect(() => {
    const chosen = incidents.find((i) => i.id === focus && i.position);
    if (chosen?.position) {
      map.setView([chosen.position.lat, chosen.position.lng], 14);
      return;
    }
    const points = incidents.flatMap((i) => (i.position ? [[i.position.lat, i.position.lng] as [number, number]] : []));
    if (points.length === 1 && points[0]) map.setView(points[0], 13);
    else if (points.length > 1) map.fitBounds(L.latLngBounds(points), { padding: [40, 40], maxZoom: 14 });
  }, [map, incidents, focus]);
  return null;
}

export default function IncidentsMap({ incidents, focus }: { incidents: Incident[]; focus: string | null }) {
  const placed = incidents.filter((i) => i.position);
  return (
    // `isolate`: Leaflet's panes and controls (z-index 400-1000) stay inside the map, under
    // the SOS alarm bar, dialogs and toasts of the page.
    <MapContainer center={MAP_CENTER} zoom={MAP_ZOOM} className="isolate size-full bg-ink-800" scrollWheelZoom={false}>
      <TileLayer url={MAP_TILE_URL} attribution="&copy; OpenStreetMap contributors" />
      <Fit incidents={placed} focus={focus} />
      {placed.map((i) =>
        i.position ? (
          <Marker
            key={i.id}
            position={[i.position.lat, i.position.lng]}
            icon={icon(i.status, i.rider.riderNumber !== null ? `#${i.rider.riderNumber}` : 'SOS')}
            title={`${INCIDENT_KIND_LABELS[i.kind]}: rider ${i.rider.riderNumber ?? ''} ${i.rider.kitName ?? ''}`}
          >
            <Popup>
              <strong>
                #{i.rider.riderNumber ?? '---'} {i.rider.kitName}
              </strong>
              <br />
              {INCIDENT_KIND_LABELS[i.kind]} · {i.status}
              <br />
              {coordinatesText(i.position)}
            </Popup>
          </Marker>
        ) : null,
      )}
      {placed.map((i) =>
        i.position && i.position.accuracy > 0 ? (
          <Circle
            key={`${i.id}-accuracy`}
            center={[i.position.lat, i.position.lng]}
            radius={i.position.accuracy}
            pathOptions={{ color: STATUS_COLORS[i.status], weight: 1, fillOpacity: 0.1 }}
          />
        ) : null,
      )}
    </MapContainer>
  );
}
