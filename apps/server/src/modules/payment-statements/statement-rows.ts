// A statement table's rows as the matcher needs them: reference digits, the amount that
// came in (centavos), when, and the description. GCash's and a common bank export's
// columns are known; `custom` names them.
import type { StatementPreset } from '@rally/shared/catalog/receipts';
import { referenceDigits } from '@rally/shared/catalog/receipts';
import { type StatementMapping, statementMapping } from '@rally/shared/contracts/receipts';
import { BadRequestError } from '../../lib/errors';
import type { StatementTable } from './statement-table';

export interface StatementRowInput {
  line: number;
  referenceNumber: string | null;
  amountCentavos: number | null;
  paidAt: Date | null;
  description: string | null;
}

/** Where each field is read from: one amount column, or money in (credit) and money out (debit). */
interface Columns {
  referenceNumber: string;
  paidAt: string;
  description: string | null;
  amount: string | null;
  credit: string | null;
  debit: string | null;
}

const norm = (h: string) => h.toLowerCase().replace(/[^a-z]/g, '');

/** Header names each preset knows, compared without case, spaces or punctuation. */
const KNOWN: Record<'gcash' | 'bank', Record<keyof Columns, string[]>> = {
  gcash: {
    referenceNumber: ['Reference No.', 'Reference Number', 'Ref No.'],
    paidAt: ['Date and Time', 'Date', 'Transaction Date'],
    description: ['Description', 'Details'],
    amount: ['Amount'],
    credit: ['Credit'],
    debit: ['Debit'],
  },
  bank: {
    referenceNumber: ['Reference Number', 'Reference No.', 'Reference', 'Ref No.', 'Transaction Reference'],
    paidAt: ['Transaction Date', 'Date', 'Posting Date', 'Value Date', 'Date and Time'],
    description: ['Description', 'Details', 'Particulars', 'Remarks'],
    amount: ['Amount'],
    credit: ['Credit', 'Credit Amount', 'Deposit', 'Deposits'],
    debit: ['Debit', 'Debit Amount', 'Withdrawal', 'Withdrawals'],
  },
};

const badMapping = (message: string) => new BadRequestError(message, 'BAD_STATEMENT_MAPPING');

function find(headers: string[], names: string[]): string | null {
  const wanted = new Set(names.map(norm));
  return headers.find((h) => wanted.has(norm(h))) ?? null;
}

/** Parses the console's mapping JSON (null when none was sent). */
export function parseMapping(raw: string | undefined): StatementMapping | null {
  if (raw === undefined || raw.trim() === '') return null;
  let json: unknown;
  try {
    json = JSON.parse(raw);
  } catch {
    throw badMapping('mapping must be JSON, e.g. {"referenceNumber":"Ref","amount":"Amount","paidAt":"Date"}');
  }
  const parsed = statementMapping.safeParse(json);
  if (!parsed.success) {
    const issue = parsed.error.issues[0];
    throw badMapping(`mapping: ${issue?.path.join('.') || 'value'} ${issue?.message ?? 'is invalid'}`);
  }
  return parsed.data;
}

export function columnsFor(
  table: StatementTable,
  preset: StatementPreset,
  mapping: StatementMapping | null,
): { columns: Columns; mapping: Record<string, string> } {
  const { headers } = table;
  const named = (field: string, header: string) => {
    const found = find(headers, [header]);
    if (!found)
      throw badMapping(`The ${field} column "${header}" is not in the file (its columns: ${headers.join(', ')})`);
    return found;
  };
  let columns: Columns;
  if (mapping) {
    columns = {
      referenceNumber: named('referenceNumber', mapping.referenceNumber),
      amount: named('amount', mapping.amount),
      paidAt: named('paidAt', mapping.paidAt),
      description: mapping.description ? named('description', mapping.description) : null,
      credit: null,
      debit: null,
    };
  } else if (preset === 'custom') {
    throw badMapping('A custom statement needs a mapping naming its reference, amount and date columns');
  } else {
    const known = KNOWN[preset];
    const reference = find(headers, known.referenceNumber);
    const paidAt = find(headers, known.paidAt);
    const amount = find(headers, known.amount);
    const credit = find(headers, known.credit);
    const missing = [
      reference ? null : `a reference column (${known.referenceNumber[0]})`,
      paidAt ? null : `a date column (${known.paidAt[0]})`,
      amount || credit ? null : 'an Amount or Credit column',
    ].filter(Boolean);
    if (missing.length > 0 || !reference || !paidAt) {
      throw badMapping(
        `This does not look like a ${preset === 'gcash' ? 'GCash' : 'bank'} export: no ${missing.join(', ')}. Its columns: ${headers.join(', ')}. Choose "custom" and map them.`,
      );
    }
    columns = {
      referenceNumber: reference,
      paidAt,
      description: find(headers, known.description),
      amount: credit ? null : amount,
      credit,
      debit: credit ? find(headers, known.debit) : null,
    };
  }
  const used: Record<string, string> = { referenceNumber: columns.referenceNumber, paidAt: columns.paidAt };
  if (columns.amount) used.amount = columns.amount;
  if (columns.credit) used.credit = columns.credit;
  if (columns.debit) used.debit = columns.debit;
  if (columns.description) used.description = columns.description;
  return { columns, mapping: used };
}

