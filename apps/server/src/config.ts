import { isIP } from 'node:net';
import path from 'node:path';
import { DEFAULT_SOS_ESCALATE_AFTER_S } from '@rally/shared/catalog/messages';
import { TRACKING_DEFAULTS } from '@rally/shared/catalog/tracking';

export interface PaymentInstructions {
  gcash: { accountName: string; accountNumber: string };
  bank_transfer: { accountName: string; accountNumber: string; bankName: string };
}

export interface RateLimits {
  enabled: boolean;
  /** Failed logins allowed per account, and per address, in `loginWindowMs`. */
  loginPerAccount: number;
  loginPerAddress: number;
  loginWindowMs: number;
  /**
   * Registrations per address per hour taken without a proof-of-work challenge; past it each
   * one needs a solved challenge (lib/proof-of-work.ts), never a refusal: a club registering
   * from one Wi-Fi, or riders behind one carrier-grade NAT, all get through.
   */
  registrationsPerAddressPerHour: number;
  /** Uploads per hour: per account (every upload route needs a session). */
  uploadsPerAddressPerHour: number;
  resetsPerAddressPerHour: number;
  /**
   * A general ceiling per minute across the API: per account for calls with a valid
   * session, per address for the others. Files and pages of the web client are not counted.
   */
  globalPerMinute: number;
  /** Page navigations (the pages the server draws and the app shell) per address per minute. */
  pagesPerMinute: number;
}

/** The proof-of-work challenge asked of registrations past the per-address threshold. */
export interface ChallengeConfig {
  /** HMAC key signing the challenges; unset: generated once into DATA_DIR (lib/proof-of-work.ts). */
  hmacKey: string | undefined;
  /**
   * The work: the solver derives up to this many PBKDF2 keys (1,000 iterations each), half
   * of them on average; 400 is ~0.2 s on a laptop, ~0.5-1 s on a mid-range phone.
   */
  work: number;
}

/** Where uploaded files' bytes live (lib/file-store.ts). */
export type FileStoreConfig =
  | { kind: 'database' }
  | {
      kind: 's3';
      bucket: string;
      /** Unset for AWS S3; MinIO, R2 and other S3-compatible stores give their URL. */
      endpoint: string | undefined;
      region: string;
      /** Unset: the AWS SDK's own chain (environment, instance role). */
      credentials: { accessKeyId: string; secretAccessKey: string } | undefined;
      /** bucket in the path (MinIO, most self-hosted stores) rather than in the host name. */
      forcePathStyle: boolean;
      /** Prepended to every object key, so one bucket can serve several installations. */
      prefix: string;
    };

/** Messages (DESIGN.md §10): each channel is off until its settings are given. */
export interface MessagesConfig {
  /** Whether this instance sends from the outbox (MESSAGE_WORKER=off: it only writes rows). */
  worker: boolean;
  /** SMTP_URL: smtp://user:pass@host:port, smtps:// for TLS. */
  smtpUrl: string | undefined;
  /** MAIL_FROM: the From: of every email. */
  mailFrom: string | undefined;
  /** VAPID keys; unset: generated once into DATA_DIR. */
  vapidPublicKey: string | undefined;
  vapidPrivateKey: string | undefined;
  /** The contact the push services are given (VAPID_SUBJECT, mailto: or https:). */
  vapidSubject: string;
  /** PUSH_ENDPOINT_HOSTS: host:port entries posted to besides the known push services (plain http allowed). */
  pushEndpointHosts: string[];
  /** SMS_GATEWAY_URL: the Android phone's local API, http://user:pass@host:port. */
  smsGatewayUrl: string | undefined;
  /** SMS_WEBHOOK_KEY: signs the phone's inbound webhooks. */
  smsWebhookKey: string | undefined;
  /** SOS_ESCALATE_AFTER_S: seconds before an unacknowledged incident is texted, and the repeat period. */
  escalateAfterS: number;
}

