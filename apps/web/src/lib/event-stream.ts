// The console's live events (push, not polling): one Server-Sent Events
// connection per page to GET /api/admin/event/stream, shared by every component that
// listens. EventSource cannot send the Authorization header, so a fetch-based client reads
// the stream. It stays open in a hidden tab (an SOS must raise the alarm on a console left
// in the background) and reconnects with backoff. Whenever the server's feed is (again)
// live, on each connection and after a drop, listeners get an `open` event: events sent
// meanwhile are not replayed, so they re-read what they show.
//
// The indicator never says "Live" while nothing is heard: the server says `live: false` when
// its own feed from the database drops (a database restart), and a stream from which not even
// the 20 s heartbeat came for SILENT_MS (a server or proxy gone quiet) is dropped and opened
// again.

import { EventStreamContentType, fetchEventSource } from '@microsoft/fetch-event-source';
import { EVENT_TYPES, type EventTypeName } from '@rally/shared/catalog/event-day';
import { useEffect, useRef, useSyncExternalStore } from 'react';
import { API_BASE, getAuthToken } from './api-client';

const isEventType = (name: string): name is EventTypeName => (EVENT_TYPES as readonly string[]).includes(name);

export type StreamEvent =
  | { type: 'open' }
  | {
      /** `position`: a tracked rider's new last position (handle_incidents only; tracking/). */
      /** `receipt`: a rider's upload processed or their receipt read (verify_users only; verifications/). */
      type: EventTypeName;
      data: { riderId?: string; riderNumber?: number | null; kitName?: string | null; [key: string]: unknown };
    };

type Handler = (event: StreamEvent) => void;
export type StreamStatus = 'connecting' | 'live' | 'down';

const handlers = new Set<Handler>();
const statusListeners = new Set<() => void>();
let status: StreamStatus = 'connecting';
let controller: AbortController | null = null;

class Fatal extends Error {}

/** Two and a half heartbeats (20 s each) without a byte: the stream is dead, whatever TCP says. */
export const SILENT_MS = 50_000;
let lastHeard = 0;
let watchdog: ReturnType<typeof setInterval> | null = null;

/** The browser's fetch, noting when each chunk of the stream (events and heartbeats alike) arrives. */
async function watchedFetch(input: RequestInfo | URL, init?: RequestInit): Promise<Response> {
  const response = await fetch(input, init);
  lastHeard = Date.now();
  if (!response.body) return response;
  const body = response.body.pipeThrough(
    new TransformStream<Uint8Array, Uint8Array>({
      transform(chunk, out) {
        lastHeard = Date.now();
        out.enqueue(chunk);
      },
    }),
  );
  return new Response(body, { status: response.status, statusText: response.statusText, headers: response.headers });
}

function watchSilence() {
  if (watchdog) return;
  watchdog = setInterval(() => {
    if (!controller || status !== 'live' || Date.now() - lastHeard < SILENT_MS) return;
    setStatus('down');
    controller.abort();
    connect();
  }, 5_000);
}

function setStatus(next: StreamStatus) {
  if (status === next) return;
  status = next;
  for (const listener of statusListeners) listener();
}

function dispatch(event: StreamEvent) {
  for (const handler of handlers) handler(event);
}

function connect() {
  controller = new AbortController();
  let attempt = 0;
  setStatus('connecting');
  void fetchEventSource(`${API_BASE}/admin/event/stream`, {
    signal: controller.signal,
    fetch: watchedFetch,
    openWhenHidden: true,
    headers: { Authorization: `Bearer ${getAuthToken() ?? ''}`, Accept: EventStreamContentType },
    async onopen(response) {
      const type = response.headers.get('content-type') ?? '';
      if (response.ok && type.startsWith(EventStreamContentType)) {
        attempt = 0;
        setStatus('live');
        return;
      }
      // Signed out or not allowed: retrying cannot help until the page changes.
      if (response.status === 401 || response.status === 403) throw new Fatal(`stream refused: ${response.status}`);
      throw new Error(`stream answered ${response.status}`);
    },
    onmessage(message) {
      // The server says whether its own feed from the database is up: first on connecting,
      // then whenever it drops or returns. Up again means events may have been missed.
      if (message.event === 'live') {
        try {
          if ((JSON.parse(message.data) as { live?: unknown }).live === true) {
            setStatus('live');
            dispatch({ type: 'open' });
          } else {
            // Connected, but the server hears nothing from its database: events are not coming.
            setStatus('down');
          }
        } catch {
          // Ignored, as below.
        }
        return;
      }
      // The server's event names are one list (catalog/event-day.ts); anything else is skipped.
      if (!isEventType(message.event)) return;
      try {
        dispatch({ type: message.event, data: JSON.parse(message.data) });
      } catch {
        // A malformed event is skipped; the next `open` re-reads everything anyway.
      }
    },
    onclose() {
      // The server ended the stream (a restart): reconnect.
      setStatus('down');
      throw new Error('stream closed');
    },
    onerror(error) {
      setStatus('down');
      if (error instanceof Fatal) throw error;
      attempt += 1;
      // Backoff with jitter, 1 s to 30 s.
      return Math.min(30_000, 1_000 * 2 ** Math.min(attempt, 5)) * (0.5 + Math.random() / 2);
    },
  }).catch(() => setStatus('down'));
}

// Back online while the stream is down: connect at once instead of waiting out the pause.
function reconnectNow() {
  if (status !== 'down' || !controller) return;
  controller.abort();
  connect();
}

function subscribe(handler: Handler): () => void {
  handlers.add(handler);
  if (!controller) {
    connect();
    watchSilence();
    window.addEventListener('online', reconnectNow);
  }
  return () => {
    handlers.delete(handler);
    if (handlers.size === 0) {
      window.removeEventListener('online', reconnectNow);
      if (watchdog) clearInterval(watchdog);
      watchdog = null;
      controller?.abort();
      controller = null;
      setStatus('connecting');
    }
  };
}

/**
 * Calls `handler` with every live event of the console's stream (and `open` on each
 * (re)connection). The handler may change between renders without reconnecting.
 */
export function useEventStream(handler: Handler): void {
  const latest = useRef(handler);
  latest.current = handler;
  useEffect(() => subscribe((event) => latest.current(event)), []);
}

/** Whether the stream is connected, for a "live" indicator. */
export function useEventStreamStatus(): StreamStatus {
  return useSyncExternalStore(
    (listener) => {
      statusListeners.add(listener);
      return () => statusListeners.delete(listener);
    },
    () => status,
    () => 'connecting',
  );
}
