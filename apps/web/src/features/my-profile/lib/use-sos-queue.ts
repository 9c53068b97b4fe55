import { useQueryClient } from '@tanstack/react-query';
import { useEffect, useState } from 'react';
import {
  callsWaitingForOthers,
  type QueuedSos,
  queuedSos,
  startSosSync,
  subscribeSos,
} from '../../../lib/offline/sos-queue';
import { myIncidentsKey } from '../api/incidents-api';

/** This rider's SOS calls held on the phone, kept current as they are queued and delivered. */
export function useSosQueue(userId: string): QueuedSos[] {
  const [calls, setCalls] = useState<QueuedSos[]>([]);
  const queryClient = useQueryClient();
  useEffect(() => {
    let alive = true;
    let sent = -1;
    const load = () =>
      void queuedSos(userId).then((list) => {
        if (!alive) return;
        setCalls(list);
        // A call just delivered: read its incident (and start following it).
        const delivered = list.filter((c) => c.state === 'sent').length;
        if (sent !== -1 && delivered !== sent) void queryClient.invalidateQueries({ queryKey: myIncidentsKey });
        sent = delivered;
      });
    const stop = subscribeSos(load);
    load();
    // A call left pending by an earlier visit goes now.
    startSosSync();
    return () => {
      alive = false;
      stop();
    };
  }, [userId, queryClient]);
  return calls;
}

/** How many SOS calls other accounts left on this phone, waiting for their owner to sign in. */
export function useCallsWaitingForOthers(userId: string): number {
  const [count, setCount] = useState(0);
  useEffect(() => {
    let alive = true;
    const load = () =>
      void callsWaitingForOthers(userId).then((n) => {
        if (alive) setCount(n);
      });
    const stop = subscribeSos(load);
    load();
    return () => {
      alive = false;
      stop();
    };
  }, [userId]);
  return count;
}

/** A clock that ticks while `active`, for "sending for 12 s". */
export function useNow(active: boolean, everyMs = 1_000): number {
  const [now, setNow] = useState(() => Date.now());
  useEffect(() => {
    if (!active) return;
    setNow(Date.now());
    const timer = setInterval(() => setNow(Date.now()), everyMs);
    return () => clearInterval(timer);
  }, [active, everyMs]);
  return now;
}
