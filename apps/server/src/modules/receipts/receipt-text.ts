// From what tesseract recognised on a receipt to its fields (DESIGN.md §13): the reference
// number, the amount, when it was paid and to whom, each with a confidence. Pure: no OCR here,
// so the parsing is tested on literal OCR-like text, slips included.
import { REFERENCE_DIGITS } from '@rally/shared/catalog/receipts';

/** One recognised word and tesseract's confidence in it (0–100). */
export interface RecognisedWord {
  text: string;
  confidence: number;
}

/** A recognised line: its words in reading order. */
export type RecognisedLine = readonly RecognisedWord[];

/** The fields read off a receipt, each with its confidence (0–1), or null where nothing was found. */
export interface ReceiptFields {
  /** Digits only (13 for GCash), or null when not found. */
  referenceNumber: string | null;
  amountCentavos: number | null;
  paidAt: Date | null;
  /** The masked recipient as printed ("JU** DE* C.", "+63 917 *** 4321"). */
  recipient: string | null;
  confidence: {
    referenceNumber: number | null;
    amount: number | null;
    paidAt: number | null;
    recipient: number | null;
  };
}

/** Plain text as lines of words, each with the same confidence: for text without tesseract's words. */
export function linesFromText(text: string, confidence = 90): RecognisedLine[] {
  return text
    .split(/\r?\n/)
    .map((line) => line.split(/\s+/).filter(Boolean))
    .filter((words) => words.length > 0)
    .map((words) => words.map((w) => ({ text: w, confidence })));
}

// Characters OCR confuses with digits, and the digit each stands for. Replaced only inside
// tokens that are mostly digits already, so "Oct" stays a month and "Sent" a word.
const DIGIT_LOOKALIKES: Record<string, string> = {
  O: '0',
  o: '0',
  Q: '0',
  D: '0',
  U: '0',
  l: '1',
  I: '1',
  i: '1',
  '|': '1',
  '!': '1',
  L: '1',
  ']': '1',
  '[': '1',
  J: '1',
  Z: '2',
  z: '2',
  S: '5',
  s: '5',
  $: '5',
  B: '8',
  G: '6',
  b: '6',
  g: '9',
  q: '9',
  T: '7',
  A: '4',
};
const DIGIT_PUNCTUATION = /[-:,./]/;

/** A token that reads as a number with a few OCR slips: at least half its characters digits, the rest look-alikes. */
function fixDigitToken(token: string): { text: string; fixes: number } | null {
  let digits = 0;
  let lookalikes = 0;
  for (const ch of token) {
    if (ch >= '0' && ch <= '9') digits++;
    else if (DIGIT_LOOKALIKES[ch] !== undefined) lookalikes++;
    else if (!DIGIT_PUNCTUATION.test(ch)) return null;
  }
  if (digits === 0 || lookalikes > digits) return null;
  if (lookalikes === 0) return { text: token, fixes: 0 };
  return { text: [...token].map((ch) => DIGIT_LOOKALIKES[ch] ?? ch).join(''), fixes: lookalikes };
}

interface Word {
  text: string;
  /** With digit look-alikes replaced (same length, so offsets hold). */
  fixed: string;
  fixes: number;
  confidence: number;
  start: number;
  end: number;
}

interface Line {
  text: string;
  fixed: string;
  words: Word[];
}

function prepare(lines: readonly RecognisedLine[]): Line[] {
  return lines.map((line) => {
    const words: Word[] = [];
    let offset = 0;
    for (const w of line) {
      const text = w.text.trim();
      if (!text) continue;
      // A currency sign glued to the amount ("₱1,5O0.00", "P1,500.00") is kept apart from its digits.
      const sign = /^(₱|PHP|Php|P|F|R|\$|B)(?=[\dOolIS])/.exec(text)?.[0] ?? '';
      const rest = text.slice(sign.length);
      const fix = fixDigitToken(rest);
      const fixed = sign + (fix?.text ?? rest);
      words.push({
        text,
        fixed,
        fixes: fix?.fixes ?? 0,
        confidence: w.confidence,
        start: offset,
        end: offset + text.length,
      });
      offset += text.length + 1;
    }
    return { text: words.map((w) => w.text).join(' '), fixed: words.map((w) => w.fixed).join(' '), words };
  });
}

