// The LISTEN connection notices a database that went silent (a dead network path, a frozen
// host), which no error or end announces: a TCP proxy between it and PostgreSQL stops
// forwarding, and the listener says it is down, then comes back once the path does.
import net from 'node:net';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { listenChannel } from './listen';

describe.skipIf(!process.env.TEST_DATABASE_URL)('listenChannel on a silent connection (PostgreSQL)', () => {
  let proxy: net.Server;
  let port: number;
  let silent = false;
  const sockets = new Set<net.Socket>();

  beforeAll(async () => {
    const target = new URL(process.env.TEST_DATABASE_URL as string);
    proxy = net.createServer((client) => {
      const upstream = net.connect(Number(target.port || 5432), target.hostname);
      sockets.add(client).add(upstream);
      // While "silent", bytes are swallowed both ways: neither side hears a thing, nor an end.
      client.on('data', (chunk) => {
        if (!silent) upstream.write(chunk);
      });
      upstream.on('data', (chunk) => {
        if (!silent) client.write(chunk);
      });
      const close = () => {
        client.destroy();
        upstream.destroy();
      };
      client.on('error', close).on('close', close);
      upstream.on('error', close).on('close', close);
    });
    await new Promise<void>((resolve) => proxy.listen(0, '127.0.0.1', resolve));
    port = (proxy.address() as net.AddressInfo).port;
  });
  afterAll(async () => {
    for (const s of sockets) s.destroy();
    await new Promise((resolve) => proxy.close(resolve));
  });

  it('gives up on a connection that stops answering, says so, and listens again when it can', async () => {
    const url = new URL(process.env.TEST_DATABASE_URL as string);
    url.host = `127.0.0.1:${port}`;
    const changes: boolean[] = [];
    let notify: (live: boolean) => void = () => {};
    const next = (live: boolean) =>
      new Promise<void>((resolve, reject) => {
        const timer = setTimeout(() => reject(new Error(`never ${live ? 'live' : 'down'}`)), 10_000);
        notify = (l) => {
          if (l === live) {
            clearTimeout(timer);
            resolve();
          }
        };
      });
    let becameLive = next(true);
    const stop = listenChannel(
      url.toString(),
      'rally_silence_test',
      {
        onNotify: () => {},
        onLive: (live) => {
          changes.push(live);
          notify(live);
        },
      },
      { pingMs: 200, pingTimeoutMs: 400, retryMs: 100, maxRetryMs: 400, client: { connectionTimeoutMillis: 1_000 } },
    );
    try {
      await becameLive;
      const wentDown = next(false);
      silent = true;
      await wentDown;
      becameLive = next(true);
      silent = false;
      await becameLive;
      expect(changes).toEqual([true, false, true]);
    } finally {
      await stop();
    }
  }, 30_000);
});