/** Tracking riders between stations (DESIGN.md §11): the alerts' thresholds (how long positions are kept is each edition's, DESIGN.md §12). */
export interface TrackingConfig {
  /** TRACKING_STOPPED_MIN: minutes without moving beyond the stopped radius, away from a station, before the alert. */
  stoppedMinutes: number;
  /** TRACKING_OFF_ROUTE_M: metres from the route line that count as off route. */
  offRouteM: number;
}

function spoolDir(env: NodeJS.ProcessEnv): string | null {
  const set = env.UPLOAD_SPOOL_DIR?.trim();
  if (set === 'off') return null;
  const cwd = env.INIT_CWD || process.cwd();
  if (set) return path.resolve(cwd, set);
  return env.DATABASE_URL ? null : path.join(path.resolve(cwd, env.DATA_DIR || './data'), 'spool');
}

export interface Config {
  port: number;
  host: string;
  dataDir: string;
  databaseUrl: string | undefined;
  /**
   * PostgreSQL's bounds (DB_CONNECT_TIMEOUT_MS, DB_STATEMENT_TIMEOUT_MS; the defaults of
   * DEFAULT_POSTGRES_TIMEOUTS in db/client.ts when unset).
   */
  databaseTimeouts: { connectMs?: number; statementMs?: number };
  publicUrl: string;
  logLevel: string;
  webDist: string | undefined;
  payment: PaymentInstructions;
  rateLimits: RateLimits;
  challenge: ChallengeConfig;
  argon2: { memoryCost: number; timeCost: number; parallelism: number };
  /**
   * Which X-Forwarded-For hops to believe (Fastify's trustProxy): false, a number of
   * proxies in front of the server, or the proxies' addresses/CIDRs.
   */
  trustProxy: false | number | string[];
  fileStore: FileStoreConfig;
  /**
   * Where originals wait for the file queue (UPLOAD_SPOOL_DIR; lib/file-store.ts): by
   * default DATA_DIR/spool on the embedded database, none (the file store) on PostgreSQL,
   * whose instances may not share a disk; `off` for none.
   */
  uploadSpoolDir: string | null;
  /** Whether this instance processes uploaded files (FILE_JOB_WORKER=off: it only queues them). */
  fileJobWorker: boolean;
  /** Seconds a file job stays an instance's without word from it (FILE_JOB_LEASE_S): after a crash, the wait before another takes it. */
  fileJobLeaseSeconds: number;
  /** How long the receipt reader's OCR worker stays up with nothing to read (RECEIPT_OCR_IDLE_MS). */
  receiptReaderIdleMs: number;
  messages: MessagesConfig;
  tracking: TrackingConfig;
  /** Things the operator should fix, logged at start-up. */
  warnings: string[];
}

function int(value: string | undefined, fallback: number, name: string): number {
  if (value === undefined || value === '') return fallback;
  const n = Number(value);
  if (!Number.isInteger(n) || n < 0) throw new Error(`${name} must be a non-negative integer, got "${value}"`);
  return n;
}

function positiveInt(value: string | undefined, fallback: number, name: string): number {
  const n = int(value, fallback, name);
  if (n < 1) throw new Error(`${name} must be at least 1, got "${value}"`);
  return n;
}

/** A set key must be worth keeping secret: a short one could be guessed offline from any signed challenge. */
function challengeKey(value: string | undefined): string | undefined {
  const key = value?.trim();
  if (!key) return undefined;
  if (key.length < 32)
    throw new Error('REGISTRATION_CHALLENGE_KEY must be at least 32 characters (e.g. openssl rand -hex 32)');
  return key;
}

function isAddressOrCidr(entry: string): boolean {
  const [address, bits, ...rest] = entry.split('/');
  if (rest.length > 0 || !address) return false;
  const family = isIP(address);
  if (family === 0) return false;
  if (bits === undefined) return true;
  const n = Number(bits);
  return /^\d+$/.test(bits) && n >= 0 && n <= (family === 4 ? 32 : 128);
}

