// A local stand-in for the organiser's Android phone running SMS Gateway for Android
// (github.com/capcom6/android-sms-gateway), on node:http at 127.0.0.1. Its local API as the
// app serves it (localserver/WebService.kt, routes/MessagesRoutes.kt): `POST /message` (and
// `/messages`) behind basic auth; `{ id?, textMessage: { text } | message, phoneNumbers }`;
// 202 `{ id, state: "Pending", recipients, ... }`; 400 `{ message }` for a bad request; 401
// with a Basic challenge for a wrong login; an id it already holds is answered 202 again and
// not sent twice. It records what it was asked to text, can be told to fail or be off, and
// plays the phone's other half: the signed `sms:received` webhook of a text it received.
import { createHmac, randomUUID } from 'node:crypto';
import { createServer, type Server } from 'node:http';
import type { Socket } from 'node:net';

export interface SentText {
  id: string;
  text: string;
  phoneNumbers: string[];
  authorization: string | undefined;
  at: number;
}

export interface SmsGatewaySim {
  /** http://user:pass@127.0.0.1:port, for SMS_GATEWAY_URL. */
  readonly url: string;
  /** Each message it took, once (a resend of a known id is counted in `repeats`). */
  readonly sent: SentText[];
  /** Sends of an id it already held. */
  readonly repeats: string[];
  /** From now on every send is answered with this status (500, 503, ...); 202 is the phone at work. */
  answer(status: number): void;
  /** The phone off the network: the port refuses connections until `up()`. */
  down(): Promise<void>;
  up(): Promise<void>;
  /** Waits (bounded) until a text to `phoneNumber` (and, given `match`, saying that) arrived, and returns it. */
  waitForText(phoneNumber: string, match?: (text: SentText) => boolean, timeoutMs?: number): Promise<SentText>;
  close(): Promise<void>;
}

/** A text the phone received, as its webhook describes it. */
export interface ReceivedText {
  message: string;
  phoneNumber: string;
  /** ISO date-time with the phone's offset; now when left out. */
  receivedAt?: string;
  /** The webhook's event id (the app makes one per delivery attempt series). */
  id?: string;
}

/** The `sms:received` webhook's body (or `raw`, any bytes) and headers, signed as the app signs them. */
export function signedInboundText(
  key: string,
  text: ReceivedText,
  opts: { timestamp?: number; event?: string; raw?: string } = {},
): { id: string; body: string; headers: Record<string, string> } {
  const id = text.id ?? randomUUID();
  const body =
    opts.raw ??
    JSON.stringify({
      event: opts.event ?? 'sms:received',
      id,
      deviceId: 'sim-device-1',
      payload: {
        messageId: randomUUID().slice(0, 8),
        message: text.message,
        phoneNumber: text.phoneNumber,
        simNumber: 1,
        receivedAt: text.receivedAt ?? new Date().toISOString(),
      },
      webhookId: 'sim-hook-1',
    });
  const timestamp = String(opts.timestamp ?? Math.floor(Date.now() / 1000));
  // X-Signature: hex HMAC-SHA256 of the raw body followed by the X-Timestamp value.
  const signature = createHmac('sha256', key)
    .update(body + timestamp)
    .digest('hex');
  return {
    id,
    body,
    headers: { 'content-type': 'application/json', 'x-timestamp': timestamp, 'x-signature': signature },
  };
}

const json = (status: number, body: unknown, extra: Record<string, string> = {}) => ({
  status,
  headers: { 'content-type': 'application/json', ...extra },
  body: JSON.stringify(body),
});

export async function startSmsGatewaySim(user = 'sms', password = 'gateway-pass'): Promise<SmsGatewaySim> {
  const sent: SentText[] = [];
  const repeats: string[] = [];
  const waiters = new Set<() => void>();
  let status = 202;
  const expected = `Basic ${Buffer.from(`${user}:${password}`).toString('base64')}`;
  const sockets = new Set<Socket>();

  const handle = (method: string | undefined, path: string, authorization: string | undefined, raw: string) => {
    if (method !== 'POST' || (path !== '/message' && path !== '/messages')) return json(404, { message: 'Not Found' });
    if (authorization !== expected)
      return json(401, { message: 'Unauthorized' }, { 'www-authenticate': 'Basic realm="Access to SMS Gateway"' });
    if (status !== 202) return json(status, { message: 'Failed to enqueue message: simulated failure' });
    let request: { id?: unknown; message?: unknown; textMessage?: { text?: unknown }; phoneNumbers?: unknown };
    try {
      request = JSON.parse(raw);
    } catch {
      return json(400, { message: 'Failed to convert request body' });
    }
    const text = typeof request.message === 'string' ? request.message : request.textMessage?.text;
    if (typeof text !== 'string' || text === '') return json(400, { message: 'Text message is empty' });
    const phoneNumbers = Array.isArray(request.phoneNumbers) ? request.phoneNumbers.map(String) : [];
    if (phoneNumbers.length === 0) return json(400, { message: 'phoneNumbers is empty' });
    const id = typeof request.id === 'string' && request.id !== '' ? request.id : randomUUID();
    if (sent.some((s) => s.id === id)) repeats.push(id);
    else sent.push({ id, text, phoneNumbers, authorization, at: performance.now() });
    for (const wake of waiters) wake();
    return json(202, {
      id,
      deviceId: 'sim-device-1',
      state: 'Pending',
      isHashed: false,
      isEncrypted: false,
      recipients: phoneNumbers.map((phoneNumber) => ({ phoneNumber, state: 'Pending', error: null })),
      states: { Pending: new Date().toISOString() },
    });
  };

  const server: Server = createServer((req, res) => {
    const chunks: Buffer[] = [];
    req.on('data', (c: Buffer) => chunks.push(c));
    req.on('end', () => {
      const path = new URL(req.url ?? '/', 'http://sim').pathname;
      const answer = handle(req.method, path, req.headers.authorization, Buffer.concat(chunks).toString());
      res.writeHead(answer.status, answer.headers).end(answer.body);
    });
  });
  server.on('connection', (socket) => {
    sockets.add(socket);
    socket.on('close', () => sockets.delete(socket));
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const port = (server.address() as { port: number }).port;

  const stop = () =>
    new Promise<void>((resolve) => {
      if (!server.listening) return resolve();
      server.close(() => resolve());
      for (const s of sockets) s.destroy();
    });

  return {
    url: `http://${user}:${password}@127.0.0.1:${port}`,
    sent,
    repeats,
    answer: (s) => {
      status = s;
    },
    down: stop,
    up: () =>
      new Promise<void>((resolve, reject) => {
        if (server.listening) return resolve();
        server.once('error', reject);
        server.listen(port, '127.0.0.1', () => resolve());
      }),
    waitForText: (phoneNumber, match = () => true, timeoutMs = 10_000) =>
      new Promise<SentText>((resolve, reject) => {
        const check = () => {
          const found = sent.find((s) => s.phoneNumbers.includes(phoneNumber) && match(s));
          if (!found) return;
          clearTimeout(timer);
          waiters.delete(check);
          resolve(found);
        };
        const timer = setTimeout(() => {
          waiters.delete(check);
          reject(new Error(`no text to ${phoneNumber} within ${timeoutMs} ms`));
        }, timeoutMs);
        waiters.add(check);
        check();
      }),
    close: stop,
  };
}
