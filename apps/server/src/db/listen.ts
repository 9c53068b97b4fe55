// A dedicated PostgreSQL connection that LISTENs on one channel and comes back after a
// dropped connection. Whoever listens is told when announcements may have been missed
// (`onLive(false)`, and `onLive(true)` once listening again), since NOTIFY is not replayed.
import pg from 'pg';

export interface ListenHandlers {
  /** A notification on the channel, with its payload ('' when it carried none). */
  onNotify(payload: string): void;
  onLive(live: boolean): void;
}

export function listenChannel(
  connectionString: string,
  channel: string,
  handlers: ListenHandlers,
  retryMs = 1000,
): () => Promise<void> {
  if (!/^[a-z_][a-z0-9_]*$/.test(channel)) throw new Error(`Invalid channel name ${channel}`);
  let client: pg.Client | null = null;
  let stopped = false;
  let timer: NodeJS.Timeout | null = null;

  const retry = () => {
    if (stopped || timer) return;
    timer = setTimeout(() => {
      timer = null;
      void connect();
    }, retryMs);
    timer.unref();
  };

  const lost = (c: pg.Client) => {
    if (client !== c) return;
    client = null;
    handlers.onLive(false);
    c.end().catch(() => {});
    retry();
  };

  async function connect() {
    if (stopped) return;
    const c = new pg.Client({ connectionString, keepAlive: true });
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
      c.end().catch(() => {});
      retry();
      return;
    }
    if (stopped) {
      await c.end().catch(() => {});
      return;
    }
    client = c;
    handlers.onLive(true);
  }

  void connect();
  return async () => {
    stopped = true;
    if (timer) clearTimeout(timer);
    const c = client;
    client = null;
    if (c) {
      c.removeAllListeners('end');
      await c.end().catch(() => {});
    }
  };
}
