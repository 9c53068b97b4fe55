import path from 'node:path';

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
  /** Registrations per address per hour: no tighter than a club registering from one Wi-Fi. */
  registrationsPerAddressPerHour: number;
  uploadsPerAddressPerHour: number;
  resetsPerAddressPerHour: number;
  /** A general ceiling per address per minute across the API. */
  globalPerMinute: number;
}

export interface Config {
  port: number;
  host: string;
  dataDir: string;
  databaseUrl: string | undefined;
  publicUrl: string;
  logLevel: string;
  webDist: string | undefined;
  payment: PaymentInstructions;
  rateLimits: RateLimits;
  argon2: { memoryCost: number; timeCost: number; parallelism: number };
}

function int(value: string | undefined, fallback: number, name: string): number {
  if (value === undefined || value === '') return fallback;
  const n = Number(value);
  if (!Number.isInteger(n) || n < 0) throw new Error(`${name} must be a non-negative integer, got "${value}"`);
  return n;
}

/** OWASP's argon2id recommendation; the benchmark measures the raw hash rate at exactly these. */
export const ARGON2_PARAMS = { memoryCost: 19456, timeCost: 2, parallelism: 1 } as const;

export function loadConfig(env: NodeJS.ProcessEnv = process.env, overrides: Partial<Config> = {}): Config {
  const port = int(env.PORT, 3000, 'PORT');
  const rateLimitsOff = env.RATE_LIMITS === 'off';
  const base: Config = {
    port,
    host: env.HOST || '127.0.0.1',
    // npm runs workspace scripts inside apps/server; a relative DATA_DIR (and the default
    // ./data) means relative to where the operator ran npm, which npm passes as INIT_CWD.
    dataDir: path.resolve(env.INIT_CWD || process.cwd(), env.DATA_DIR || './data'),
    databaseUrl: env.DATABASE_URL || undefined,
    publicUrl: (env.PUBLIC_URL || `http://localhost:${port}`).replace(/\/+$/, ''),
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
      registrationsPerAddressPerHour: int(env.RATE_LIMIT_REGISTRATIONS, 200, 'RATE_LIMIT_REGISTRATIONS'),
      uploadsPerAddressPerHour: int(env.RATE_LIMIT_UPLOADS, 300, 'RATE_LIMIT_UPLOADS'),
      resetsPerAddressPerHour: int(env.RATE_LIMIT_RESETS, 30, 'RATE_LIMIT_RESETS'),
      globalPerMinute: int(env.RATE_LIMIT_GLOBAL, 1200, 'RATE_LIMIT_GLOBAL'),
    },
    argon2: { ...ARGON2_PARAMS },
  };
  return { ...base, ...overrides };
}
