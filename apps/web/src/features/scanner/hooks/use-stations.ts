// The stations a device can record at: fetched when online, kept in IndexedDB for the next
// offline start. The chosen one is remembered on the device.
import type { Station } from '@rally/shared/contracts/stations';
import { useCallback, useEffect, useState } from 'react';
import { ApiError, call, client } from '../../../lib/api-client';
import { readMeta, writeMeta } from '../../../lib/offline/offline-db';
import { readStorage, writeStorage } from '../../../lib/storage';

const STATION_KEY = 'rally.scanner.stationId';

export interface StationsState {
  stations: Station[] | null;
  station: Station | null;
  choose: (id: string | null) => void;
  refresh: () => Promise<void>;
  error: string | null;
  /** The server refused the session while fetching. */
  unauthorized: boolean;
}

export function useStations(online: boolean): StationsState {
  const [stations, setStations] = useState<Station[] | null>(null);
  const [stationId, setStationId] = useState<string | null>(() => readStorage(STATION_KEY));
  const [error, setError] = useState<string | null>(null);
  const [unauthorized, setUnauthorized] = useState(false);

  const refresh = useCallback(async () => {
    try {
      const answer = await call(client.GET('/api/admin/stations'));
      setStations(answer.data);
      setError(null);
      setUnauthorized(false);
      await writeMeta('stations', answer.data);
      await writeMeta('stationsSyncedAt', new Date().toISOString());
    } catch (err) {
      if (err instanceof ApiError && err.status === 401) setUnauthorized(true);
      const cached = await readMeta('stations');
      setStations((current) => current ?? cached ?? []);
      if (!cached) setError(err instanceof Error ? err.message : 'Could not load the stations');
    }
  }, []);

  useEffect(() => {
    let cancelled = false;
    // The cached list first, so an offline start shows it at once.
    void readMeta('stations').then((cached) => {
      if (!cancelled && cached) setStations((current) => current ?? cached);
    });
    return () => {
      cancelled = true;
    };
  }, []);

  useEffect(() => {
    if (online) void refresh();
  }, [online, refresh]);

  const choose = useCallback((id: string | null) => {
    setStationId(id);
    writeStorage(STATION_KEY, id ?? '');
  }, []);

  const station = stations?.find((s) => s.id === stationId) ?? null;
  return { stations, station, choose, refresh, error, unauthorized };
}