/**
 * TRUST_PROXY: a hop count ("1": one reverse proxy in front) or a comma-separated list of
 * the proxies' addresses or CIDRs. `true` used to trust every X-Forwarded-For entry, so a
 * client could choose the address every limit sees; it now means one hop, with a warning:
 * right behind the usual single proxy, and behind more it under-trusts (the limits see
 * the inner proxy), which can be wrong but never spoofed.
 */
export function parseTrustProxy(value: string | undefined, warnings: string[] = []): false | number | string[] {
  const raw = (value ?? '').trim();
  if (raw === '' || raw === 'false' || raw === '0') return false;
  if (raw === 'true') {
    warnings.push(
      'TRUST_PROXY=true is read as 1 proxy hop: set TRUST_PROXY to the number of proxies in front of the server, or to their addresses (e.g. 10.0.0.0/8), to silence this warning.',
    );
    return 1;
  }
  if (/^\d+$/.test(raw)) return Number(raw);
  const entries = raw
    .split(',')
    .map((e) => e.trim())
    .filter(Boolean);
  const bad = entries.filter((e) => !isAddressOrCidr(e));
  if (bad.length > 0 || entries.length === 0) {
    throw new Error(
      `TRUST_PROXY must be a number of proxy hops or a list of proxy addresses/CIDRs, got "${bad[0] ?? raw}"`,
    );
  }
  return entries;
}

/**
 * S3_BUCKET turns the object store on; the other S3_ variables only mean something with
 * it, and a half-given key pair stops the start rather than falling back to other
 * credentials unnoticed.
 */
export function parseFileStore(env: NodeJS.ProcessEnv): FileStoreConfig {
  const bucket = env.S3_BUCKET?.trim();
  if (!bucket) {
    const stray = ['S3_ENDPOINT', 'S3_ACCESS_KEY_ID', 'S3_SECRET_ACCESS_KEY'].filter((n) => env[n]);
    if (stray.length > 0) throw new Error(`${stray.join(', ')} given without S3_BUCKET: set S3_BUCKET too`);
    return { kind: 'database' };
  }
  const accessKeyId = env.S3_ACCESS_KEY_ID?.trim();
  const secretAccessKey = env.S3_SECRET_ACCESS_KEY?.trim();
  if (!!accessKeyId !== !!secretAccessKey) {
    throw new Error('S3_ACCESS_KEY_ID and S3_SECRET_ACCESS_KEY go together: set both or neither');
  }
  const endpoint = env.S3_ENDPOINT?.trim() || undefined;
  if (endpoint && !/^https?:\/\/[^\s]+$/.test(endpoint)) {
    throw new Error(`S3_ENDPOINT must be an http(s) URL, got "${endpoint}"`);
  }
  const pathStyle = (env.S3_FORCE_PATH_STYLE ?? '').trim();
  if (!['', 'true', 'false', '1', '0'].includes(pathStyle)) {
    throw new Error(`S3_FORCE_PATH_STYLE must be true or false, got "${pathStyle}"`);
  }
  const prefix = (env.S3_PREFIX ?? '').trim().replace(/^\/+/, '');
  return {
    kind: 's3',
    bucket,
    endpoint,
    region: env.S3_REGION?.trim() || 'us-east-1',
    credentials: accessKeyId && secretAccessKey ? { accessKeyId, secretAccessKey } : undefined,
    forcePathStyle: pathStyle === 'true' || pathStyle === '1',
    prefix: prefix && !prefix.endsWith('/') ? `${prefix}/` : prefix,
  };
}

/**
 * The links the server hands out (password resets) are built on PUBLIC_URL. Unset, they
 * point at localhost, which works on the operator's own machine and nowhere else: in
 * production that is a mistake worth saying at every start rather than a silent default.
 */
