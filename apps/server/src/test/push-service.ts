// A real push service for tests (RFC 8030) on 127.0.0.1: it hands out subscriptions as a
// browser's push manager would (a P-256 key pair and a 16-byte auth secret each), takes the
// server's POSTs, checks their VAPID signature (RFC 8292) and decrypts the payload (RFC 8291,
// aes128gcm of RFC 8188) with the subscription's private key, exactly as the browser would.
// Written on node:crypto alone, so a test proves the sender right independently of the
// library that sent it. Told to, it answers an endpoint 410 (unsubscribed) or 500.
import {
  createDecipheriv,
  createECDH,
  createPublicKey,
  type ECDH,
  hkdfSync,
  randomBytes,
  randomUUID,
  verify,
} from 'node:crypto';
import { createServer, type IncomingMessage, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';

export interface TestSubscription {
  endpoint: string;
  expirationTime: null;
  keys: { p256dh: string; auth: string };
}

export interface DeliveredPush {
  /** The subscription's id (the endpoint's last part). */
  subscriptionId: string;
  /** The decrypted payload, as the service worker's `event.data.text()` would read it. */
  text: string;
  ttl: string | undefined;
  urgency: string | undefined;
  topic: string | undefined;
  /** The VAPID JWT's verified claims and the key it was signed with. */
  vapid: { aud: string; sub: string; exp: number; publicKey: string };
}

export interface PushService {
  readonly origin: string;
  /** `host:port`, for PUSH_ENDPOINT_HOSTS. */
  readonly host: string;
  /** A fresh subscription, as `PushSubscription.toJSON()` gives it. */
  subscribe(): TestSubscription;
  /** From now on, POSTs to this endpoint are answered with `status` (410, 500, ...). */
  answer(endpoint: string, status: number): void;
  /** Every message that arrived, decrypted and verified. */
  readonly delivered: DeliveredPush[];
  /** POSTs refused (bad signature, undecryptable body), with the reason: a correct sender has none. */
  readonly refused: string[];
  close(): Promise<void>;
}

const b64url = (bytes: Buffer) => bytes.toString('base64url');

/** RFC 8291 §3.4 and RFC 8188 §2: the browser's side of aes128gcm. */
export function decryptAes128gcm(body: Buffer, receiver: ECDH, authSecret: Buffer): string {
  if (body.length < 21) throw new Error('body shorter than the aes128gcm header');
  const salt = body.subarray(0, 16);
  const recordSize = body.readUInt32BE(16);
  const idLength = body.readUInt8(20);
  const senderPublic = body.subarray(21, 21 + idLength);
  if (idLength !== 65 || senderPublic[0] !== 0x04) throw new Error('keyid is not the sender’s P-256 public key');
  if (recordSize < 18) throw new Error('record size too small');
  const receiverPublic = receiver.getPublicKey();
  const ecdhSecret = receiver.computeSecret(senderPublic);
  // IKM = HKDF(auth_secret, ecdh_secret, "WebPush: info" || 0x00 || ua_public || as_public, 32)
  const keyInfo = Buffer.concat([Buffer.from('WebPush: info\0'), receiverPublic, senderPublic]);
  const ikm = Buffer.from(hkdfSync('sha256', ecdhSecret, authSecret, keyInfo, 32));
  const cek = Buffer.from(hkdfSync('sha256', ikm, salt, Buffer.from('Content-Encoding: aes128gcm\0'), 16));
  const baseNonce = Buffer.from(hkdfSync('sha256', ikm, salt, Buffer.from('Content-Encoding: nonce\0'), 12));

  const records = body.subarray(21 + idLength);
  const plain: Buffer[] = [];
  for (let offset = 0, seq = 0; offset < records.length; offset += recordSize, seq++) {
    const record = records.subarray(offset, offset + recordSize);
    const last = offset + recordSize >= records.length;
    const nonce = Buffer.from(baseNonce);
    // The record's sequence number XORed into the nonce's low bits (RFC 8188 §2.3); a
    // 32-bit sequence suffices here (JS bit operators stop at 32 bits).
    nonce.writeUInt32BE((nonce.readUInt32BE(8) ^ seq) >>> 0, 8);
    const decipher = createDecipheriv('aes-128-gcm', cek, nonce);
    decipher.setAuthTag(record.subarray(record.length - 16));
    const padded = Buffer.concat([decipher.update(record.subarray(0, record.length - 16)), decipher.final()]);
    // Data, then a delimiter (2 in the last record, 1 before), then zero padding.
    let end = padded.length - 1;
    while (end >= 0 && padded[end] === 0) end--;
    if (padded[end] !== (last ? 2 : 1)) throw new Error('bad record delimiter');
    plain.push(padded.subarray(0, end));
  }
  return Buffer.concat(plain).toString('utf8');
}

/** RFC 8292: `vapid t=<JWT>, k=<key>`; the ES256 signature checked with k, aud the endpoint's origin. */
export function verifyVapid(header: string | undefined, origin: string): DeliveredPush['vapid'] {
  const match = /^vapid t=([A-Za-z0-9_-]+\.[A-Za-z0-9_-]+\.[A-Za-z0-9_-]+), k=([A-Za-z0-9_-]+)$/.exec(header ?? '');
  if (!match) throw new Error(`Authorization is not a VAPID header: ${header}`);
  const [, jwt = '', k = ''] = match;
  const [head = '', claims = '', signature = ''] = jwt.split('.');
  const key = Buffer.from(k, 'base64url');
  if (key.length !== 65 || key[0] !== 0x04) throw new Error('k is not an uncompressed P-256 key');
  const publicKey = createPublicKey({
    key: { kty: 'EC', crv: 'P-256', x: b64url(key.subarray(1, 33)), y: b64url(key.subarray(33)) },
    format: 'jwk',
  });
  const signed = verify(
    'sha256',
    Buffer.from(`${head}.${claims}`),
    { key: publicKey, dsaEncoding: 'ieee-p1363' },
    Buffer.from(signature, 'base64url'),
  );
  if (!signed) throw new Error('the VAPID JWT signature does not verify with k');
  const alg = JSON.parse(Buffer.from(head, 'base64url').toString()).alg;
  if (alg !== 'ES256') throw new Error(`the VAPID JWT is ${alg}, not ES256`);
  const payload = JSON.parse(Buffer.from(claims, 'base64url').toString()) as { aud: string; sub: string; exp: number };
  if (payload.aud !== origin) throw new Error(`aud ${payload.aud} is not ${origin}`);
  const now = Date.now() / 1000;
  if (!(payload.exp > now && payload.exp <= now + 24 * 3600 + 60)) throw new Error(`exp ${payload.exp} out of range`);
  if (!/^(mailto:|https:)/.test(payload.sub ?? '')) throw new Error(`sub ${payload.sub} is no contact`);
  return { aud: payload.aud, sub: payload.sub, exp: payload.exp, publicKey: k };
}

async function readBody(req: IncomingMessage): Promise<Buffer> {
  const chunks: Buffer[] = [];
  for await (const chunk of req) chunks.push(chunk as Buffer);
  return Buffer.concat(chunks);
}

export async function startPushService(): Promise<PushService> {
  const subscriptions = new Map<string, { receiver: ECDH; auth: Buffer }>();
  const answers = new Map<string, number>();
  const delivered: DeliveredPush[] = [];
  const refused: string[] = [];
  let messages = 0;

  const server: Server = createServer(async (req, res) => {
    const id = /^\/push\/([0-9a-f-]{36})$/.exec(req.url ?? '')?.[1];
    const subscription = id ? subscriptions.get(id) : undefined;
    const body = await readBody(req);
    if (req.method !== 'POST' || !id || !subscription) {
      res.writeHead(404).end();
      return;
    }
    const forced = answers.get(id);
    if (forced) {
      res.writeHead(forced, { 'content-type': 'text/plain' }).end(forced === 410 ? 'subscription expired' : 'busy');
      return;
    }
    try {
      if (req.headers['content-encoding'] !== 'aes128gcm') throw new Error('Content-Encoding is not aes128gcm');
      if (!req.headers.ttl) throw new Error('TTL header missing (RFC 8030 §5.2)');
      const vapid = verifyVapid(req.headers.authorization, origin);
      const text = decryptAes128gcm(body, subscription.receiver, subscription.auth);
      const header = (name: string) => req.headers[name] as string | undefined;
      delivered.push({
        subscriptionId: id,
        text,
        ttl: header('ttl'),
        urgency: header('urgency'),
        topic: header('topic'),
        vapid,
      });
      messages += 1;
      res.writeHead(201, { location: `${origin}/message/${messages}` }).end();
    } catch (err) {
      refused.push((err as Error).message);
      res.writeHead(400, { 'content-type': 'text/plain' }).end((err as Error).message);
    }
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const { port } = server.address() as AddressInfo;
  const origin = `http://127.0.0.1:${port}`;

  return {
    origin,
    host: `127.0.0.1:${port}`,
    delivered,
    refused,
    subscribe() {
      const id = randomUUID();
      const receiver = createECDH('prime256v1');
      receiver.generateKeys();
      const auth = randomBytes(16);
      subscriptions.set(id, { receiver, auth });
      return {
        endpoint: `${origin}/push/${id}`,
        expirationTime: null,
        keys: { p256dh: b64url(receiver.getPublicKey()), auth: b64url(auth) },
      };
    },
    answer(endpoint, status) {
      const id = endpoint.slice(endpoint.lastIndexOf('/') + 1);
      answers.set(id, status);
    },
    close: () =>
      new Promise<void>((resolve) => {
        server.closeAllConnections();
        server.close(() => resolve());
      }),
  };
}
