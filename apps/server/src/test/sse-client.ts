// A Server-Sent Events client over fetch, as the board's browser client reads the stream:
// the Authorization header (which EventSource cannot send), events parsed as they arrive.
// Used by the tests and the board fan-out benchmark.

export interface SseEvent {
  event: string;
  data: string;
  /** performance.now() when the event was parsed. */
  receivedAt: number;
}

export interface SseConnection {
  status: number;
  contentType: string | null;
  events: SseEvent[];
  /** performance.now() of every comment line (the connect line and each heartbeat). */
  comments: number[];
  /** Resolves with the first event (already received or to come) that matches; rejects after `timeoutMs`. */
  waitFor(match: (e: SseEvent) => boolean, timeoutMs?: number): Promise<SseEvent>;
  onEvent(fn: (e: SseEvent) => void): void;
  /** Resolves when the server ends the stream. */
  ended: Promise<void>;
  close(): void;
}

export async function openSse(url: string, token: string): Promise<SseConnection> {
  const controller = new AbortController();
  const res = await fetch(url, {
    headers: { authorization: `Bearer ${token}`, accept: 'text/event-stream' },
    signal: controller.signal,
  });
  const events: SseEvent[] = [];
  const comments: number[] = [];
  const waiters = new Set<{ match: (e: SseEvent) => boolean; resolve: (e: SseEvent) => void }>();
  const listeners: Array<(e: SseEvent) => void> = [];
  const dispatch = (e: SseEvent) => {
    events.push(e);
    for (const fn of listeners) fn(e);
    for (const w of [...waiters]) {
      if (w.match(e)) {
        waiters.delete(w);
        w.resolve(e);
      }
    }
  };

  const ended = (async () => {
    if (!res.body) return;
    const decoder = new TextDecoder();
    let buffer = '';
    try {
      for await (const chunk of res.body as unknown as AsyncIterable<Uint8Array>) {
        buffer += decoder.decode(chunk, { stream: true });
        let cut = buffer.indexOf('\n\n');
        while (cut >= 0) {
          const block = buffer.slice(0, cut);
          buffer = buffer.slice(cut + 2);
          let event = 'message';
          const data: string[] = [];
          for (const line of block.split('\n')) {
            if (line.startsWith(':')) {
              comments.push(performance.now());
              continue;
            }
            if (line.startsWith('event:')) event = line.slice(6).trim();
            else if (line.startsWith('data:')) data.push(line.slice(5).replace(/^ /, ''));
          }
          if (data.length > 0) dispatch({ event, data: data.join('\n'), receivedAt: performance.now() });
          cut = buffer.indexOf('\n\n');
        }
      }
    } catch {
      // Aborted by close(), or the server went away.
    }
  })();

  return {
    status: res.status,
    contentType: res.headers.get('content-type'),
    events,
    comments,
    ended,
    onEvent: (fn) => listeners.push(fn),
    waitFor(match, timeoutMs = 10_000) {
      const seen = events.find(match);
      if (seen) return Promise.resolve(seen);
      return new Promise((resolve, reject) => {
        const waiter = {
          match,
          resolve: (e: SseEvent) => {
            clearTimeout(timer);
            resolve(e);
          },
        };
        const timer = setTimeout(() => {
          waiters.delete(waiter);
          reject(new Error(`no matching event within ${timeoutMs} ms (got ${events.map((e) => e.event).join(', ')})`));
        }, timeoutMs);
        waiters.add(waiter);
      });
    },
    close: () => controller.abort(),
  };
}

/** Waits for the stream's feed to be live (the server is LISTENing), so nothing published after is missed. */
export async function waitLive(conn: SseConnection, timeoutMs = 10_000): Promise<void> {
  await conn.waitFor((e) => e.event === 'live' && JSON.parse(e.data).live === true, timeoutMs);
}