export function publicUrlWarning(env: NodeJS.ProcessEnv, fallback: string): string | null {
  if (env.NODE_ENV !== 'production' || (env.PUBLIC_URL ?? '').trim() !== '') return null;
  return (
    `PUBLIC_URL is not set: password reset links will point at ${fallback}, which riders and staff cannot open. ` +
    "Set PUBLIC_URL to the site's public address (e.g. PUBLIC_URL=https://rally.example.org) in the server's environment and restart."
  );
}

/** OWASP's argon2id recommendation; the benchmark measures the raw hash rate at exactly these. */
export const ARGON2_PARAMS = { memoryCost: 19456, timeCost: 2, parallelism: 1 } as const;

function urlSetting(value: string | undefined, name: string, protocols: readonly string[]): string | undefined {
  const text = value?.trim();
  if (!text) return undefined;
  let url: URL;
  try {
    url = new URL(text);
  } catch {
    throw new Error(`${name} must be a URL (${protocols.join(' or ')}), got "${text}"`);
  }
  if (!protocols.includes(url.protocol)) throw new Error(`${name} must start with ${protocols.join(' or ')}`);
  return text;
}

export function parseMessages(env: NodeJS.ProcessEnv): MessagesConfig {
  const pushEndpointHosts = (env.PUSH_ENDPOINT_HOSTS ?? '')
    .split(',')
    .map((h) => h.trim().toLowerCase())
    .filter(Boolean);
  for (const host of pushEndpointHosts) {
    if (!/^[a-z0-9.-]+(:\d{1,5})?$|^\[[0-9a-f:]+\](:\d{1,5})?$/.test(host))
      throw new Error(`PUSH_ENDPOINT_HOSTS must list host:port entries, got "${host}"`);
  }
  const smsWebhookKey = env.SMS_WEBHOOK_KEY?.trim() || undefined;
  if (smsWebhookKey && smsWebhookKey.length < 16) throw new Error('SMS_WEBHOOK_KEY must be at least 16 characters');
  return {
    worker: env.MESSAGE_WORKER !== 'off',
    smtpUrl: urlSetting(env.SMTP_URL, 'SMTP_URL', ['smtp:', 'smtps:']),
    mailFrom: env.MAIL_FROM?.trim() || undefined,
    vapidPublicKey: env.VAPID_PUBLIC_KEY?.trim() || undefined,
    vapidPrivateKey: env.VAPID_PRIVATE_KEY?.trim() || undefined,
    vapidSubject: env.VAPID_SUBJECT?.trim() || 'mailto:rally@localhost',
    pushEndpointHosts,
    smsGatewayUrl: urlSetting(env.SMS_GATEWAY_URL, 'SMS_GATEWAY_URL', ['http:', 'https:']),
    smsWebhookKey,
    escalateAfterS: positiveInt(env.SOS_ESCALATE_AFTER_S, DEFAULT_SOS_ESCALATE_AFTER_S, 'SOS_ESCALATE_AFTER_S'),
  };
}

export function parseTracking(env: NodeJS.ProcessEnv): TrackingConfig {
  return {
    stoppedMinutes: positiveInt(env.TRACKING_STOPPED_MIN, TRACKING_DEFAULTS.stoppedMinutes, 'TRACKING_STOPPED_MIN'),
    offRouteM: positiveInt(env.TRACKING_OFF_ROUTE_M, TRACKING_DEFAULTS.offRouteM, 'TRACKING_OFF_ROUTE_M'),
  };
}