/** The words a match spans, for its confidence and its count of corrections. */
function spanned(line: Line, start: number, end: number): { confidence: number; fixes: number } {
  const words = line.words.filter((w) => w.start < end && w.end > start);
  if (words.length === 0) return { confidence: 0, fixes: 0 };
  return {
    confidence: Math.min(...words.map((w) => w.confidence)) / 100,
    fixes: words.reduce((n, w) => n + w.fixes, 0),
  };
}

/** Tesseract's confidence, lowered for each correction the parse needed. */
function score(confidence: number, fixes: number, penalty = 1): number {
  return Math.round(Math.max(0, Math.min(1, confidence * 0.85 ** fixes * penalty)) * 100) / 100;
}

// "Ref No.", "Ref. No.", "Reference No.", "Reference Number", "Transaction ID", "Trace No." and
// their usual OCR slips ("Ret No,", "RefNo.").
const REFERENCE_LABEL =
  /\b(?:r[eo][ft]\.?\s*(?:n[o0]|#)|reference(?:\s*(?:n[o0]\.?|number|#|code))?|transaction\s*(?:id|n[o0]|number|ref(?:erence)?)|trace\s*n[o0]|txn\s*(?:id|n[o0]))\b[.,:#]*/i;

interface Found<T> {
  value: T;
  confidence: number;
}

/** Runs of digit tokens on a line from `from`: "1001 543 610110" → digits and the words they came from. */
function digitRun(line: Line, from: number): { digits: string; groups: number[]; start: number; end: number } | null {
  let digits = '';
  const groups: number[] = [];
  let start = -1;
  let end = -1;
  for (const w of line.words) {
    if (w.end <= from) continue;
    const onlyDigits = w.fixed.replace(/[-.:,]/g, '');
    // Times ("2:31") and money ("1,500.00") are not references.
    const other = w.fixed.includes(':') || /\d[.,]\d{2}$/.test(w.fixed);
    if (!/^\d+$/.test(onlyDigits) || other) {
      if (digits) break;
      // Words between the label and the number (a stray "#", ":" or a misread label) are skipped.
      if (/[A-Za-z]{3,}/.test(w.text) && start === -1 && groups.length === 0 && w.start > from + 2) break;
      continue;
    }
    if (start === -1) start = w.start;
    end = w.end;
    for (const part of w.fixed.split(/[-.,]/).filter(Boolean)) groups.push(part.length);
    digits += onlyDigits;
  }
  return digits ? { digits, groups, start, end } : null;
}

function findReference(lines: Line[], gcash: boolean): Found<string> | null {
  const candidates: Found<string>[] = [];
  for (const [i, line] of lines.entries()) {
    const label = REFERENCE_LABEL.exec(line.text);
    if (!label) continue;
    // The number follows the label on its line; or, laid out in a column apart (or the line
    // tilted so the label and the number part), it stands alone on the next line or the one before.
    let run = digitRun(line, label.index + label[0].length);
    let from: Line | undefined = line;
    let apart = 1;
    if (!run) {
      for (const near of [lines[i + 1], lines[i - 1]]) {
        const alone = near && !/[A-Za-z]{2,}/.test(near.fixed) ? digitRun(near, 0) : null;
        if (alone && near) {
          run = alone;
          from = near;
          apart = 0.9;
          break;
        }
      }
    }
    if (!run || !from) continue;
    let digits = run.digits;
    let penalty = apart;
    if (gcash) {
      // The date may follow on the line ("… 610110 Mar 12"): keep the 13 the receipt prints.
      if (digits.length > REFERENCE_DIGITS) {
        digits = digits.slice(0, REFERENCE_DIGITS);
        penalty *= 0.6;
      } else if (digits.length < REFERENCE_DIGITS) penalty *= 0.3;
      else if (run.groups.join('-') !== '4-3-6') penalty *= 0.9;
    } else if (digits.length < 6) continue;
    const { confidence, fixes } = spanned(from, run.start, run.end);
    candidates.push({ value: digits, confidence: score(confidence, fixes, penalty) });
  }
  // Without a label: a run printed 4-3-6 anywhere is a GCash reference.
  if (candidates.length === 0) {
    for (const line of lines) {
      const m = /(?<![\d])(\d{4})[\s-]?(\d{3})[\s-]?(\d{6})(?![\d])/.exec(line.fixed);
      if (!m) continue;
      const { confidence, fixes } = spanned(line, m.index, m.index + m[0].length);
      candidates.push({ value: `${m[1]}${m[2]}${m[3]}`, confidence: score(confidence, fixes, 0.8) });
    }
  }
  return candidates.sort((a, b) => b.confidence - a.confidence)[0] ?? null;
}

// An amount as printed: "1,500.00", "₱1,500.00", "PHP 1,500.00"; a comma read as a dot
// ("1.500.00") still parses, the last separator before two digits being the decimal point.
const MONEY = /(?<![\d.,])(\d{1,3}(?:[,.]\s?\d{3})+|\d+)\s?[.,]\s?(\d{2})(?![\d])/g;

function findAmount(lines: Line[]): Found<number> | null {
  const seen = new Map<number, { count: number; weight: number; confidence: number }>();
  for (const line of lines) {
    const lower = line.text.toLowerCase();
    // Fees, balances and change are not what was sent.
    if (/fee|balance|charge|discount|points/.test(lower)) continue;
    const labelled = /amount|total|sent|php|₱|paid/.test(lower);
    for (const m of line.fixed.matchAll(MONEY)) {
      if (m[0].includes(':')) continue;
      const pesos = Number((m[1] ?? '').replace(/[,.\s]/g, ''));
      const centavos = pesos * 100 + Number(m[2]);
      if (!Number.isSafeInteger(centavos) || centavos <= 0) continue;
      const { confidence, fixes } = spanned(line, m.index, m.index + m[0].length);
      const entry = seen.get(centavos) ?? { count: 0, weight: 0, confidence: 0 };
      entry.count++;
      entry.weight += labelled ? 2 : 1;
      entry.confidence = Math.max(entry.confidence, score(confidence, fixes, labelled ? 1 : 0.8));
      seen.set(centavos, entry);
    }
  }
  let best: Found<number> | null = null;
  let bestWeight = 0;
  for (const [value, e] of seen) {
    if (e.weight > bestWeight || (e.weight === bestWeight && best && e.confidence > best.confidence)) {
      best = { value, confidence: e.confidence };
      bestWeight = e.weight;
    }
  }
  if (!best) return null;
  // The receipt prints the amount twice; when the two readings disagree, say so.
  const rivals = [...seen.values()].filter((e) => e.weight >= bestWeight / 2).length;
  return rivals > 1 ? { value: best.value, confidence: score(best.confidence, 0, 0.6) } : best;
}

const MONTHS = ['jan', 'feb', 'mar', 'apr', 'may', 'jun', 'jul', 'aug', 'sep', 'oct', 'nov', 'dec'];
const MONTH = '(jan|feb|mar|apr|may|jun|jul|aug|sep|oct|nov|dec)[a-z]*\\.?';
const TIME = '(\\d{1,2})\\s?[:.]\\s?(\\d{2})(?:\\s?[:.]\\d{2})?\\s*([ap])?\\.?\\s?m?\\.?';
const DATE_PATTERNS: { re: RegExp; parts: (m: RegExpExecArray) => [number, number, number] }[] = [
  // "Mar 12, 2026 2:31 PM"
  {
    re: new RegExp(`${MONTH}\\s*(\\d{1,2})[,.]?\\s*(\\d{4})[,.]?\\s*(?:at\\s*)?${TIME}`, 'i'),
    parts: (m) => [Number(m[3]), MONTHS.indexOf((m[1] ?? '').toLowerCase()), Number(m[2])],
  },
  // "12 Mar 2026, 02:31 PM"
  {
    re: new RegExp(`(\\d{1,2})\\s*${MONTH}\\s*(\\d{4})[,.]?\\s*(?:at\\s*)?${TIME}`, 'i'),
    parts: (m) => [Number(m[3]), MONTHS.indexOf((m[2] ?? '').toLowerCase()), Number(m[1])],
  },
  // "03/12/2026 14:31" (month first, as Philippine apps print it)
  {
    re: new RegExp(`(\\d{1,2})[/-](\\d{1,2})[/-](\\d{4}),?\\s*${TIME}`, 'i'),
    parts: (m) => [Number(m[3]), Number(m[1]) - 1, Number(m[2])],
  },
];

function findPaidAt(lines: Line[]): Found<Date> | null {
  for (const line of lines) {
    for (const { re, parts } of DATE_PATTERNS) {
      const m = re.exec(line.fixed);
      if (!m) continue;
      const [year, month, day] = parts(m);
      const n = m.length;
      let hour = Number(m[n - 3]);
      const minute = Number(m[n - 2]);
      const half = m[n - 1]?.toLowerCase();
      if (half === 'p' && hour < 12) hour += 12;
      if (half === 'a' && hour === 12) hour = 0;
      if (month < 0 || month > 11 || day < 1 || day > 31 || hour > 23 || minute > 59 || year < 2000 || year > 2100)
        continue;
      // Printed in Philippine time (UTC+8, no daylight saving).
      const date = new Date(Date.UTC(year, month, day, hour - 8, minute));
      if (new Date(date.getTime() + 8 * 3600_000).getUTCDate() !== day) continue;
      const { confidence, fixes } = spanned(line, m.index, m.index + m[0].length);
      return { value: date, confidence: score(confidence, fixes) };
    }
  }
  return null;
}

// A masked name: "JU** DE* C.", "JUAN D*** C." — capitals and asterisks, a "." initial.
// Printed in capitals; a letter read in lower case ("Ju**") is put back.
const MASKED_NAME = /(?<![A-Za-z])(?:[A-Z][A-Za-z*]*\.?\s+){1,4}[A-Z][A-Za-z*]*\.?/g;
// The asterisks are often misread ("*+", "#**"): any short run of marks between the digits.
const MASKED_PHONE = /(?:\+\s?63|0)\s?(9\d{2})\s?[-\s]?[^\d\s]{2,4}\s?[-\s]?(\d{4})(?!\d)/;

function findRecipient(lines: Line[]): Found<string> | null {
  let name: Found<string> | null = null;
  let phone: Found<string> | null = null;
  for (const line of lines) {
    const p: RegExpExecArray | null = phone ? null : MASKED_PHONE.exec(line.fixed);
    if (p) {
      const { confidence, fixes } = spanned(line, p.index, p.index + p[0].length);
      const prefix: string = p[0].startsWith('0') ? '0' : '+63 ';
      phone = { value: `${prefix}${p[1]} *** ${p[2]}`, confidence: score(confidence, fixes) };
      continue;
    }
    if (name) continue;
    const label = /^(?:transfer(?:red)?\s+to|sent\s+to|recipient|to|account\s+name)\b[:\s]*/i.exec(line.text);
    const body = label ? line.text.slice(label[0].length) : line.text;
    const m = [...body.matchAll(MASKED_NAME)].find((x) => x[0].includes('*'));
    if (m) {
      const start = (label?.[0].length ?? 0) + m.index;
      const { confidence } = spanned(line, start, start + m[0].length);
      name = { value: m[0].trim().toUpperCase(), confidence: score(confidence, 0) };
    }
  }
  if (name && phone)
    return { value: `${name.value} / ${phone.value}`, confidence: Math.min(name.confidence, phone.confidence) };
  return name ?? phone;
}

/** Reads the fields off recognised text: lines of words with tesseract's confidences, or plain text. */
export function parseReceiptText(input: string | readonly RecognisedLine[]): ReceiptFields {
  const lines = prepare(typeof input === 'string' ? linesFromText(input) : input);
  const all = lines.map((l) => l.text).join('\n');
  // A GCash receipt's reference is 13 digits; a bank's is whatever length the bank prints.
  const gcash = /g\s?cash|express\s*send|sent\s+via/i.test(all);
  const reference = findReference(lines, gcash);
  const amount = findAmount(lines);
  const paidAt = findPaidAt(lines);
  const recipient = findRecipient(lines);
  return {
    referenceNumber: reference?.value ?? null,
    amountCentavos: amount?.value ?? null,
    paidAt: paidAt?.value ?? null,
    recipient: recipient?.value ?? null,
    confidence: {
      referenceNumber: reference?.confidence ?? null,
      amount: amount?.confidence ?? null,
      paidAt: paidAt?.confidence ?? null,
      recipient: recipient?.confidence ?? null,
    },
  };
}
