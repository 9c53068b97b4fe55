// Turns a read QR or a typed number into a verdict on screen and a scan in the queue.
// The verdict comes from memory (roster index and this device's scan history) so it paints
// within a frame; the scan is written to IndexedDB and the sync is asked for after it.
import type { RosterRider } from '@rally/shared/contracts/scans';
import type { Station } from '@rally/shared/contracts/stations';
import { useCallback, useEffect, useRef, useState } from 'react';
import { deviceId as loadDeviceId, offlineDb, type QueuedScan } from '../../../lib/offline/offline-db';
import { enqueueScan, recentScans, subscribeSync, syncNow } from '../../../lib/offline/scan-sync';
import { signalVerdict } from '../lib/feedback';
import {
  findRider,
  type LocalVerdict,
  localVerdict,
  type PastScan,
  type RosterIndex,
  withinCooldown,
} from '../lib/local-verdict';
import { type RiderToken, tokenKey } from '../lib/rider-token';

export interface ShownVerdict {
  /** Changes with every verdict shown, so the card re-animates and the timing is taken. */
  seq: number;
  verdict: LocalVerdict;
  token: RiderToken;
  /** Set when this was the same rider again within the cooldown: shown, not recorded. */
  repeatOf?: { at: number };
  /** `performance.now()` when the input arrived, for the input-to-paint measure. */
  inputAt: number;
}

interface Options {
  station: Station | null;
  stations: readonly Station[];
  index: RosterIndex;
  userId: string | undefined;
}

export function useScanRecorder({ station, stations, index, userId }: Options) {
  const [shown, setShown] = useState<ShownVerdict | null>(null);
  const [recent, setRecent] = useState<QueuedScan[]>([]);
  const history = useRef(new Map<string, PastScan[]>());
  const device = useRef<string | null>(null);
  const seq = useRef(0);
  // Kept in refs so the camera's callback, made once, always sees the current values.
  const live = useRef({ station, stations, index, userId });
  live.current = { station, stations, index, userId };

  useEffect(() => {
    let cancelled = false;
    void (async () => {
      device.current = await loadDeviceId();
      // This device's past scans, so a re-scan after a reload is still known as one.
      const all = await (await offlineDb()).getAll('scans');
      all.sort((a, b) => a.scannedAt.localeCompare(b.scannedAt));
      for (const scan of all) {
        const key = scan.riderId ?? tokenKey(scanToken(scan));
        const list = history.current.get(key) ?? [];
        list.push({ key, stationId: scan.stationId, at: Date.parse(scan.scannedAt) });
        history.current.set(key, list);
      }
      if (!cancelled) setRecent(await recentScans());
    })();
    // Server answers arrive through the sync: refresh the list's statuses then.
    const unsubscribe = subscribeSync(() => {
      void recentScans().then((list) => {
        if (!cancelled) setRecent(list);
      });
    });
    return () => {
      cancelled = true;
      unsubscribe();
    };
  }, []);

  const record = useCallback((token: RiderToken, source: 'camera' | 'manual') => {
    const inputAt = performance.now();
    const { station: at, stations: all, index: roster, userId: marshal } = live.current;
    if (!at) return;
    const now = Date.now();
    const rider: RosterRider | undefined = findRider(roster, token);
    const key = rider?.id ?? tokenKey(token);
    const past = history.current.get(key) ?? [];
    seq.current += 1;

    const repeat = withinCooldown(past, at.id, now);
    if (repeat) {
      setShown((prev) => ({
        seq: seq.current,
        verdict:
          prev && prevKey(prev) === key
            ? prev.verdict
            : localVerdict({ rider, station: at, stations: all, history: [], now }),
        token,
        repeatOf: { at: repeat.at },
        inputAt,
      }));
      signalVerdict('repeat');
      return;
    }

    const verdict = localVerdict({ rider, station: at, stations: all, history: past, now });
    const shownSeq = seq.current;
    // At once: the next camera frame of the same sticker is a repeat, not a second scan.
    history.current.set(key, [...past, { key, stationId: at.id, at: now }]);

    const scan: QueuedScan = {
      id: crypto.randomUUID(),
      stationId: at.id,
      ...token,
      scannedAt: new Date(now).toISOString(),
      deviceId: device.current ?? 'unknown-device',
      source,
      ...(marshal ? { recordedBy: marshal } : {}),
      ...(rider ? { riderId: rider.id } : {}),
      localTone: verdict.tone,
      ...(verdict.tone !== 'accepted' ? { localReason: verdict.reason } : {}),
      state: 'pending',
    };
    void (async () => {
      // The device id is read before the first scan can be made; should it not be yet,
      // the write waits for it rather than queue a scan without one.
      if (!device.current) {
        device.current = await loadDeviceId();
        scan.deviceId = device.current;
      }
      // Kept before it is shown: a verdict on the screen is a scan the phone holds, even if the
      // page is reloaded or closed the moment after (a reload in that gap lost a scan in CI).
      // The write takes a few milliseconds.
      try {
        await enqueueScan(scan);
      } finally {
        // A later input (a repeat of another sticker) may already be on the screen: it stays.
        setShown((prev) => (prev && prev.seq > shownSeq ? prev : { seq: shownSeq, verdict, token, inputAt }));
        signalVerdict(verdict.tone);
      }
      setRecent(await recentScans());
      void syncNow();
    })();
  }, []);

  return { shown, recent, record };
}

function scanToken(scan: QueuedScan): RiderToken {
  return scan.riderCode !== undefined ? { riderCode: scan.riderCode } : { riderNumber: scan.riderNumber ?? -1 };
}

function prevKey(prev: ShownVerdict): string {
  return prev.verdict.tone === 'unknown' ? tokenKey(prev.token) : prev.verdict.rider.id;
}