export function loadConfig(env: NodeJS.ProcessEnv = process.env, overrides: Partial<Config> = {}): Config {
  const port = int(env.PORT, 3000, 'PORT');
  const rateLimitsOff = env.RATE_LIMITS === 'off';
  const warnings: string[] = [];
  const trustProxy = parseTrustProxy(env.TRUST_PROXY, warnings);
  const localUrl = `http://localhost:${port}`;
  const unsetPublicUrl = publicUrlWarning(env, localUrl);
  if (unsetPublicUrl) warnings.push(unsetPublicUrl);
  const base: Config = {
    port,
    host: env.HOST || '127.0.0.1',
    // npm runs workspace scripts inside apps/server; a relative DATA_DIR (and the default
    // ./data) means relative to where the operator ran npm, which npm passes as INIT_CWD.
    dataDir: path.resolve(env.INIT_CWD || process.cwd(), env.DATA_DIR || './data'),
    databaseUrl: env.DATABASE_URL || undefined,
    databaseTimeouts: {
      ...(env.DB_CONNECT_TIMEOUT_MS
        ? { connectMs: positiveInt(env.DB_CONNECT_TIMEOUT_MS, 5_000, 'DB_CONNECT_TIMEOUT_MS') }
        : {}),
      ...(env.DB_STATEMENT_TIMEOUT_MS
        ? { statementMs: int(env.DB_STATEMENT_TIMEOUT_MS, 30_000, 'DB_STATEMENT_TIMEOUT_MS') }
        : {}),
    },
    publicUrl: (env.PUBLIC_URL?.trim() || localUrl).replace(/\/+$/, ''),
    logLevel: env.LOG_LEVEL || 'info',
    webDist: env.WEB_DIST,
    payment: {
      gcash: {
        accountName: env.PAYMENT_GCASH_NAME || 'Mindanao Warriors Riders Club',
        accountNumber: env.PAYMENT_GCASH_NUMBER || '0917 000 0000',
      },
      bank_transfer: {
        accountName: env.PAYMENT_BANK_ACCOUNT_NAME || 'Mindanao Warriors Riders Club',
        accountNumber: env.PAYMENT_BANK_ACCOUNT_NUMBER || '0000-0000-0000',
        bankName: env.PAYMENT_BANK_NAME || 'BDO Unibank',
      },
    },
    rateLimits: {
      enabled: !rateLimitsOff,
      loginPerAccount: int(env.RATE_LIMIT_LOGIN_PER_ACCOUNT, 10, 'RATE_LIMIT_LOGIN_PER_ACCOUNT'),
      loginPerAddress: int(env.RATE_LIMIT_LOGIN_PER_ADDRESS, 50, 'RATE_LIMIT_LOGIN_PER_ADDRESS'),
      loginWindowMs: int(env.RATE_LIMIT_LOGIN_WINDOW_MS, 15 * 60_000, 'RATE_LIMIT_LOGIN_WINDOW_MS'),
      registrationsPerAddressPerHour: int(env.RATE_LIMIT_REGISTRATIONS, 30, 'RATE_LIMIT_REGISTRATIONS'),
      uploadsPerAddressPerHour: int(env.RATE_LIMIT_UPLOADS, 300, 'RATE_LIMIT_UPLOADS'),
      resetsPerAddressPerHour: int(env.RATE_LIMIT_RESETS, 30, 'RATE_LIMIT_RESETS'),
      globalPerMinute: int(env.RATE_LIMIT_GLOBAL, 1200, 'RATE_LIMIT_GLOBAL'),
      pagesPerMinute: int(env.RATE_LIMIT_PAGES, 1200, 'RATE_LIMIT_PAGES'),
    },
    challenge: {
      hmacKey: challengeKey(env.REGISTRATION_CHALLENGE_KEY),
      work: positiveInt(env.REGISTRATION_CHALLENGE_WORK, 400, 'REGISTRATION_CHALLENGE_WORK'),
    },
    argon2: { ...ARGON2_PARAMS },
    trustProxy,
    fileStore: parseFileStore(env),
    uploadSpoolDir: spoolDir(env),
    fileJobWorker: env.FILE_JOB_WORKER !== 'off',
    fileJobLeaseSeconds: positiveInt(env.FILE_JOB_LEASE_S, 30, 'FILE_JOB_LEASE_S'),
    receiptReaderIdleMs: positiveInt(env.RECEIPT_OCR_IDLE_MS, 30_000, 'RECEIPT_OCR_IDLE_MS'),
    messages: parseMessages(env),
    tracking: parseTracking(env),
    warnings,
  };
  return { ...base, ...overrides };
}
