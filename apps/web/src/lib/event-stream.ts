// The console's live feed (DESIGN.md §8): Server-Sent Events from
// GET /api/admin/event/stream. EventSource cannot send an Authorization header, so the
// stream is read with a fetch-based client carrying the bearer token. It reconnects with
// growing pauses (1 s doubling to 30 s, with jitter) after a drop, and at once when the
// browser comes back online; after every (re)connection `onOpen` runs, so a page refetches
// what it may have missed while the stream was down. This is push: no timer asks the server.
import { EventStreamContentType, fetchEventSource } from '@microsoft/fetch-event-source';
import { useEffect, useRef, useState } from 'react';
import { API_BASE, getAuthToken } from './api-client';

export type EventStreamName = 'scan' | 'incident' | 'course';

export interface EventStreamMessage {
  event: EventStreamName | string;
  data: unknown;
}

export type EventStreamStatus = 'connecting' | 'live' | 'down';

export interface EventStreamOptions {
  /** Runs after every successful (re)connection: refetch what the stream may have missed. */
  onOpen?: () => void;
  /** Off while the page cannot use it (no permission). */
  enabled?: boolean;
}

const STREAM_PATH = '/admin/event/stream';
const FIRST_RETRY_MS = 1_000;
const MAX_RETRY_MS = 30_000;

/** Refused for good: the session or the role does not allow the stream. */
class StreamRefused extends Error {}

function parseData(raw: string): unknown {
  try {
    return JSON.parse(raw);
  } catch {
    return raw;
  }
}

/** Subscribes while mounted; the latest `handler` and `onOpen` are used without reconnecting. */
export function useEventStream(
  handler: (message: EventStreamMessage) => void,
  options: EventStreamOptions = {},
): EventStreamStatus {
  const { enabled = true } = options;
  const handlerRef = useRef(handler);
  const openRef = useRef(options.onOpen);
  handlerRef.current = handler;
  openRef.current = options.onOpen;
  const [status, setStatus] = useState<EventStreamStatus>('connecting');
  // Bumped when the browser comes back online while the stream is down: a fresh
  // connection at once instead of waiting out the current pause.
  const [epoch, setEpoch] = useState(0);
  const statusRef = useRef(status);
  statusRef.current = status;

  useEffect(() => {
    const onOnline = () => {
      if (statusRef.current === 'down') setEpoch((e) => e + 1);
    };
    window.addEventListener('online', onOnline);
    return () => window.removeEventListener('online', onOnline);
  }, []);

  // biome-ignore lint/correctness/useExhaustiveDependencies: epoch is the trigger of a reconnection
  useEffect(() => {
    if (!enabled) return;
    const controller = new AbortController();
    let retryMs = FIRST_RETRY_MS;

    void fetchEventSource(`${API_BASE}${STREAM_PATH}`, {
      signal: controller.signal,
      // The stream stays open while the tab is hidden: a board left in the background
      // must not come back stale.
      openWhenHidden: true,
      headers: { Authorization: `Bearer ${getAuthToken() ?? ''}` },
      async onopen(response) {
        const type = response.headers.get('content-type') ?? '';
        if (response.ok && type.includes(EventStreamContentType)) {
          retryMs = FIRST_RETRY_MS;
          setStatus('live');
          openRef.current?.();
          return;
        }
        if (response.status === 401 || response.status === 403) throw new StreamRefused(String(response.status));
        throw new Error(`event stream answered ${response.status}`);
      },
      onmessage(message) {
        // Comments and heartbeats arrive without an event name or data.
        if (!message.event && !message.data) return;
        handlerRef.current({ event: message.event || 'message', data: parseData(message.data) });
      },
      onclose() {
        // The server ended the stream (a restart): reconnect like after a drop.
        throw new Error('event stream closed');
      },
      onerror(error) {
        if (error instanceof StreamRefused) {
          setStatus('down');
          throw error;
        }
        setStatus('down');
        const wait = retryMs + Math.floor(Math.random() * 500);
        retryMs = Math.min(MAX_RETRY_MS, retryMs * 2);
        return wait;
      },
    }).catch(() => {
      // Refused (401/403) or unmounted: nothing more to do.
    });

    return () => controller.abort();
  }, [enabled, epoch]);

  return status;
}
