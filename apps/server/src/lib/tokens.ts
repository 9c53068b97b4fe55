import { createHash, randomBytes, randomInt } from 'node:crypto';

/** An opaque token: 32 random bytes, base64url. Only its SHA-256 is ever stored. */
export function newToken(): string {
  return randomBytes(32).toString('base64url');
}

export function sha256Hex(value: string | Buffer): string {
  return createHash('sha256').update(value).digest('hex');
}

// Crockford base32: no I, L, O or U, so codes read aloud and typed by hand stay unambiguous.
const CROCKFORD = '0123456789ABCDEFGHJKMNPQRSTVWXYZ';

export function crockford(length: number): string {
  let out = '';
  for (let i = 0; i < length; i++) out += CROCKFORD[randomInt(32)];
  return out;
}

/** Verification code a rider quotes to staff: `WR-` and 8 Crockford characters (40 bits). */
export function newVerificationCode(): string {
  return `WR-${crockford(8)}`;
}

/** The rider code held by the QR sticker: `RC-` and 12 Crockford characters (60 bits). */
export function newRiderCode(): string {
  return `RC-${crockford(12)}`;
}

/** A verification code inside free text (activity details quote them). */
export const VERIFICATION_CODE_PATTERN = /\bWR-[0-9A-HJKMNP-TV-Z]{8}\b/g;
