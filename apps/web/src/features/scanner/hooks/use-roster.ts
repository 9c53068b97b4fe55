// The roster in memory (indexed by code and number) for instant verdicts, loaded from
// IndexedDB at once and refreshed by delta whenever the device is online.
import type { RosterRider } from '@rally/shared/contracts/scans';
import { useCallback, useEffect, useRef, useState } from 'react';
import { ApiError } from '../../../lib/api-client';
import {
  cachePhotos,
  loadPhotoUrls,
  loadRoster,
  refreshRoster,
  rosterSyncedAt,
} from '../../../lib/offline/roster-cache';
import { indexRoster, type RosterIndex } from '../lib/local-verdict';

export interface RosterState {
  index: RosterIndex;
  size: number;
  loaded: boolean;
  syncedAt: string | null;
  photos: Map<string, string>;
  unauthorized: boolean;
  refresh: () => Promise<void>;
}

export function useRoster(online: boolean): RosterState {
  const [riders, setRiders] = useState<RosterRider[]>([]);
  const [index, setIndex] = useState<RosterIndex>(() => indexRoster([]));
  const [loaded, setLoaded] = useState(false);
  const [syncedAt, setSyncedAt] = useState<string | null>(null);
  const [photos, setPhotos] = useState<Map<string, string>>(() => new Map());
  const [unauthorized, setUnauthorized] = useState(false);
  const busy = useRef(false);

  const adopt = useCallback(async () => {
    const all = await loadRoster();
    setRiders(all);
    setIndex(indexRoster(all));
    setSyncedAt((await rosterSyncedAt()) ?? null);
    setLoaded(true);
    return all;
  }, []);

  const refresh = useCallback(async () => {
    if (busy.current) return;
    busy.current = true;
    try {
      await refreshRoster();
      setUnauthorized(false);
      const all = await adopt();
      void cachePhotos(all, (riderId, blob) =>
        setPhotos((current) => new Map(current).set(riderId, URL.createObjectURL(blob))),
      );
    } catch (error) {
      if (error instanceof ApiError && error.status === 401) setUnauthorized(true);
      // Offline or refused: the cached roster stays in use.
    } finally {
      busy.current = false;
    }
  }, [adopt]);

  useEffect(() => {
    void adopt();
    void loadPhotoUrls().then(setPhotos);
  }, [adopt]);

  useEffect(() => {
    if (online) void refresh();
  }, [online, refresh]);

  return { index, size: riders.length, loaded, syncedAt, photos, unauthorized, refresh };
}