/** "PHP 3,000.00", "₱3,000", "(1,500.00)", "-250" → centavos; null when empty or not a number. */
export function parseAmount(text: string | undefined): number | null {
  if (!text) return null;
  // Money out: in parentheses, or a minus before the digits or after them.
  const negative = /^\s*\(.*\)\s*$/.test(text) || /^[^\d]*-/.test(text) || /-\s*$/.test(text);
  const cleaned = text.replace(/[^\d.,]/g, '');
  if (!/\d/.test(cleaned)) return null;
  // A comma followed by exactly two digits at the end is a decimal comma (3.000,00).
  const decimalComma = /,\d{2}$/.test(cleaned) && !/\.\d{2}$/.test(cleaned);
  const normalised = decimalComma ? cleaned.replace(/\./g, '').replace(',', '.') : cleaned.replace(/,/g, '');
  const value = Number(normalised);
  if (!Number.isFinite(value)) return null;
  const centavos = Math.round(value * 100);
  return negative ? -centavos : centavos;
}

const MONTHS = ['jan', 'feb', 'mar', 'apr', 'may', 'jun', 'jul', 'aug', 'sep', 'oct', 'nov', 'dec'];

/**
 * The date formats the exports use: ISO, MM/DD/YYYY (GCash, Philippine banks), "Mar 12,
 * 2026" and "12 Mar 2026", each with an optional time (24 h or AM/PM). Without an offset,
 * Manila time (+08:00).
 */
export function parseStatementDate(text: string | undefined): Date | null {
  if (!text) return null;
  const s = text.trim();
  if (/^\d{4}-\d{2}-\d{2}T.*(Z|[+-]\d{2}:?\d{2})$/.test(s)) {
    const d = new Date(s);
    return Number.isNaN(d.getTime()) ? null : d;
  }
  const month = (name: string) => MONTHS.indexOf(name.slice(0, 3).toLowerCase()) + 1;
  // Each pattern: the date's parts in order and what they are, then the rest (the time).
  const patterns: Array<[RegExp, (m: string[]) => [number, number, number]]> = [
    [/^(\d{4})[-/](\d{1,2})[-/](\d{1,2})[T\s,]*(.*)$/, (m) => [Number(m[1]), Number(m[2]), Number(m[3])]],
    [/^(\d{1,2})[-/](\d{1,2})[-/](\d{2,4})[\s,]*(.*)$/, (m) => [Number(m[3]), Number(m[1]), Number(m[2])]],
    [/^([A-Za-z]{3,9})\.?\s+(\d{1,2}),?\s+(\d{4})[\s,]*(.*)$/, (m) => [Number(m[3]), month(m[1] ?? ''), Number(m[2])]],
    [
      /^(\d{1,2})[\s-]([A-Za-z]{3,9})\.?[\s-](\d{2,4})[\s,]*(.*)$/,
      (m) => [Number(m[3]), month(m[2] ?? ''), Number(m[1])],
    ],
  ];
  let parts: [number, number, number] | null = null;
  let rest = '';
  for (const [pattern, read] of patterns) {
    const m = s.match(pattern);
    if (!m) continue;
    parts = read([...m].map((x) => x ?? ''));
    rest = m[4] ?? '';
    break;
  }
  if (!parts) return null;
  let [y] = parts;
  const [, mo, d] = parts;
  if (y < 100) y += 2000;
  if (mo < 1 || mo > 12 || d < 1 || d > 31) return null;
  let hours = 0;
  let minutes = 0;
  let seconds = 0;
  const t = rest.match(/^(\d{1,2}):(\d{2})(?::(\d{2}))?\s*([AaPp][Mm])?/);
  if (t) {
    hours = Number(t[1]);
    minutes = Number(t[2]);
    seconds = Number(t[3] ?? 0);
    const half = t[4]?.toLowerCase();
    if (half === 'pm' && hours < 12) hours += 12;
    if (half === 'am' && hours === 12) hours = 0;
  }
  const pad = (n: number) => String(n).padStart(2, '0');
  const date = new Date(`${y}-${pad(mo)}-${pad(d)}T${pad(hours)}:${pad(minutes)}:${pad(seconds)}+08:00`);
  return Number.isNaN(date.getTime()) ? null : date;
}

/**
 * The rows money came in on: a credit (or a positive amount). Money out (debits, negative
 * amounts) can match no receipt and is left out, so the unmatched list is what the desk needs.
 */
export function statementRows(table: StatementTable, columns: Columns): StatementRowInput[] {
  const out: StatementRowInput[] = [];
  for (const { line, cells } of table.rows) {
    let amount: number | null;
    if (columns.credit) amount = parseAmount(cells[columns.credit]);
    else amount = parseAmount(cells[columns.amount ?? '']);
    if (amount === null || amount <= 0) continue;
    const reference = referenceDigits(cells[columns.referenceNumber] ?? '');
    out.push({
      line,
      referenceNumber: reference || null,
      amountCentavos: amount,
      paidAt: parseStatementDate(cells[columns.paidAt]),
      description: (columns.description ? cells[columns.description] : '')?.slice(0, 500) || null,
    });
  }
  return out;
}
