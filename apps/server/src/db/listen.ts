// A dedicated PostgreSQL connection that LISTENs on one channel and comes back after a
// dropped connection. Whoever listens is told when announcements may have been missed
// (`onLive(false)`, and `onLive(true)` once listening again), since NOTIFY is not replayed.
//
// A connection can be lost three ways, and each is noticed: the server says so (a restart or
// failover sends "terminating connection", an `error` then an `end`), the socket closes, or
// the other side goes silent (a dead network path, a frozen host), which nothing announces.
// For the last, the connection is asked a trivial query every `pingMs`; one that does not
// answer within `pingTimeoutMs` is given up on (TCP keepalive would notice too, but only
// after minutes of the kernel's probes). Reconnection backs off from `retryMs` to
// `maxRetryMs`, with jitter so that many instances do not reconnect in step.
import pg from 'pg';

export interface ListenHandlers {
  /** A notification on the channel, with its payload ('' when it carried none). */
  onNotify(payload: string): void;
  onLive(live: boolean): void;
}

export interface ListenOptions {
  /** The first pause before reconnecting; it doubles up to maxRetryMs. */
  retryMs?: number;
  maxRetryMs?: number;
  pingMs?: number;
  pingTimeoutMs?: number;
  /** Settings of the connection itself (timeouts, keepalive): those of the pool. */
  client?: pg.ClientConfig;
}

export const LISTEN_DEFAULTS = {
  retryMs: 250,
  // The database back, a listener is live again within this (plus a connect): well inside
  // the 10 s a board may take to say so.
  maxRetryMs: 4_000,
  pingMs: 10_000,
  pingTimeoutMs: 5_000,
} as const;

export function listenChannel(
  connectionString: string,
  channel: string,
  handlers: ListenHandlers,
  options: ListenOptions = {},
): () => Promise<void> {
  if (!/^[a-z_][a-z0-9_]*$/.test(channel)) throw new Error(`Invalid channel name ${channel}`);
  const { retryMs, maxRetryMs, pingMs, pingTimeoutMs } = { ...LISTEN_DEFAULTS, ...options };
  let client: pg.Client | null = null;
  let stopped = false;
  let timer: NodeJS.Timeout | null = null;
  let ping: NodeJS.Timeout | null = null;
  let failures = 0;
  // Said once per drop: a listener that never connected is not live, and one already told
  // it is down is not told again at each failed reconnect.
  let live = false;

  const say = (next: boolean) => {
    if (live === next) return;
    live = next;
    handlers.onLive(next);
  };

  const retry = () => {
    if (stopped || timer) return;
    const pause = Math.min(maxRetryMs, retryMs * 2 ** failures) * (0.75 + Math.random() / 2);
    failures += 1;
    timer = setTimeout(() => {
      timer = null;
      void connect();
    }, pause);
    timer.unref();
  };

  const lost = (c: pg.Client) => {
    if (client !== c) return;
    client = null;
    if (ping) clearInterval(ping);
    ping = null;
    say(false);
    // A socket that went silent would wait for the server's goodbye: cut it.
    (c as unknown as { connection?: { stream?: { destroy(): void } } }).connection?.stream?.destroy();
    c.end().catch(() => {});
    retry();
  };

  const checkAlive = (c: pg.Client) => {
    let answered = false;
    // Judged after the socket has been read: timers run before I/O in Node's loop, so when this
    // process itself was held (a long synchronous task, a starved CPU) for longer than the
    // deadline, it fires before an answer that came in meanwhile has been seen. Dropping the
    // connection then cost a live:false and a re-LISTEN, and whatever was published meanwhile
    // went unheard, for a silence that was ours, not the server's. setImmediate runs after the
    // poll phase that reads that answer.
    const deadline = setTimeout(() => {
      setImmediate(() => {
        if (!answered) lost(c);
      });
    }, pingTimeoutMs);
    deadline.unref();
    c.query('select 1').then(
      () => {
        answered = true;
        clearTimeout(deadline);
      },
      () => {
        answered = true;
        clearTimeout(deadline);
        lost(c);
      },
    );
  };

  async function connect() {
    if (stopped) return;
    const c = new pg.Client({ keepAlive: true, ...options.client, connectionString });
    c.on('error', () => lost(c));
    c.on('end', () => lost(c));
    c.on('notification', (msg) => {
      if (msg.channel === channel) handlers.onNotify(msg.payload ?? '');
    });
    try {
      await c.connect();
      await c.query(`LISTEN ${channel}`);
    } catch {
      c.removeAllListeners('end');
      c.removeAllListeners('error');
      // An error after this one must not crash the process.
      c.on('error', () => {});
      c.end().catch(() => {});
      say(false);
      retry();
      return;
    }
    if (stopped) {
      await c.end().catch(() => {});
      return;
    }
    client = c;
    failures = 0;
    ping = setInterval(() => checkAlive(c), pingMs);
    ping.unref();
    say(true);
  }

  void connect();
  return async () => {
    stopped = true;
    if (timer) clearTimeout(timer);
    if (ping) clearInterval(ping);
    const c = client;
    client = null;
    if (c) {
      c.removeAllListeners('end');
      c.removeAllListeners('error');
      c.on('error', () => {});
      await c.end().catch(() => {});
    }
  };
}
