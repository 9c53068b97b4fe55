// What a text to the rally's SMS line says (DESIGN.md §10), read without the database:
//   SOS <rider no.> <what happened>      a rider in trouble
//   <station code> <rider no.> ...        a marshal recording riders without data
// and anything else, which gets the help text. Also the webhook's signature check.
import { createHash, createHmac, timingSafeEqual } from 'node:crypto';
import {
  INCIDENT_KINDS,
  INCIDENT_NOTE_MAX,
  type IncidentKind,
  SCAN_FLAG_LABELS,
  type ScanFlagReasonName,
} from '@rally/shared/catalog/event-day';
import { STATION_CODE_PATTERN } from '@rally/shared/catalog/messages';

export type InboundCommand =
  | { kind: 'sos'; riderNumber: number; incidentKind: IncidentKind; note: string }
  | { kind: 'scans'; stationCode: string; riderNumbers: number[] }
  | { kind: 'help'; problem: string | null };

/** The largest rider number a scan takes (contracts/scans.ts). */
const RIDER_NUMBER_MAX = 100_000;

/**
 * The text with every control character (C0, DEL, C1: a NUL would break PostgreSQL, a line
 * break is how phones split words) made a space, and runs of spaces made one.
 */
export function cleanText(raw: string): string {
  return (
    raw
      // biome-ignore lint/suspicious/noControlCharactersInRegex: removing control characters is the point
      .replace(/[\u0000-\u001f\u007f-\u009f]/g, ' ')
      .replace(/\s+/g, ' ')
      .trim()
  );
}

const riderNumber = (token: string): number | null => {
  const m = /^#?(\d{1,6})$/.exec(token);
  if (!m) return null;
  const n = Number(m[1]);
  return n <= RIDER_NUMBER_MAX ? n : null;
};

/** Reads a cleaned text. Commas and semicolons separate rider numbers as spaces do. */
export function parseInboundText(text: string): InboundCommand {
  const sos = /^sos\b[\s:,.-]*(\S+)?\s*(.*)$/i.exec(text);
  if (sos) {
    const n = riderNumber(sos[1] ?? '');
    if (n === null) return { kind: 'help', problem: 'An SOS needs your rider number first.' };
    const words = (sos[2] ?? '').trim();
    const first = (words.split(' ')[0] ?? '').toLowerCase().replace(/[^a-z]/g, '');
    const incidentKind = (INCIDENT_KINDS as readonly string[]).includes(first) ? (first as IncidentKind) : 'other';
    return { kind: 'sos', riderNumber: n, incidentKind, note: words.slice(0, INCIDENT_NOTE_MAX).trim() };
  }
  const [head = '', ...rest] = text.split(/[\s,;]+/).filter(Boolean);
  const code = head.toUpperCase();
  if (!STATION_CODE_PATTERN.test(code)) return { kind: 'help', problem: null };
  const numbers = rest.map(riderNumber);
  if (numbers.length === 0 || numbers.some((n) => n === null)) {
    // A word that happens to look like a code (HELLO, THANKS) is not an attempt at scans.
    return { kind: 'help', problem: /\d/.test(code) ? `After ${code}, send only rider numbers.` : null };
  }
  return { kind: 'scans', stationCode: code, riderNumbers: [...new Set(numbers as number[])] };
}

/** A scan's outcome in the marshal's one-line summary: "42 ok", "118 unknown rider". */
export function scanWord(result: { status: string; original?: string; reason?: ScanFlagReasonName }): string {
  const status = result.status === 'duplicate' ? result.original : result.status;
  if (status === 'accepted') return 'ok';
  if (status === 'flagged') {
    if (!result.reason) return 'flagged';
    return result.reason === 'unknown_rider'
      ? 'unknown rider'
      : `flagged: ${SCAN_FLAG_LABELS[result.reason].toLowerCase()}`;
  }
  return 'not recorded';
}

/** A UUID (version 8, RFC 9562) made from a name: the same webhook always makes the same ids. */
export function nameUuid(name: string): string {
  const h = createHash('sha256').update(`rally sms-inbound ${name}`).digest();
  h[6] = ((h[6] as number) & 0x0f) | 0x80;
  h[8] = ((h[8] as number) & 0x3f) | 0x80;
  const hex = h.subarray(0, 16).toString('hex');
  return `${hex.slice(0, 8)}-${hex.slice(8, 12)}-${hex.slice(12, 16)}-${hex.slice(16, 20)}-${hex.slice(20)}`;
}

/** How far the webhook's X-Timestamp may be from the server's clock, either way. */
export const WEBHOOK_MAX_SKEW_S = 5 * 60;

export type SignatureProblem = 'missing' | 'mismatch' | 'stale';

/**
 * SMS Gateway for Android signs each webhook: X-Signature is the hex HMAC-SHA256, keyed with
 * the shared key, of the raw body followed by the X-Timestamp value (Unix seconds). A
 * timestamp more than 5 minutes off is refused too, so a recorded webhook cannot be replayed
 * later (a repeat within the window is caught by its id).
 */
export function checkSignature(
  raw: Buffer,
  timestamp: string | undefined,
  signature: string | undefined,
  key: string,
  now: Date,
): SignatureProblem | null {
  if (!timestamp || !signature) return 'missing';
  if (!/^\d{1,12}$/.test(timestamp) || !/^[0-9a-f]{64}$/i.test(signature)) return 'mismatch';
  const expected = createHmac('sha256', key).update(raw).update(timestamp).digest();
  if (!timingSafeEqual(expected, Buffer.from(signature, 'hex'))) return 'mismatch';
  if (Math.abs(now.getTime() / 1000 - Number(timestamp)) > WEBHOOK_MAX_SKEW_S) return 'stale';
  return null;
}
