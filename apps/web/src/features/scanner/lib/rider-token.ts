// What a marshal points the camera at or types: the rider QR holds the bare rider code
// (`RC-` + 12 Crockford characters, see my-profile/components/rider-qr.tsx); the paper
// sticker also prints the rider number for when the code cannot be read.

export type RiderToken = { riderCode: string } | { riderNumber: number };

const CODE_IN_TEXT = /RC-[0-9A-HJKMNP-TV-Z]{12}/i;

/** The rider code a QR holds; a URL or text that carries one inside still counts. Null for an empty read. */
export function parseQrText(text: string): RiderToken | null {
  const trimmed = text.trim();
  if (!trimmed) return null;
  const found = CODE_IN_TEXT.exec(trimmed);
  // Unrecognised text is still recorded (as an unknown rider): the server flags it for review.
  return { riderCode: found ? found[0].toUpperCase() : trimmed.slice(0, 200) };
}

/** A typed rider number, or null when the field holds no whole number in range. */
export function parseTypedNumber(text: string): RiderToken | null {
  const digits = text.trim().replace(/^#/, '');
  if (!/^\d{1,6}$/.test(digits)) return null;
  const n = Number(digits);
  return n <= 100_000 ? { riderNumber: n } : null;
}

export function tokenKey(token: RiderToken): string {
  return 'riderCode' in token ? `c:${token.riderCode}` : `n:${token.riderNumber}`;
}
