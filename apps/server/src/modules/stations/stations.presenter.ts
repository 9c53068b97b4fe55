import type { Station } from '@rally/shared/contracts/stations';
import type { StationListRow } from './stations.service';

export function presentStation(row: StationListRow): Station {
  return {
    id: row.id,
    name: row.name,
    code: row.code,
    kind: row.kind,
    day: row.day,
    routes: row.routes as Station['routes'],
    order: row.order,
    lat: row.lat,
    lng: row.lng,
    opensAt: row.opensAt ? row.opensAt.toISOString() : null,
    closesAt: row.closesAt ? row.closesAt.toISOString() : null,
    required: row.required,
    closed: row.closed,
    scanCount: row.scanCount,
  };
}
