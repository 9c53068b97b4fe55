// What a text to the rally's SMS line says (DESIGN.md §10), read without the database:
//   SOS <rider no.> <what happened>            a rider in trouble
//   <station code> <rider no.> ... PIN <pin>   a marshal recording riders without data
// and anything else, which gets the help text; whether a text looks sent by a machine (an
// auto-reply, a delivery report: no reply to it). Also the webhook's signature check.
import { createHash, createHmac, timingSafeEqual } from 'node:crypto';
import {
  INCIDENT_NOTE_MAX,
  SCAN_FLAG_LABELS,
  type ScanFlagReasonName,
  SOS_KINDS,
  type SosKind,
} from '@rally/shared/catalog/event-day';
import { STATION_CODE_PATTERN } from '@rally/shared/catalog/messages';

export type InboundCommand =
  | { kind: 'sos'; riderNumber: number; incidentKind: SosKind; note: string }
  /** `pin`: what followed the word PIN (null when the text has none), checked against the sender's. */
  | { kind: 'scans'; stationCode: string; riderNumbers: number[]; pin: string | null }
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

/** The word PIN, alone or with the PIN stuck to it (`PIN:4821`, `pin4821`). */
const PIN_WORD = /^pin[:#=]?(\d*)$/i;

/** Reads a cleaned text. Commas and semicolons separate rider numbers as spaces do. */
export function parseInboundText(text: string): InboundCommand {
  const sos = /^sos\b[\s:,.-]*(\S+)?\s*(.*)$/i.exec(text);
  if (sos) {
    const n = riderNumber(sos[1] ?? '');
    if (n === null) return { kind: 'help', problem: 'An SOS needs your rider number first.' };
    const words = (sos[2] ?? '').trim();
    const first = (words.split(' ')[0] ?? '').toLowerCase().replace(/[^a-z]/g, '');
    const incidentKind = (SOS_KINDS as readonly string[]).includes(first) ? (first as SosKind) : 'other';
    return { kind: 'sos', riderNumber: n, incidentKind, note: words.slice(0, INCIDENT_NOTE_MAX).trim() };
  }
  const [head = '', ...words] = text.split(/[\s,;]+/).filter(Boolean);
  const code = head.toUpperCase();
  if (!STATION_CODE_PATTERN.test(code)) return { kind: 'help', problem: null };
  // `PIN 4821` (the word in any case; `PIN:4821` too) ends the text; nothing may follow the PIN.
  const at = words.findIndex((w) => PIN_WORD.test(w));
  const rest = at === -1 ? words : words.slice(0, at);
  const pinWords = at === -1 ? [] : [PIN_WORD.exec(words[at] ?? '')?.[1] ?? '', ...words.slice(at + 1)].filter(Boolean);
  if (pinWords.length > 1) {
    return { kind: 'help', problem: `End with PIN and your PIN only, e.g. ${code} 42 57 PIN 4821.` };
  }
  const pin = at === -1 ? null : (pinWords[0] ?? '');
  const numbers = rest.map(riderNumber);
  if (numbers.length === 0 || numbers.some((n) => n === null)) {
    // A word that happens to look like a code (HELLO, THANKS) is not an attempt at scans.
    return { kind: 'help', problem: /\d/.test(code) ? `After ${code}, send only rider numbers.` : null };
  }
  return { kind: 'scans', stationCode: code, riderNumbers: [...new Set(numbers as number[])], pin };
}

/** The text as kept (inbound_texts): whatever follows the word PIN is masked, a PIN is stored hashed only. */
export function maskPin(text: string): string {
  return text.replace(/\bpin(?=[\s:#=\d]|$)[\s:#=]*\S*/gi, 'PIN ****');
}

/**
 * Phrases of texts machines send: auto-replies, delivery reports, "do not reply" notices,
 * and our own help text come back. Answering one starts a loop that spends the SIM's credit.
 */
const AUTOMATED = [
  /^rally sms line\b/i,
  /\bauto[- ]?(reply|replies|response|responder)\b/i,
  /\bautomatic(ally)? (reply|response|generated)\b/i,
  /\bautomated (message|reply|response|text)\b/i,
  /\bout of (the )?office\b/i,
  /\bdelivery (report|receipt|status|failure|notification)\b/i,
  /\b(undeliverable|not delivered|failed to deliver|delivery failed)\b/i,
  /\b(do not|don't|pls do not|please do not) reply\b/i,
];

/** Whether a (cleaned) text reads as sent by a machine: no reply goes to it. */
export function looksAutomated(text: string): boolean {
  return AUTOMATED.some((pattern) => pattern.test(text));
}

/**
 * A text's shape: lower case, each run of digits one `#`, punctuation gone. Two texts of one
 * shape are near-identical: a machine repeating itself with a new code or time in it.
 */
export function textShape(text: string): string {
  return text
    .toLowerCase()
    .replace(/\d+/g, '#')
    .replace(/[^\p{L}#\s]+/gu, ' ')
    .replace(/\s+/g, ' ')
    .trim();
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
